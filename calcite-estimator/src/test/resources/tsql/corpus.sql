-- T-SQL as SQL Server receives it: which parser reads how many is measured by TsqlCorpusTest and recorded in
-- bench/RESULTS.md. One statement per entry, each ending with a semicolon.

-- TPC-H, the SQL Server variants (TOP, DATEADD, DATEPART, CONVERT instead of LIMIT, INTERVAL, EXTRACT)
select l_returnflag, l_linestatus, sum(l_quantity) as sum_qty, sum(l_extendedprice) as sum_base_price,
  sum(l_extendedprice * (1 - l_discount)) as sum_disc_price, sum(l_extendedprice * (1 - l_discount) * (1 + l_tax)) as sum_charge,
  avg(l_quantity) as avg_qty, avg(l_extendedprice) as avg_price, avg(l_discount) as avg_disc, count_big(*) as count_order
from lineitem
where l_shipdate <= dateadd(dd, -90, convert(datetime, '1998-12-01', 120))
group by l_returnflag, l_linestatus order by l_returnflag, l_linestatus;
select top 100 s_acctbal, s_name, n_name, p_partkey, p_mfgr, s_address, s_phone, s_comment
from part, supplier, partsupp, nation, region
where p_partkey = ps_partkey and s_suppkey = ps_suppkey and p_size = 15 and p_type like '%BRASS'
  and s_nationkey = n_nationkey and n_regionkey = r_regionkey and r_name = 'EUROPE'
  and ps_supplycost = (select min(ps_supplycost) from partsupp, supplier, nation, region
                       where p_partkey = ps_partkey and s_suppkey = ps_suppkey and s_nationkey = n_nationkey
                         and n_regionkey = r_regionkey and r_name = 'EUROPE')
order by s_acctbal desc, n_name, s_name, p_partkey;
select top 10 l_orderkey, sum(l_extendedprice * (1 - l_discount)) as revenue, o_orderdate, o_shippriority
from customer, orders, lineitem
where c_mktsegment = 'BUILDING' and c_custkey = o_custkey and l_orderkey = o_orderkey
  and o_orderdate < '1995-03-15' and l_shipdate > '1995-03-15'
group by l_orderkey, o_orderdate, o_shippriority order by revenue desc, o_orderdate;
select o_orderpriority, count(*) as order_count from orders
where o_orderdate >= '1993-07-01' and o_orderdate < dateadd(mm, 3, cast('1993-07-01' as datetime))
  and exists (select * from lineitem where l_orderkey = o_orderkey and l_commitdate < l_receiptdate)
group by o_orderpriority order by o_orderpriority;
select n_name, sum(l_extendedprice * (1 - l_discount)) as revenue
from customer, orders, lineitem, supplier, nation, region
where c_custkey = o_custkey and l_orderkey = o_orderkey and l_suppkey = s_suppkey and c_nationkey = s_nationkey
  and s_nationkey = n_nationkey and n_regionkey = r_regionkey and r_name = 'ASIA'
  and o_orderdate >= '1994-01-01' and o_orderdate < dateadd(yy, 1, cast('1994-01-01' as datetime))
group by n_name order by revenue desc;
select sum(l_extendedprice * l_discount) as revenue from lineitem
where l_shipdate >= '1994-01-01' and l_shipdate < dateadd(yy, 1, cast('1994-01-01' as datetime))
  and l_discount between .06 - 0.01 and .06 + 0.01 and l_quantity < 24;
select supp_nation, cust_nation, l_year, sum(volume) as revenue
from (select n1.n_name as supp_nation, n2.n_name as cust_nation, datepart(yy, l_shipdate) as l_year,
             l_extendedprice * (1 - l_discount) as volume
      from supplier, lineitem, orders, customer, nation n1, nation n2
      where s_suppkey = l_suppkey and o_orderkey = l_orderkey and c_custkey = o_custkey
        and s_nationkey = n1.n_nationkey and c_nationkey = n2.n_nationkey
        and ((n1.n_name = 'FRANCE' and n2.n_name = 'GERMANY') or (n1.n_name = 'GERMANY' and n2.n_name = 'FRANCE'))
        and l_shipdate between '1995-01-01' and '1996-12-31') as shipping
group by supp_nation, cust_nation, l_year order by supp_nation, cust_nation, l_year;
select o_year, sum(case when nation = 'BRAZIL' then volume else 0 end) / sum(volume) as mkt_share
from (select datepart(yy, o_orderdate) as o_year, l_extendedprice * (1 - l_discount) as volume, n2.n_name as nation
      from part, supplier, lineitem, orders, customer, nation n1, nation n2, region
      where p_partkey = l_partkey and s_suppkey = l_suppkey and l_orderkey = o_orderkey and o_custkey = c_custkey
        and c_nationkey = n1.n_nationkey and n1.n_regionkey = r_regionkey and r_name = 'AMERICA'
        and s_nationkey = n2.n_nationkey and o_orderdate between '1995-01-01' and '1996-12-31'
        and p_type = 'ECONOMY ANODIZED STEEL') as all_nations
group by o_year order by o_year;
select nation, o_year, sum(amount) as sum_profit
from (select n_name as nation, datepart(yy, o_orderdate) as o_year,
             l_extendedprice * (1 - l_discount) - ps_supplycost * l_quantity as amount
      from part, supplier, lineitem, partsupp, orders, nation
      where s_suppkey = l_suppkey and ps_suppkey = l_suppkey and ps_partkey = l_partkey and p_partkey = l_partkey
        and o_orderkey = l_orderkey and s_nationkey = n_nationkey and p_name like '%green%') as profit
group by nation, o_year order by nation, o_year desc;
select top 20 c_custkey, c_name, sum(l_extendedprice * (1 - l_discount)) as revenue, c_acctbal, n_name, c_address,
  c_phone, c_comment
from customer, orders, lineitem, nation
where c_custkey = o_custkey and l_orderkey = o_orderkey and o_orderdate >= '1993-10-01'
  and o_orderdate < dateadd(mm, 3, cast('1993-10-01' as datetime)) and l_returnflag = 'R' and c_nationkey = n_nationkey
group by c_custkey, c_name, c_acctbal, c_phone, n_name, c_address, c_comment order by revenue desc;
select ps_partkey, sum(ps_supplycost * ps_availqty) as value from partsupp, supplier, nation
where ps_suppkey = s_suppkey and s_nationkey = n_nationkey and n_name = 'GERMANY'
group by ps_partkey
having sum(ps_supplycost * ps_availqty) > (select sum(ps_supplycost * ps_availqty) * 0.0001000000
                                           from partsupp, supplier, nation
                                           where ps_suppkey = s_suppkey and s_nationkey = n_nationkey
                                             and n_name = 'GERMANY')
order by value desc;
select l_shipmode,
  sum(case when o_orderpriority = '1-URGENT' or o_orderpriority = '2-HIGH' then 1 else 0 end) as high_line_count,
  sum(case when o_orderpriority <> '1-URGENT' and o_orderpriority <> '2-HIGH' then 1 else 0 end) as low_line_count
from orders, lineitem
where o_orderkey = l_orderkey and l_shipmode in ('MAIL', 'SHIP') and l_commitdate < l_receiptdate
  and l_shipdate < l_commitdate and l_receiptdate >= '1994-01-01'
  and l_receiptdate < dateadd(yy, 1, cast('1994-01-01' as datetime))
group by l_shipmode order by l_shipmode;
select c_count, count(*) as custdist
from (select c_custkey, count(o_orderkey)
      from customer left outer join orders on c_custkey = o_custkey and o_comment not like '%special%requests%'
      group by c_custkey) as c_orders (c_custkey, c_count)
group by c_count order by custdist desc, c_count desc;
select 100.00 * sum(case when p_type like 'PROMO%' then l_extendedprice * (1 - l_discount) else 0 end)
  / sum(l_extendedprice * (1 - l_discount)) as promo_revenue
from lineitem, part
where l_partkey = p_partkey and l_shipdate >= '1995-09-01' and l_shipdate < dateadd(mm, 1, '1995-09-01');
with revenue0 (supplier_no, total_revenue) as (
  select l_suppkey, sum(l_extendedprice * (1 - l_discount)) from lineitem
  where l_shipdate >= '1996-01-01' and l_shipdate < dateadd(mm, 3, cast('1996-01-01' as datetime))
  group by l_suppkey)
select s_suppkey, s_name, s_address, s_phone, total_revenue from supplier, revenue0
where s_suppkey = supplier_no and total_revenue = (select max(total_revenue) from revenue0)
order by s_suppkey;
select p_brand, p_type, p_size, count(distinct ps_suppkey) as supplier_cnt from partsupp, part
where p_partkey = ps_partkey and p_brand <> 'Brand#45' and p_type not like 'MEDIUM POLISHED%'
  and p_size in (49, 14, 23, 45, 19, 3, 36, 9)
  and ps_suppkey not in (select s_suppkey from supplier where s_comment like '%Customer%Complaints%')
group by p_brand, p_type, p_size order by supplier_cnt desc, p_brand, p_type, p_size;
select sum(l_extendedprice) / 7.0 as avg_yearly from lineitem, part
where p_partkey = l_partkey and p_brand = 'Brand#23' and p_container = 'MED BOX'
  and l_quantity < (select 0.2 * avg(l_quantity) from lineitem where l_partkey = p_partkey);
select top 100 c_name, c_custkey, o_orderkey, o_orderdate, o_totalprice, sum(l_quantity)
from customer, orders, lineitem
where o_orderkey in (select l_orderkey from lineitem group by l_orderkey having sum(l_quantity) > 300)
  and c_custkey = o_custkey and o_orderkey = l_orderkey
group by c_name, c_custkey, o_orderkey, o_orderdate, o_totalprice order by o_totalprice desc, o_orderdate;
select sum(l_extendedprice * (1 - l_discount)) as revenue from lineitem, part
where (p_partkey = l_partkey and p_brand = 'Brand#12' and p_container in ('SM CASE', 'SM BOX', 'SM PACK', 'SM PKG')
       and l_quantity >= 1 and l_quantity <= 1 + 10 and p_size between 1 and 5 and l_shipmode in ('AIR', 'AIR REG')
       and l_shipinstruct = 'DELIVER IN PERSON')
   or (p_partkey = l_partkey and p_brand = 'Brand#23' and p_container in ('MED BAG', 'MED BOX', 'MED PKG', 'MED PACK')
       and l_quantity >= 10 and l_quantity <= 10 + 10 and p_size between 1 and 10
       and l_shipmode in ('AIR', 'AIR REG') and l_shipinstruct = 'DELIVER IN PERSON')
   or (p_partkey = l_partkey and p_brand = 'Brand#34' and p_container in ('LG CASE', 'LG BOX', 'LG PACK', 'LG PKG')
       and l_quantity >= 20 and l_quantity <= 20 + 10 and p_size between 1 and 15
       and l_shipmode in ('AIR', 'AIR REG') and l_shipinstruct = 'DELIVER IN PERSON');
select s_name, s_address from supplier, nation
where s_suppkey in (select ps_suppkey from partsupp
                    where ps_partkey in (select p_partkey from part where p_name like 'forest%')
                      and ps_availqty > (select 0.5 * sum(l_quantity) from lineitem
                                         where l_partkey = ps_partkey and l_suppkey = ps_suppkey
                                           and l_shipdate >= '1994-01-01'
                                           and l_shipdate < dateadd(yy, 1, '1994-01-01')))
  and s_nationkey = n_nationkey and n_name = 'CANADA'
order by s_name;
select top 100 s_name, count(*) as numwait from supplier, lineitem l1, orders, nation
where s_suppkey = l1.l_suppkey and o_orderkey = l1.l_orderkey and o_orderstatus = 'F'
  and l1.l_receiptdate > l1.l_commitdate
  and exists (select * from lineitem l2 where l2.l_orderkey = l1.l_orderkey and l2.l_suppkey <> l1.l_suppkey)
  and not exists (select * from lineitem l3 where l3.l_orderkey = l1.l_orderkey and l3.l_suppkey <> l1.l_suppkey
                  and l3.l_receiptdate > l3.l_commitdate)
  and s_nationkey = n_nationkey and n_name = 'SAUDI ARABIA'
group by s_name order by numwait desc, s_name;
select cntrycode, count(*) as numcust, sum(c_acctbal) as totacctbal
from (select substring(c_phone, 1, 2) as cntrycode, c_acctbal from customer
      where substring(c_phone, 1, 2) in ('13', '31', '23', '29', '30', '18', '17')
        and c_acctbal > (select avg(c_acctbal) from customer
                         where c_acctbal > 0.00 and substring(c_phone, 1, 2) in ('13', '31', '23', '29', '30', '18', '17'))
        and not exists (select * from orders where o_custkey = c_custkey)) as custsale
group by cntrycode order by cntrycode;

-- Join Order Benchmark queries of 5, 7 and 8 tables (1a, 2a, 10a, 7a), as the published SQL Server 2019
-- showplans ran them
SELECT MIN(mc.note) AS production_note, MIN(t.title) AS movie_title, MIN(t.production_year) AS movie_year
FROM company_type AS ct, info_type AS it, movie_companies AS mc, movie_info_idx AS mi_idx, title AS t
WHERE ct.kind = 'production companies' AND it.info = 'top 250 rank'
  AND mc.note NOT LIKE '%(as Metro-Goldwyn-Mayer Pictures)%' AND (mc.note LIKE '%(co-production)%' OR mc.note LIKE '%(presents)%')
  AND ct.id = mc.company_type_id AND t.id = mc.movie_id AND t.id = mi_idx.movie_id AND mc.movie_id = mi_idx.movie_id
  AND it.id = mi_idx.info_type_id;
SELECT MIN(t.title) AS movie_title
FROM company_name AS cn, keyword AS k, movie_companies AS mc, movie_keyword AS mk, title AS t
WHERE cn.country_code = '[de]' AND k.keyword = 'character-name-in-title' AND cn.id = mc.company_id
  AND mc.movie_id = t.id AND t.id = mk.movie_id AND mk.keyword_id = k.id AND mc.movie_id = mk.movie_id;
SELECT MIN(chn.name) AS uncredited_voiced_character, MIN(t.title) AS russian_movie
FROM char_name AS chn, cast_info AS ci, company_name AS cn, company_type AS ct, movie_companies AS mc,
     role_type AS rt, title AS t
WHERE ci.note LIKE '%(voice)%' AND ci.note LIKE '%(uncredited)%' AND cn.country_code = '[ru]' AND rt.role = 'actor'
  AND t.production_year > 2005 AND t.id = mc.movie_id AND t.id = ci.movie_id AND ci.movie_id = mc.movie_id
  AND chn.id = ci.person_role_id AND rt.id = ci.role_id AND cn.id = mc.company_id AND ct.id = mc.company_type_id;
SELECT MIN(n.name) AS of_person, MIN(t.title) AS biography_movie
FROM aka_name AS an, cast_info AS ci, info_type AS it, link_type AS lt, movie_link AS ml, name AS n,
     person_info AS pi, title AS t
WHERE an.name LIKE '%a%' AND it.info = 'mini biography' AND lt.link = 'features' AND n.name_pcode_cf BETWEEN 'A' AND 'F'
  AND (n.gender = 'm' OR (n.gender = 'f' AND n.name LIKE 'B%')) AND pi.note = 'Volker Boehm'
  AND t.production_year BETWEEN 1980 AND 1995 AND n.id = an.person_id AND n.id = pi.person_id AND ci.person_id = n.id
  AND t.id = ci.movie_id AND ml.linked_movie_id = t.id AND lt.id = ml.link_type_id AND it.id = pi.info_type_id
  AND pi.person_id = an.person_id AND pi.person_id = ci.person_id AND an.person_id = ci.person_id
  AND ci.movie_id = ml.linked_movie_id;

-- TPC-DS-like reporting joins: a star around store_sales, a CTE with UNION ALL across channels
SELECT TOP 100 [i].[i_item_id], [s].[s_state], AVG([ss].[ss_quantity]) AS agg1, AVG([ss].[ss_list_price]) AS agg2
FROM [dbo].[store_sales] AS [ss] WITH (NOLOCK)
INNER JOIN [dbo].[customer_demographics] AS [cd] ON [ss].[ss_cdemo_sk] = [cd].[cd_demo_sk]
INNER JOIN [dbo].[date_dim] AS [d] ON [ss].[ss_sold_date_sk] = [d].[d_date_sk]
INNER JOIN [dbo].[store] AS [s] ON [ss].[ss_store_sk] = [s].[s_store_sk]
INNER JOIN [dbo].[item] AS [i] ON [ss].[ss_item_sk] = [i].[i_item_sk]
INNER JOIN [dbo].[promotion] AS [p] ON [ss].[ss_promo_sk] = [p].[p_promo_sk]
INNER JOIN [dbo].[customer] AS [c] ON [ss].[ss_customer_sk] = [c].[c_customer_sk]
WHERE [cd].[cd_gender] = N'F' AND [cd].[cd_marital_status] = N'W' AND [d].[d_year] = 1998
  AND [s].[s_state] IN (N'TN', N'SD', N'AL') AND ([p].[p_channel_email] = N'N' OR [p].[p_channel_event] = N'N')
GROUP BY ROLLUP ([i].[i_item_id], [s].[s_state])
ORDER BY [i].[i_item_id], [s].[s_state];
WITH [sales] AS (
  SELECT [ss_item_sk] AS [item_sk], [ss_ext_sales_price] AS [price], [ss_sold_date_sk] AS [date_sk] FROM [store_sales]
  UNION ALL
  SELECT [cs_item_sk], [cs_ext_sales_price], [cs_sold_date_sk] FROM [catalog_sales]
  UNION ALL
  SELECT [ws_item_sk], [ws_ext_sales_price], [ws_sold_date_sk] FROM [web_sales])
SELECT TOP (100) [i].[i_category], [d].[d_moy], SUM([sales].[price]) AS [total]
FROM [sales] JOIN [item] AS [i] ON [i].[i_item_sk] = [sales].[item_sk]
JOIN [date_dim] AS [d] ON [d].[d_date_sk] = [sales].[date_sk]
WHERE [d].[d_year] = 2001 AND DATEPART(quarter, [d].[d_date]) = 2
GROUP BY [i].[i_category], [d].[d_moy]
ORDER BY [total] DESC;

-- mssql-jdbc: a PreparedStatement's text as sp_executesql's @stmt, its ? markers become @P0, @P1, ...
select c.id, c.name, o.total from dbo.customers c inner join dbo.orders o on o.customer_id = c.id where o.created > @P0 and c.region = @P1;
select top (@P0) o.id, o.total from dbo.orders o join dbo.order_lines l on l.order_id = o.id join dbo.products p on p.id = l.product_id where p.sku in (@P1, @P2, @P3) order by o.total desc;
update dbo.orders set status = @P0, updated_at = @P1 where id = @P2;

-- Entity Framework 6 and EF Core output
SELECT [Project1].[Id] AS [Id], [Project1].[Name] AS [Name], [Project1].[Total] AS [Total]
FROM ( SELECT [Extent1].[Id] AS [Id], [Extent1].[Name] AS [Name], [Extent2].[Total] AS [Total]
       FROM [dbo].[Customers] AS [Extent1]
       LEFT OUTER JOIN [dbo].[Orders] AS [Extent2] ON [Extent1].[Id] = [Extent2].[CustomerId]
       WHERE [Extent1].[IsActive] = 1 ) AS [Project1]
ORDER BY [Project1].[Name] ASC
OFFSET 20 ROWS FETCH NEXT 10 ROWS ONLY;
SELECT [c].[Id], [c].[Name], [t].[Id], [t].[Total]
FROM [Customers] AS [c]
OUTER APPLY (
    SELECT TOP(3) [o].[Id], [o].[Total]
    FROM [Orders] AS [o]
    WHERE [c].[Id] = [o].[CustomerId]
    ORDER BY [o].[Total] DESC
) AS [t]
WHERE EXISTS (
    SELECT 1
    FROM [Invoices] AS [i]
    WHERE [i].[CustomerId] = [c].[Id])
ORDER BY [c].[Id], [t].[Total] DESC;
SELECT [b].[BlogId], [p0].[Title], CASE WHEN EXISTS (SELECT 1 FROM [Tags] AS [t] WHERE [t].[PostId] = [p0].[PostId])
    THEN CAST(1 AS bit) ELSE CAST(0 AS bit) END AS [HasTags]
FROM [Blogs] AS [b]
CROSS APPLY (SELECT TOP(1) [p].[PostId], [p].[Title] FROM [Posts] AS [p] WHERE [p].[BlogId] = [b].[BlogId]
             ORDER BY [p].[Published] DESC) AS [p0]
WHERE [b].[Url] LIKE N'%dotnet%'
ORDER BY (SELECT 1)
OFFSET @__p_0 ROWS FETCH NEXT @__p_1 ROWS ONLY;

-- table and join hints, OPTION
SELECT o.id, c.name FROM dbo.Orders o WITH (NOLOCK)
INNER HASH JOIN dbo.Customers c WITH (NOLOCK, INDEX(ix_customers_region)) ON c.id = o.customer_id
LEFT LOOP JOIN dbo.Regions r (NOLOCK) ON r.id = c.region_id
WHERE o.status = N'open'
OPTION (RECOMPILE, MAXDOP 1, HASH JOIN);
SELECT DISTINCT TOP 10 PERCENT WITH TIES o.id FROM dbo.Orders o INNER MERGE JOIN dbo.Shipments s ON s.order_id = o.id ORDER BY o.id OPTION (FORCE ORDER);

-- #temp tables, SELECT ... INTO, double-quoted names
SELECT t.id, c.name FROM #recent t JOIN dbo.Customers c ON c.id = t.customer_id JOIN ##lookup l ON l.code = c.code;
SELECT o.customer_id, SUM(o.total) AS total INTO #totals FROM dbo.Orders o JOIN dbo.Customers c ON c.id = o.customer_id GROUP BY o.customer_id;
SELECT "o"."Id", "c"."Name" FROM "dbo"."Orders" "o" JOIN "dbo"."Customers" "c" ON "c"."Id" = "o"."CustomerId";

-- data changes joining tables
UPDATE o SET o.status = N'late' FROM dbo.Orders AS o INNER JOIN dbo.Shipments AS s ON s.order_id = o.id WHERE s.shipped_at IS NULL AND o.due < GETDATE();
DELETE FROM d FROM dbo.Details d JOIN #gone g ON g.id = d.order_id;
INSERT INTO dbo.Archive (id, total) OUTPUT inserted.id SELECT o.id, o.total FROM dbo.Orders o JOIN dbo.Customers c ON c.id = o.customer_id WHERE c.closed = 1;
MERGE dbo.Stock AS t USING (SELECT p.id, SUM(d.qty) AS qty FROM dbo.Details d JOIN dbo.Products p ON p.id = d.product_id GROUP BY p.id) AS s
ON t.product_id = s.id WHEN MATCHED THEN UPDATE SET t.qty = t.qty - s.qty WHEN NOT MATCHED THEN INSERT (product_id, qty) VALUES (s.id, s.qty);

-- T-SQL functions: FOR XML PATH, CONVERT with a style, TRY_CONVERT, DATEDIFF, ISNULL, IIF, NVARCHAR(MAX)
SELECT c.id, STUFF((SELECT ',' + o.code FROM dbo.Orders o WHERE o.customer_id = c.id FOR XML PATH('')), 1, 1, '') AS codes
FROM dbo.Customers c JOIN dbo.Regions r ON r.id = c.region_id;
SELECT CONVERT(varchar(10), o.created, 120) AS day, COUNT_BIG(*) AS n FROM dbo.Orders o JOIN dbo.Customers c ON c.id = o.customer_id
WHERE TRY_CONVERT(int, c.code) > 10 AND DATEDIFF(day, o.created, GETDATE()) < 30 GROUP BY CONVERT(varchar(10), o.created, 120);
SELECT ISNULL(c.nickname, c.name) AS shown, IIF(o.total > 100, N'big', N'small') AS size, CAST(o.note AS nvarchar(max)) AS note
FROM dbo.Customers c LEFT JOIN dbo.Orders o ON o.customer_id = c.id WHERE LEN(c.name) > 3;
