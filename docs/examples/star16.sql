-- A 16-table star join over the demo's planner lab (bin/memogate demo). With the collapse limits and
-- geqo_threshold at 20 (bin/memogate demo --planner wide) PostgreSQL 18 needs about 470 MB to plan it.
SELECT count(*)
FROM lab_hub AS h
JOIN lab_arm1 AS a1 ON a1.id = h.k1
JOIN lab_arm2 AS a2 ON a2.id = h.k2
JOIN lab_arm3 AS a3 ON a3.id = h.k3
JOIN lab_arm4 AS a4 ON a4.id = h.k4
JOIN lab_arm5 AS a5 ON a5.id = h.k5
JOIN lab_arm6 AS a6 ON a6.id = h.k6
JOIN lab_arm7 AS a7 ON a7.id = h.k7
JOIN lab_arm8 AS a8 ON a8.id = h.k8
JOIN lab_arm9 AS a9 ON a9.id = h.k9
JOIN lab_arm10 AS a10 ON a10.id = h.k10
JOIN lab_arm11 AS a11 ON a11.id = h.k11
JOIN lab_arm12 AS a12 ON a12.id = h.k12
JOIN lab_arm13 AS a13 ON a13.id = h.k13
JOIN lab_arm14 AS a14 ON a14.id = h.k14
JOIN lab_arm15 AS a15 ON a15.id = h.k15;
