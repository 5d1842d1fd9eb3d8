-- docs/examples/star16-view.sql inside a PL/pgSQL function (lab_star16_count, in the demo schema): the
-- statement names no relation, the function plans the 16-table join while it runs, and Memogate, which
-- reads the function's body, estimates the join and holds its permits until the call returns.
SELECT lab_star16_count();
