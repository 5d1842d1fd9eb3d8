-- Example reports over the demo warehouse (demo-schema.sql), each joining 20 tables; statements are
-- separated by semicolons. With default settings the first is split by join_collapse_limit (8) into
-- small exhaustive searches (about 0.1 s of planning), while the second's flat FROM list of 20 items
-- goes to the genetic optimizer (above geqo_threshold, 12; about 0.75 s). With geqo = off and the
-- collapse limits raised to 20, the exhaustive search over 20 relations needs far more memory, which
-- is what Memogate's admission control is about.

-- Revenue in 2025 by customer country, product department and fiscal quarter, without clearance
-- sales: explicit JOIN syntax, 20 tables (sales and 19 dimensions along every snowflake branch).
SELECT co.country_name,
       d.department_name,
       fp.fiscal_quarter,
       count(*)                          AS sales_count,
       count(DISTINCT m.manufacturer_id) AS manufacturers,
       sum(s.net_amount)                 AS revenue
FROM sales AS s
JOIN date_dim AS dd          ON dd.date_id = s.date_id
JOIN fiscal_period AS fp     ON fp.fiscal_period_id = dd.fiscal_period_id
JOIN time_of_day AS t        ON t.time_id = s.time_id
JOIN day_part AS dp          ON dp.day_part_id = t.day_part_id
JOIN customer AS c           ON c.customer_id = s.customer_id
JOIN customer_segment AS cs  ON cs.segment_id = c.segment_id
JOIN city AS cc              ON cc.city_id = c.city_id
JOIN region AS r             ON r.region_id = cc.region_id
JOIN country AS co           ON co.country_id = r.country_id
JOIN product AS p            ON p.product_id = s.product_id
JOIN brand AS b              ON b.brand_id = p.brand_id
JOIN manufacturer AS m       ON m.manufacturer_id = b.manufacturer_id
JOIN category AS cat         ON cat.category_id = p.category_id
JOIN department AS d         ON d.department_id = cat.department_id
JOIN store AS st             ON st.store_id = s.store_id
JOIN store_format AS sf      ON sf.store_format_id = st.store_format_id
JOIN promotion AS pr         ON pr.promotion_id = s.promotion_id
JOIN promotion_type AS pt    ON pt.promotion_type_id = pr.promotion_type_id
JOIN channel AS ch           ON ch.channel_id = s.channel_id
WHERE fp.fiscal_year = 2025
  AND pt.type_name <> 'Clearance'
  AND dp.day_part_name <> 'night'
  AND cs.segment_name IN ('Consumer', 'Small business', 'Corporate')
  AND sf.format_name <> 'Outlet'
  AND ch.channel_name IN ('Store', 'Web', 'Mobile app')
GROUP BY co.country_name, d.department_name, fp.fiscal_quarter
ORDER BY revenue DESC, co.country_name, d.department_name, fp.fiscal_quarter
LIMIT 25;

-- Who sells, ships and gets paid where: comma joins with the join predicates in WHERE, 20 tables, the
-- city dimension playing three roles (store, warehouse, supplier).
SELECT jt.title,
       pp.provider_name,
       car.carrier_name,
       lt.tier_name,
       count(*)              AS sales_count,
       sum(s.net_amount)     AS revenue,
       avg(cur.rate_to_eur)  AS average_rate_to_eur
FROM sales AS s,
     payment_method AS pm,
     payment_provider AS pp,
     shipping_mode AS sm,
     carrier AS car,
     warehouse AS w,
     city AS wc,
     region AS wr,
     employee AS e,
     job_title AS jt,
     store AS st,
     city AS sc,
     currency AS cur,
     country AS curc,
     customer AS c,
     loyalty_tier AS lt,
     income_band AS ib,
     product AS p,
     supplier AS sup,
     city AS supc
WHERE pm.payment_method_id = s.payment_method_id
  AND pp.payment_provider_id = pm.payment_provider_id
  AND sm.shipping_mode_id = s.shipping_mode_id
  AND car.carrier_id = sm.carrier_id
  AND w.warehouse_id = s.warehouse_id
  AND wc.city_id = w.city_id
  AND wr.region_id = wc.region_id
  AND e.employee_id = s.employee_id
  AND jt.job_title_id = e.job_title_id
  AND st.store_id = s.store_id
  AND st.store_id = e.store_id
  AND sc.city_id = st.city_id
  AND cur.currency_id = s.currency_id
  AND curc.country_id = cur.country_id
  AND c.customer_id = s.customer_id
  AND lt.loyalty_tier_id = c.loyalty_tier_id
  AND ib.income_band_id = c.income_band_id
  AND p.product_id = s.product_id
  AND sup.supplier_id = p.supplier_id
  AND supc.city_id = sup.city_id
  AND ib.upper_bound < 160000
  AND sc.population > 50000
GROUP BY jt.title, pp.provider_name, car.carrier_name, lt.tier_name
ORDER BY revenue DESC, jt.title, pp.provider_name, car.carrier_name, lt.tier_name
LIMIT 25;
