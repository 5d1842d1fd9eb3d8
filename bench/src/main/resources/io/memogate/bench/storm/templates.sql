-- Storm query templates over the demo warehouse (proxy-core's demo-schema.sql): ten reports in star and
-- snowflake shapes with 12 to 17 joins, centred on the fact table. Under the storm's planner settings
-- (join_collapse_limit = from_collapse_limit = geqo_threshold = 20) every one is planned by exhaustive
-- dynamic programming, with about 150 MB to 1.4 GB of planner memory on PostgreSQL 18 (measured one at a
-- time with `memogate bench storm --check-templates`; bench/log/storm.md has the table). Planner memory here
-- depends on far more than the join count (indexes, filters and grouping keys change which paths survive):
-- these ten were chosen from measured candidates so that none needs more than about 1.5 GB alone.
--
-- Each template is one statement ending with a semicolon. The load generator makes every submission
-- unique as the paper's did: {tag} becomes a comment naming the client and submission, {k} an integer
-- literal in an always-true predicate (sales.quantity is 1 to 4), so no two submissions are the same text.

-- t01: revenue by day and channel over a star of sales and all 12 of its dimensions (12 joins).
SELECT {tag} dd.full_date, ch.channel_name, count(*) AS sales_count, sum(s.net_amount) AS revenue
FROM sales AS s
JOIN date_dim AS dd        ON dd.date_id = s.date_id
JOIN time_of_day AS t      ON t.time_id = s.time_id
JOIN customer AS c         ON c.customer_id = s.customer_id
JOIN product AS p          ON p.product_id = s.product_id
JOIN store AS st           ON st.store_id = s.store_id
JOIN employee AS e         ON e.employee_id = s.employee_id
JOIN promotion AS pr       ON pr.promotion_id = s.promotion_id
JOIN channel AS ch         ON ch.channel_id = s.channel_id
JOIN currency AS cur       ON cur.currency_id = s.currency_id
JOIN warehouse AS w        ON w.warehouse_id = s.warehouse_id
JOIN shipping_mode AS sm   ON sm.shipping_mode_id = s.shipping_mode_id
JOIN payment_method AS pm  ON pm.payment_method_id = s.payment_method_id
WHERE s.quantity < {k} AND t.hour BETWEEN 8 AND 20
GROUP BY dd.full_date, ch.channel_name
ORDER BY revenue DESC
LIMIT 20;

-- t02: fiscal quarter by customer segment, through the calendar, customer, logistics and payment branches (12
-- joins).
SELECT {tag} fp.fiscal_quarter, cs.segment_name, count(*) AS sales_count, sum(s.net_amount) AS revenue
FROM sales AS s
JOIN date_dim AS dd ON dd.date_id = s.date_id
JOIN fiscal_period AS fp ON fp.fiscal_period_id = dd.fiscal_period_id
JOIN time_of_day AS t ON t.time_id = s.time_id
JOIN customer AS c ON c.customer_id = s.customer_id
JOIN customer_segment AS cs ON cs.segment_id = c.segment_id
JOIN channel AS ch ON ch.channel_id = s.channel_id
JOIN currency AS cur ON cur.currency_id = s.currency_id
JOIN warehouse AS w ON w.warehouse_id = s.warehouse_id
JOIN shipping_mode AS sm ON sm.shipping_mode_id = s.shipping_mode_id
JOIN carrier AS car ON car.carrier_id = sm.carrier_id
JOIN payment_method AS pm ON pm.payment_method_id = s.payment_method_id
JOIN payment_provider AS pp ON pp.payment_provider_id = pm.payment_provider_id
WHERE s.quantity < {k} AND ch.channel_name <> 'Phone'
GROUP BY fp.fiscal_quarter, cs.segment_name
ORDER BY revenue DESC
LIMIT 25;

-- t03: revenue by customer country and region: the customer geography chain with logistics and payment (13
-- joins).
SELECT {tag} co.country_name, r.region_name, count(*) AS sales_count, sum(s.net_amount) AS revenue
FROM sales AS s
JOIN date_dim AS dd ON dd.date_id = s.date_id
JOIN time_of_day AS t ON t.time_id = s.time_id
JOIN customer AS c ON c.customer_id = s.customer_id
JOIN city AS cc ON cc.city_id = c.city_id
JOIN region AS r ON r.region_id = cc.region_id
JOIN country AS co ON co.country_id = r.country_id
JOIN channel AS ch ON ch.channel_id = s.channel_id
JOIN currency AS cur ON cur.currency_id = s.currency_id
JOIN warehouse AS w ON w.warehouse_id = s.warehouse_id
JOIN shipping_mode AS sm ON sm.shipping_mode_id = s.shipping_mode_id
JOIN payment_method AS pm ON pm.payment_method_id = s.payment_method_id
JOIN payment_provider AS pp ON pp.payment_provider_id = pm.payment_provider_id
JOIN carrier AS car ON car.carrier_id = sm.carrier_id
WHERE s.quantity < {k} AND ch.channel_name <> 'Phone'
GROUP BY co.country_name, r.region_name
ORDER BY revenue DESC
LIMIT 25;

-- t04: fiscal quarter by payment provider: calendar, day part, currency and warehouse branches (13 joins).
SELECT {tag} fp.fiscal_quarter, pp.provider_name, count(*) AS sales_count, sum(s.net_amount) AS revenue
FROM sales AS s
JOIN date_dim AS dd ON dd.date_id = s.date_id
JOIN fiscal_period AS fp ON fp.fiscal_period_id = dd.fiscal_period_id
JOIN time_of_day AS t ON t.time_id = s.time_id
JOIN day_part AS dp ON dp.day_part_id = t.day_part_id
JOIN channel AS ch ON ch.channel_id = s.channel_id
JOIN currency AS cur ON cur.currency_id = s.currency_id
JOIN country AS curc ON curc.country_id = cur.country_id
JOIN warehouse AS w ON w.warehouse_id = s.warehouse_id
JOIN city AS wc ON wc.city_id = w.city_id
JOIN shipping_mode AS sm ON sm.shipping_mode_id = s.shipping_mode_id
JOIN carrier AS car ON car.carrier_id = sm.carrier_id
JOIN payment_method AS pm ON pm.payment_method_id = s.payment_method_id
JOIN payment_provider AS pp ON pp.payment_provider_id = pm.payment_provider_id
WHERE s.quantity < {k} AND dp.day_part_name <> 'night'
GROUP BY fp.fiscal_quarter, pp.provider_name
ORDER BY revenue DESC
LIMIT 25;

-- t05: currency country by day part for loyalty-tier customers (13 joins).
SELECT {tag} curc.country_name, dp.day_part_name, count(*) AS sales_count, sum(s.net_amount) AS revenue
FROM sales AS s
JOIN date_dim AS dd ON dd.date_id = s.date_id
JOIN fiscal_period AS fp ON fp.fiscal_period_id = dd.fiscal_period_id
JOIN time_of_day AS t ON t.time_id = s.time_id
JOIN day_part AS dp ON dp.day_part_id = t.day_part_id
JOIN customer AS c ON c.customer_id = s.customer_id
JOIN customer_segment AS cs ON cs.segment_id = c.segment_id
JOIN loyalty_tier AS lt ON lt.loyalty_tier_id = c.loyalty_tier_id
JOIN channel AS ch ON ch.channel_id = s.channel_id
JOIN currency AS cur ON cur.currency_id = s.currency_id
JOIN country AS curc ON curc.country_id = cur.country_id
JOIN warehouse AS w ON w.warehouse_id = s.warehouse_id
JOIN shipping_mode AS sm ON sm.shipping_mode_id = s.shipping_mode_id
JOIN payment_method AS pm ON pm.payment_method_id = s.payment_method_id
WHERE s.quantity < {k} AND lt.tier_name <> 'None'
GROUP BY curc.country_name, dp.day_part_name
ORDER BY revenue DESC
LIMIT 25;

-- t06: the fiscal calendar and the customer segment on top of the full star (14 joins).
SELECT {tag} fp.fiscal_year, fp.fiscal_quarter, cs.segment_name, count(*) AS sales_count, sum(s.net_amount) AS revenue
FROM sales AS s
JOIN date_dim AS dd          ON dd.date_id = s.date_id
JOIN fiscal_period AS fp     ON fp.fiscal_period_id = dd.fiscal_period_id
JOIN time_of_day AS t        ON t.time_id = s.time_id
JOIN customer AS c           ON c.customer_id = s.customer_id
JOIN customer_segment AS cs  ON cs.segment_id = c.segment_id
JOIN product AS p            ON p.product_id = s.product_id
JOIN store AS st             ON st.store_id = s.store_id
JOIN employee AS e           ON e.employee_id = s.employee_id
JOIN promotion AS pr         ON pr.promotion_id = s.promotion_id
JOIN channel AS ch           ON ch.channel_id = s.channel_id
JOIN currency AS cur         ON cur.currency_id = s.currency_id
JOIN warehouse AS w          ON w.warehouse_id = s.warehouse_id
JOIN shipping_mode AS sm     ON sm.shipping_mode_id = s.shipping_mode_id
JOIN payment_method AS pm    ON pm.payment_method_id = s.payment_method_id
WHERE s.quantity < {k} AND ch.channel_name <> 'Phone'
GROUP BY fp.fiscal_year, fp.fiscal_quarter, cs.segment_name
ORDER BY fp.fiscal_year, fp.fiscal_quarter, revenue DESC;

-- t07: customer geography down to the country with eight direct dimensions (14 joins).
SELECT {tag} co.country_name, r.region_name, count(*) AS sales_count, sum(s.net_amount) AS revenue
FROM sales AS s
JOIN date_dim AS dd          ON dd.date_id = s.date_id
JOIN time_of_day AS t        ON t.time_id = s.time_id
JOIN customer AS c           ON c.customer_id = s.customer_id
JOIN city AS cc              ON cc.city_id = c.city_id
JOIN region AS r             ON r.region_id = cc.region_id
JOIN country AS co           ON co.country_id = r.country_id
JOIN loyalty_tier AS lt      ON lt.loyalty_tier_id = c.loyalty_tier_id
JOIN income_band AS ib       ON ib.income_band_id = c.income_band_id
JOIN product AS p            ON p.product_id = s.product_id
JOIN store AS st             ON st.store_id = s.store_id
JOIN promotion AS pr         ON pr.promotion_id = s.promotion_id
JOIN channel AS ch           ON ch.channel_id = s.channel_id
JOIN payment_method AS pm    ON pm.payment_method_id = s.payment_method_id
JOIN payment_provider AS pp  ON pp.payment_provider_id = pm.payment_provider_id
WHERE s.quantity < {k} AND ib.upper_bound < 150000
GROUP BY co.country_name, r.region_name
ORDER BY revenue DESC
LIMIT 30;

-- t08: customer country by loyalty tier, with income bands, logistics and payment (14 joins).
SELECT {tag} co.country_name, lt.tier_name, count(*) AS sales_count, sum(s.net_amount) AS revenue
FROM sales AS s
JOIN date_dim AS dd ON dd.date_id = s.date_id
JOIN time_of_day AS t ON t.time_id = s.time_id
JOIN customer AS c ON c.customer_id = s.customer_id
JOIN city AS cc ON cc.city_id = c.city_id
JOIN region AS r ON r.region_id = cc.region_id
JOIN country AS co ON co.country_id = r.country_id
JOIN loyalty_tier AS lt ON lt.loyalty_tier_id = c.loyalty_tier_id
JOIN income_band AS ib ON ib.income_band_id = c.income_band_id
JOIN channel AS ch ON ch.channel_id = s.channel_id
JOIN currency AS cur ON cur.currency_id = s.currency_id
JOIN warehouse AS w ON w.warehouse_id = s.warehouse_id
JOIN shipping_mode AS sm ON sm.shipping_mode_id = s.shipping_mode_id
JOIN payment_method AS pm ON pm.payment_method_id = s.payment_method_id
JOIN payment_provider AS pp ON pp.payment_provider_id = pm.payment_provider_id
WHERE s.quantity < {k} AND ib.upper_bound < 150000
GROUP BY co.country_name, lt.tier_name
ORDER BY revenue DESC
LIMIT 25;

-- t09: logistics: warehouse cities, carriers, payment providers and store formats around eleven direct
-- dimensions (15 joins).
SELECT {tag} car.carrier_name, pp.provider_name, count(*) AS sales_count, sum(s.net_amount) AS revenue
FROM sales AS s
JOIN date_dim AS dd          ON dd.date_id = s.date_id
JOIN time_of_day AS t        ON t.time_id = s.time_id
JOIN customer AS c           ON c.customer_id = s.customer_id
JOIN product AS p            ON p.product_id = s.product_id
JOIN store AS st             ON st.store_id = s.store_id
JOIN promotion AS pr         ON pr.promotion_id = s.promotion_id
JOIN channel AS ch           ON ch.channel_id = s.channel_id
JOIN currency AS cur         ON cur.currency_id = s.currency_id
JOIN warehouse AS w          ON w.warehouse_id = s.warehouse_id
JOIN city AS wc              ON wc.city_id = w.city_id
JOIN shipping_mode AS sm     ON sm.shipping_mode_id = s.shipping_mode_id
JOIN carrier AS car          ON car.carrier_id = sm.carrier_id
JOIN payment_method AS pm    ON pm.payment_method_id = s.payment_method_id
JOIN payment_provider AS pp  ON pp.payment_provider_id = pm.payment_provider_id
JOIN store_format AS sf      ON sf.store_format_id = st.store_format_id
WHERE s.quantity < {k} AND wc.population > 20000
GROUP BY car.carrier_name, pp.provider_name
ORDER BY revenue DESC;

-- t10: currency and market: currencies, their countries and every direct dimension but one (17 joins).
SELECT {tag} curc.country_name, cur.currency_code, count(*) AS sales_count, avg(cur.rate_to_eur) AS rate
FROM sales AS s
JOIN date_dim AS dd          ON dd.date_id = s.date_id
JOIN fiscal_period AS fp     ON fp.fiscal_period_id = dd.fiscal_period_id
JOIN time_of_day AS t        ON t.time_id = s.time_id
JOIN day_part AS dp          ON dp.day_part_id = t.day_part_id
JOIN customer AS c           ON c.customer_id = s.customer_id
JOIN loyalty_tier AS lt      ON lt.loyalty_tier_id = c.loyalty_tier_id
JOIN product AS p            ON p.product_id = s.product_id
JOIN brand AS b              ON b.brand_id = p.brand_id
JOIN store AS st             ON st.store_id = s.store_id
JOIN promotion AS pr         ON pr.promotion_id = s.promotion_id
JOIN channel AS ch           ON ch.channel_id = s.channel_id
JOIN currency AS cur         ON cur.currency_id = s.currency_id
JOIN country AS curc         ON curc.country_id = cur.country_id
JOIN warehouse AS w          ON w.warehouse_id = s.warehouse_id
JOIN shipping_mode AS sm     ON sm.shipping_mode_id = s.shipping_mode_id
JOIN carrier AS car          ON car.carrier_id = sm.carrier_id
JOIN payment_method AS pm    ON pm.payment_method_id = s.payment_method_id
WHERE s.quantity < {k} AND lt.tier_name <> 'None'
GROUP BY curc.country_name, cur.currency_code
ORDER BY sales_count DESC;
