-- docs/examples/star16.sql through a view (lab_star16, in the demo schema): the text names one relation,
-- PostgreSQL plans the 16-table join, and Memogate, which reads the view's definition, estimates the join.
SELECT count(*) FROM lab_star16;
