-- An 11-table star join over the MariaDB demo's planner lab (bin/memogate demo --server mariadb). With
-- optimizer_prune_level = 0 (demo --planner wide, or SET it) MariaDB 10.11 searched join orders for 4 to 8 s on
-- a 2-vCPU machine (1 s at 10 tables, more than a minute at 12); with its default pruning, a few milliseconds.
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
JOIN lab_arm10 AS a10 ON a10.id = h.k10;
