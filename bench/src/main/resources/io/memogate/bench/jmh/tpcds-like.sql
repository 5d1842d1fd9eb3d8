-- Decision-support statements over the TPC-DS schema for EstimatorSpeedBench, written after TPC-DS
-- queries 17, 72, 64, 10 and 5 (their shapes, not the kit's exact templates, which need its query
-- generator): 5 to 12 joins, CTEs, sub-queries, outer joins, UNION ALL and GROUP BY. Columns are qualified
-- so that every join clause ties two relations. Statements are in this order and end with a semicolon;
-- {n} stands in an output alias and the benchmark replaces it with a number that changes on every call, so
-- each call has a new fingerprint and misses the estimate cache.

-- q17: store sales returned and bought again from the catalog, three date ranges (8 relations, 7 joins).
SELECT i.i_item_id, i.i_item_desc, s.s_state,
       count(ss.ss_quantity) AS store_sales_quantitycount,
       avg(ss.ss_quantity) AS store_sales_quantityave,
       count(sr.sr_return_quantity) AS store_returns_quantitycount,
       avg(sr.sr_return_quantity) AS store_returns_quantityave,
       count(cs.cs_quantity) AS catalog_sales_quantitycount,
       avg(cs.cs_quantity) AS catalog_sales_quantityave_{n}
FROM store_sales ss, store_returns sr, catalog_sales cs, date_dim d1, date_dim d2, date_dim d3, store s, item i
WHERE d1.d_quarter_name = '2001Q1'
  AND d1.d_date_sk = ss.ss_sold_date_sk
  AND i.i_item_sk = ss.ss_item_sk
  AND s.s_store_sk = ss.ss_store_sk
  AND ss.ss_customer_sk = sr.sr_customer_sk
  AND ss.ss_item_sk = sr.sr_item_sk
  AND ss.ss_ticket_number = sr.sr_ticket_number
  AND sr.sr_returned_date_sk = d2.d_date_sk
  AND d2.d_quarter_name IN ('2001Q1', '2001Q2', '2001Q3')
  AND sr.sr_customer_sk = cs.cs_bill_customer_sk
  AND sr.sr_item_sk = cs.cs_item_sk
  AND cs.cs_sold_date_sk = d3.d_date_sk
  AND d3.d_quarter_name IN ('2001Q1', '2001Q2', '2001Q3')
GROUP BY i.i_item_id, i.i_item_desc, s.s_state
ORDER BY i.i_item_id, i.i_item_desc, s.s_state
LIMIT 100;

-- q72: catalog orders that waited for inventory, with outer joins to promotions and returns (12 relations,
-- 11 joins).
SELECT i.i_item_desc, w.w_warehouse_name, d1.d_week_seq,
       sum(CASE WHEN p.p_promo_sk IS NULL THEN 1 ELSE 0 END) AS no_promo,
       sum(CASE WHEN p.p_promo_sk IS NOT NULL THEN 1 ELSE 0 END) AS promo,
       count(*) AS total_cnt_{n}
FROM catalog_sales cs
JOIN inventory inv ON cs.cs_item_sk = inv.inv_item_sk
JOIN warehouse w ON w.w_warehouse_sk = inv.inv_warehouse_sk
JOIN item i ON i.i_item_sk = cs.cs_item_sk
JOIN customer_demographics cd ON cs.cs_bill_cdemo_sk = cd.cd_demo_sk
JOIN household_demographics hd ON cs.cs_bill_hdemo_sk = hd.hd_demo_sk
JOIN date_dim d1 ON cs.cs_sold_date_sk = d1.d_date_sk
JOIN date_dim d2 ON inv.inv_date_sk = d2.d_date_sk
JOIN date_dim d3 ON cs.cs_ship_date_sk = d3.d_date_sk
LEFT OUTER JOIN promotion p ON cs.cs_promo_sk = p.p_promo_sk
LEFT OUTER JOIN catalog_returns cr ON cr.cr_item_sk = cs.cs_item_sk
                                  AND cr.cr_order_number = cs.cs_order_number
LEFT OUTER JOIN ship_mode sm ON cs.cs_ship_mode_sk = sm.sm_ship_mode_sk
WHERE d1.d_week_seq = d2.d_week_seq
  AND inv.inv_quantity_on_hand < cs.cs_quantity
  AND d3.d_date > d1.d_date + 5
  AND hd.hd_buy_potential = '>10000'
  AND d1.d_year = 1999
  AND cd.cd_marital_status = 'D'
GROUP BY i.i_item_desc, w.w_warehouse_name, d1.d_week_seq
ORDER BY total_cnt_{n} DESC, i.i_item_desc, w.w_warehouse_name, d1.d_week_seq
LIMIT 100;

-- q64: a CTE of catalog items sold at a profit, then store sales through customers, addresses,
-- demographics and promotions in two years, the CTE's rows compared year over year (CTE of 2 relations,
-- the body 11 relations referencing it twice, so it is materialized).
WITH cs_ui AS (
    SELECT cs.cs_item_sk, sum(cs.cs_ext_list_price) AS sale,
           sum(cr.cr_refunded_cash + cr.cr_reversed_charge + cr.cr_store_credit) AS refund
    FROM catalog_sales cs
    JOIN catalog_returns cr ON cs.cs_item_sk = cr.cr_item_sk AND cs.cs_order_number = cr.cr_order_number
    GROUP BY cs.cs_item_sk
    HAVING sum(cs.cs_ext_list_price) > 2 * sum(cr.cr_refunded_cash + cr.cr_reversed_charge + cr.cr_store_credit)
), cross_sales AS (
    SELECT i.i_product_name AS product_name, i.i_item_sk AS item_sk, s.s_store_name AS store_name,
           s.s_zip AS store_zip, ad1.ca_city AS b_city, ad2.ca_city AS c_city, d1.d_year AS syear,
           count(*) AS cnt, sum(ss.ss_wholesale_cost) AS s1, sum(ss.ss_list_price) AS s2
    FROM store_sales ss
    JOIN store_returns sr ON ss.ss_item_sk = sr.sr_item_sk AND ss.ss_ticket_number = sr.sr_ticket_number
    JOIN cs_ui ON ss.ss_item_sk = cs_ui.cs_item_sk
    JOIN date_dim d1 ON ss.ss_sold_date_sk = d1.d_date_sk
    JOIN store s ON ss.ss_store_sk = s.s_store_sk
    JOIN customer c ON ss.ss_customer_sk = c.c_customer_sk
    JOIN customer_demographics cd1 ON ss.ss_cdemo_sk = cd1.cd_demo_sk
    JOIN customer_demographics cd2 ON c.c_current_cdemo_sk = cd2.cd_demo_sk
    JOIN promotion p ON ss.ss_promo_sk = p.p_promo_sk
    JOIN customer_address ad1 ON ss.ss_addr_sk = ad1.ca_address_sk
    JOIN customer_address ad2 ON c.c_current_addr_sk = ad2.ca_address_sk
    JOIN item i ON ss.ss_item_sk = i.i_item_sk
    WHERE cd1.cd_marital_status <> cd2.cd_marital_status
      AND i.i_color IN ('purple', 'burlywood', 'indian', 'spring', 'floral', 'medium')
      AND i.i_current_price BETWEEN 64 AND 74
    GROUP BY i.i_product_name, i.i_item_sk, s.s_store_name, s.s_zip, ad1.ca_city, ad2.ca_city, d1.d_year
)
SELECT cs1.product_name, cs1.store_name, cs1.store_zip, cs1.b_city, cs1.c_city, cs1.syear, cs1.cnt,
       cs1.s1 AS s11, cs1.s2 AS s21, cs2.s1 AS s12, cs2.s2 AS s22, cs2.syear AS syear_{n}, cs2.cnt AS cnt2
FROM cross_sales cs1
JOIN cross_sales cs2 ON cs1.item_sk = cs2.item_sk AND cs1.store_name = cs2.store_name
                    AND cs1.store_zip = cs2.store_zip
WHERE cs1.syear = 1999 AND cs2.syear = 2000 AND cs2.cnt <= cs1.cnt
ORDER BY cs1.product_name, cs1.store_name, cs2.cnt, cs1.s1, cs2.s1;

-- q10: customers in some counties who bought in store and on the web or from the catalog, by
-- demographics: three EXISTS sub-queries, pulled up as semi joins (3 relations and 3 sub-queries of 2).
SELECT cd.cd_gender, cd.cd_marital_status, cd.cd_education_status, count(*) AS cnt1,
       cd.cd_purchase_estimate, count(*) AS cnt2, cd.cd_credit_rating, count(*) AS cnt3_{n}
FROM customer c
JOIN customer_address ca ON c.c_current_addr_sk = ca.ca_address_sk
JOIN customer_demographics cd ON cd.cd_demo_sk = c.c_current_cdemo_sk
WHERE ca.ca_county IN ('Walker County', 'Richland County', 'Gaines County', 'Douglas County', 'Dona Ana County')
  AND EXISTS (SELECT * FROM store_sales ss JOIN date_dim d ON ss.ss_sold_date_sk = d.d_date_sk
              WHERE c.c_customer_sk = ss.ss_customer_sk AND d.d_year = 2002 AND d.d_moy BETWEEN 4 AND 7)
  AND (EXISTS (SELECT * FROM web_sales ws JOIN date_dim d ON ws.ws_sold_date_sk = d.d_date_sk
               WHERE c.c_customer_sk = ws.ws_bill_customer_sk AND d.d_year = 2002 AND d.d_moy BETWEEN 4 AND 7)
       OR EXISTS (SELECT * FROM catalog_sales cs JOIN date_dim d ON cs.cs_sold_date_sk = d.d_date_sk
                  WHERE c.c_customer_sk = cs.cs_ship_customer_sk AND d.d_year = 2002
                    AND d.d_moy BETWEEN 4 AND 7))
GROUP BY cd.cd_gender, cd.cd_marital_status, cd.cd_education_status, cd.cd_purchase_estimate,
         cd.cd_credit_rating
ORDER BY cd.cd_gender, cd.cd_marital_status, cd.cd_education_status, cd.cd_purchase_estimate,
         cd.cd_credit_rating
LIMIT 100;

-- q5: sales and returns per channel and outlet, each channel a UNION ALL of sales and returns joined to
-- dates and outlets, then a rollup over the three channels (a CTE per channel, 10 sub-queries in all).
WITH ssr AS (
    SELECT s.s_store_id, sum(sales_price) AS sales, sum(profit) AS profit, sum(return_amt) AS returns_,
           sum(net_loss) AS profit_loss
    FROM (SELECT ss.ss_store_sk AS store_sk, ss.ss_sold_date_sk AS date_sk, ss.ss_ext_sales_price AS sales_price,
                 ss.ss_net_profit AS profit, 0 AS return_amt, 0 AS net_loss
          FROM store_sales ss
          UNION ALL
          SELECT sr.sr_store_sk, sr.sr_returned_date_sk, 0, 0, sr.sr_return_amt, sr.sr_net_loss
          FROM store_returns sr) salesreturns
    JOIN date_dim d ON salesreturns.date_sk = d.d_date_sk
    JOIN store s ON salesreturns.store_sk = s.s_store_sk
    WHERE d.d_date BETWEEN DATE '2000-08-23' AND DATE '2000-09-06'
    GROUP BY s.s_store_id
), csr AS (
    SELECT cp.cp_catalog_page_id, sum(sales_price) AS sales, sum(profit) AS profit,
           sum(return_amt) AS returns_, sum(net_loss) AS profit_loss
    FROM (SELECT cs.cs_catalog_page_sk AS page_sk, cs.cs_sold_date_sk AS date_sk,
                 cs.cs_ext_sales_price AS sales_price, cs.cs_net_profit AS profit, 0 AS return_amt, 0 AS net_loss
          FROM catalog_sales cs
          UNION ALL
          SELECT cr.cr_catalog_page_sk, cr.cr_returned_date_sk, 0, 0, cr.cr_return_amount, cr.cr_net_loss
          FROM catalog_returns cr) salesreturns
    JOIN date_dim d ON salesreturns.date_sk = d.d_date_sk
    JOIN catalog_page cp ON salesreturns.page_sk = cp.cp_catalog_page_sk
    WHERE d.d_date BETWEEN DATE '2000-08-23' AND DATE '2000-09-06'
    GROUP BY cp.cp_catalog_page_id
), wsr AS (
    SELECT web.web_site_id, sum(sales_price) AS sales, sum(profit) AS profit, sum(return_amt) AS returns_,
           sum(net_loss) AS profit_loss
    FROM (SELECT ws.ws_web_site_sk AS wsr_web_site_sk, ws.ws_sold_date_sk AS date_sk,
                 ws.ws_ext_sales_price AS sales_price, ws.ws_net_profit AS profit, 0 AS return_amt, 0 AS net_loss
          FROM web_sales ws
          UNION ALL
          SELECT ws.ws_web_site_sk, wr.wr_returned_date_sk, 0, 0, wr.wr_return_amt, wr.wr_net_loss
          FROM web_returns wr
          LEFT OUTER JOIN web_sales ws ON wr.wr_item_sk = ws.ws_item_sk AND wr.wr_order_number = ws.ws_order_number
         ) salesreturns
    JOIN date_dim d ON salesreturns.date_sk = d.d_date_sk
    JOIN web_site web ON salesreturns.wsr_web_site_sk = web.web_site_sk
    WHERE d.d_date BETWEEN DATE '2000-08-23' AND DATE '2000-09-06'
    GROUP BY web.web_site_id
)
SELECT channel, id, sum(sales) AS sales, sum(returns_) AS returns_, sum(profit) AS profit_{n}
FROM (SELECT 'store channel' AS channel, 'store' || ssr.s_store_id AS id, ssr.sales, ssr.returns_,
             ssr.profit - ssr.profit_loss AS profit
      FROM ssr
      UNION ALL
      SELECT 'catalog channel', 'catalog_page' || csr.cp_catalog_page_id, csr.sales, csr.returns_,
             csr.profit - csr.profit_loss
      FROM csr
      UNION ALL
      SELECT 'web channel', 'web_site' || wsr.web_site_id, wsr.sales, wsr.returns_, wsr.profit - wsr.profit_loss
      FROM wsr) x
GROUP BY ROLLUP (channel, id)
ORDER BY channel, id
LIMIT 100;
