-- Typical MySQL and MariaDB statements, as applications send them: which parser reads how many is measured by
-- MySqlCorpusTest and recorded in bench/RESULTS.md. One statement per entry, each ending with a semicolon.

-- sysbench oltp_point_select, oltp_read_only (src/lua/oltp_common.lua)
SELECT c FROM sbtest1 WHERE id=4711;
SELECT c FROM sbtest1 WHERE id BETWEEN 5012 AND 5111;
SELECT SUM(k) FROM sbtest1 WHERE id BETWEEN 5012 AND 5111;
SELECT c FROM sbtest1 WHERE id BETWEEN 5012 AND 5111 ORDER BY c;
SELECT DISTINCT c FROM sbtest1 WHERE id BETWEEN 5012 AND 5111 ORDER BY c;
-- sysbench oltp_write_only
UPDATE sbtest1 SET k=k+1 WHERE id=4711;
UPDATE sbtest1 SET c='08566691963-88624912351-16662227201-46648573979' WHERE id=4711;
DELETE FROM sbtest1 WHERE id=4711;
INSERT INTO sbtest1 (id, k, c, pad) VALUES (4711, 5012, '68487932199-96439406143', '22195207048-70116052123');

-- TPC-H, MySQL variants (dates with INTERVAL n unit, LIMIT)
select l_orderkey, sum(l_extendedprice * (1 - l_discount)) as revenue, o_orderdate, o_shippriority
from customer, orders, lineitem
where c_mktsegment = 'BUILDING' and c_custkey = o_custkey and l_orderkey = o_orderkey
  and o_orderdate < date '1995-03-15' and l_shipdate > date '1995-03-15'
group by l_orderkey, o_orderdate, o_shippriority order by revenue desc, o_orderdate limit 10;
select n_name, sum(l_extendedprice * (1 - l_discount)) as revenue
from customer, orders, lineitem, supplier, nation, region
where c_custkey = o_custkey and l_orderkey = o_orderkey and l_suppkey = s_suppkey and c_nationkey = s_nationkey
  and s_nationkey = n_nationkey and n_regionkey = r_regionkey and r_name = 'ASIA'
  and o_orderdate >= date '1994-01-01' and o_orderdate < date '1994-01-01' + interval 1 year
group by n_name order by revenue desc;
select c_custkey, c_name, sum(l_extendedprice * (1 - l_discount)) as revenue, c_acctbal, n_name
from customer, orders, lineitem, nation
where c_custkey = o_custkey and l_orderkey = o_orderkey and o_orderdate >= date '1993-10-01'
  and o_orderdate < date_add('1993-10-01', interval 3 month) and l_returnflag = 'R' and c_nationkey = n_nationkey
group by c_custkey, c_name, c_acctbal, n_name order by revenue desc limit 20;
select s_name, count(*) as numwait from supplier, lineitem l1, orders, nation
where s_suppkey = l1.l_suppkey and o_orderkey = l1.l_orderkey and o_orderstatus = 'F'
  and l1.l_receiptdate > l1.l_commitdate
  and exists (select * from lineitem l2 where l2.l_orderkey = l1.l_orderkey and l2.l_suppkey <> l1.l_suppkey)
  and not exists (select * from lineitem l3 where l3.l_orderkey = l1.l_orderkey and l3.l_suppkey <> l1.l_suppkey
                  and l3.l_receiptdate > l3.l_commitdate)
  and s_nationkey = n_nationkey and n_name = 'SAUDI ARABIA'
group by s_name order by numwait desc, s_name limit 100;

-- ORM output: Hibernate, Rails, Django, WordPress (backticks, LIMIT a, b, SQL_CALC_FOUND_ROWS)
select `order0_`.`id` as `id1_3_`, `customer1_`.`name` as `name2_1_` from `orders` `order0_` inner join `customer` `customer1_` on `order0_`.`customer_id`=`customer1_`.`id` where `customer1_`.`country`=? limit ?;
SELECT `posts`.* FROM `posts` INNER JOIN `taggings` ON `posts`.`id` = `taggings`.`post_id` INNER JOIN `tags` ON `tags`.`id` = `taggings`.`tag_id` WHERE `tags`.`name` = 'mysql' ORDER BY `posts`.`created_at` DESC LIMIT 20, 10;
SELECT `app_book`.`id`, `app_book`.`title`, `app_author`.`name` FROM `app_book` INNER JOIN `app_author` ON (`app_book`.`author_id` = `app_author`.`id`) WHERE `app_author`.`name` LIKE BINARY '%smith%';
SELECT SQL_CALC_FOUND_ROWS wp_posts.ID FROM wp_posts LEFT JOIN wp_term_relationships ON (wp_posts.ID = wp_term_relationships.object_id) WHERE 1=1 AND wp_term_relationships.term_taxonomy_id IN (7) AND wp_posts.post_type = 'post' GROUP BY wp_posts.ID ORDER BY wp_posts.post_date DESC LIMIT 0, 10;

-- Hints and modifiers
SELECT STRAIGHT_JOIN o.id, c.name FROM orders o JOIN customer c ON c.id = o.customer_id WHERE o.total > 100;
SELECT o.id FROM orders o STRAIGHT_JOIN customer c ON c.id = o.customer_id;
SELECT o.id FROM orders o FORCE INDEX (idx_customer) JOIN customer c USE INDEX FOR JOIN (PRIMARY) ON c.id = o.customer_id IGNORE INDEX (idx_x) WHERE o.total > 100;
SELECT SQL_NO_CACHE HIGH_PRIORITY id FROM orders o, customer c WHERE o.customer_id = c.id;
SELECT /*! STRAIGHT_JOIN */ o.id FROM orders o, customer c WHERE o.customer_id = c.id;

-- Locking, upserts, REPLACE, multi-table UPDATE and DELETE
SELECT o.id, c.balance FROM orders o JOIN customer c ON c.id = o.customer_id WHERE o.id = 7 FOR UPDATE;
SELECT o.id FROM orders o JOIN customer c ON c.id = o.customer_id WHERE o.id = 7 LOCK IN SHARE MODE;
INSERT INTO counters (id, hits) SELECT c.id, 1 FROM customer c JOIN orders o ON o.customer_id = c.id ON DUPLICATE KEY UPDATE hits = hits + 1;
INSERT INTO counters (id, hits) VALUES (1, 1) ON DUPLICATE KEY UPDATE hits = VALUES(hits) + 1;
REPLACE INTO summary (customer_id, total) SELECT o.customer_id, SUM(o.total) FROM orders o JOIN customer c ON c.id = o.customer_id GROUP BY o.customer_id;
UPDATE orders o JOIN customer c ON c.id = o.customer_id SET o.discount = 0.1 WHERE c.vip = 1;
UPDATE orders o, customer c SET o.discount = 0.1 WHERE c.id = o.customer_id AND c.vip = 1;
DELETE o FROM orders o JOIN customer c ON c.id = o.customer_id WHERE c.closed = 1;
DELETE FROM o USING orders o JOIN customer c ON c.id = o.customer_id WHERE c.closed = 1;
UPDATE LOW_PRIORITY IGNORE orders SET flag = 1 WHERE created < NOW() - INTERVAL 30 DAY ORDER BY id LIMIT 1000;

-- Comments, escapes, variables, operators
SELECT o.id # the order
FROM orders o -- and its customer
JOIN customer c ON c.id = o.customer_id WHERE c.name = 'O\'Brien' AND c.note = "say \"hi\"";
SELECT o.id, @rank FROM orders o JOIN customer c ON c.id = o.customer_id WHERE o.total > @@session.max_join_size;
SELECT o.id FROM orders o JOIN customer c ON c.id <=> o.customer_id WHERE c.name REGEXP '^a' && o.total DIV 2 > 3;
SELECT CAST(o.code AS UNSIGNED), IFNULL(c.name, 'none'), DATE_FORMAT(o.created, '%Y-%m') FROM orders o LEFT JOIN customer c ON c.id = o.customer_id;
SELECT c.id, GROUP_CONCAT(o.id ORDER BY o.id SEPARATOR ',') FROM customer c JOIN orders o ON o.customer_id = c.id GROUP BY c.id;
