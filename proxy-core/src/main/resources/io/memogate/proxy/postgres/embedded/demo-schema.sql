-- The Memogate demo warehouse: one fact table, sales, in a snowflake of 30 dimension tables.
--
-- The point is join count, not volume: a report over it naturally joins 15 to 20 tables, which is where
-- PostgreSQL's planner memory grows fastest (see DESIGN.md). About 9,000 rows in all, generated with
-- generate_series and modular arithmetic instead of random(), so every load yields the same data and
-- the same plans. DemoSchema runs this file statement by statement as the owner of database demo.
--
-- Snowflake branches:
--   sales -> date_dim -> fiscal_period            sales -> time_of_day -> day_part
--   sales -> customer -> city -> region -> country
--            customer -> customer_segment | loyalty_tier | income_band
--   sales -> product -> brand -> manufacturer -> country
--            product -> category -> department
--            product -> supplier -> city
--   sales -> store -> city, store -> store_format
--   sales -> employee -> store | job_title | date_dim (hire date)
--   sales -> promotion -> promotion_type | date_dim (start, end)
--   sales -> currency -> country                  sales -> channel
--   sales -> warehouse -> city                    sales -> shipping_mode -> carrier
--   sales -> payment_method -> payment_provider

-- Geography -------------------------------------------------------------------------------------------

CREATE TABLE country (
    country_id   integer PRIMARY KEY,
    country_name text    NOT NULL UNIQUE,
    iso_code     char(2) NOT NULL UNIQUE
);
INSERT INTO country (country_id, country_name, iso_code)
SELECT i, 'Country ' || i, 'A' || chr(64 + i)
FROM generate_series(1, 20) AS i;

CREATE TABLE region (
    region_id   integer PRIMARY KEY,
    region_name text    NOT NULL,
    country_id  integer NOT NULL REFERENCES country
);
INSERT INTO region (region_id, region_name, country_id)
SELECT i, 'Region ' || i, 1 + (i - 1) % 20
FROM generate_series(1, 60) AS i;

CREATE TABLE city (
    city_id    integer PRIMARY KEY,
    city_name  text    NOT NULL,
    region_id  integer NOT NULL REFERENCES region,
    population integer NOT NULL
);
INSERT INTO city (city_id, city_name, region_id, population)
SELECT i, 'City ' || i, 1 + (i - 1) % 60, 10000 + (i * 7919) % 990000
FROM generate_series(1, 240) AS i;

CREATE TABLE currency (
    currency_id   integer        PRIMARY KEY,
    currency_code char(3)        NOT NULL UNIQUE,
    country_id    integer        NOT NULL REFERENCES country,
    rate_to_eur   numeric(12, 6) NOT NULL
);
INSERT INTO currency (currency_id, currency_code, country_id, rate_to_eur)
SELECT i, 'C' || chr(64 + i) || chr(64 + i), i, round(0.5 + i * 0.137, 6)
FROM generate_series(1, 12) AS i;

-- Calendar --------------------------------------------------------------------------------------------

CREATE TABLE fiscal_period (
    fiscal_period_id integer PRIMARY KEY,
    fiscal_year      integer NOT NULL,
    fiscal_quarter   integer NOT NULL CHECK (fiscal_quarter BETWEEN 1 AND 4),
    fiscal_month     integer NOT NULL CHECK (fiscal_month BETWEEN 1 AND 12)
);
INSERT INTO fiscal_period (fiscal_period_id, fiscal_year, fiscal_quarter, fiscal_month)
SELECT i, 2024 + (i - 1) / 12, 1 + ((i - 1) % 12) / 3, 1 + (i - 1) % 12
FROM generate_series(1, 24) AS i;

-- Two years, 2024-01-01 to 2025-12-31.
CREATE TABLE date_dim (
    date_id          integer PRIMARY KEY,
    full_date        date    NOT NULL UNIQUE,
    day_of_week      integer NOT NULL CHECK (day_of_week BETWEEN 1 AND 7),
    is_weekend       boolean NOT NULL,
    fiscal_period_id integer NOT NULL REFERENCES fiscal_period
);
INSERT INTO date_dim (date_id, full_date, day_of_week, is_weekend, fiscal_period_id)
SELECT i, day.d, extract(isodow FROM day.d)::integer, extract(isodow FROM day.d) >= 6,
       (extract(year FROM day.d)::integer - 2024) * 12 + extract(month FROM day.d)::integer
FROM generate_series(1, 731) AS i
CROSS JOIN LATERAL (SELECT date '2024-01-01' + (i - 1) AS d) AS day;

CREATE TABLE day_part (
    day_part_id   integer PRIMARY KEY,
    day_part_name text    NOT NULL UNIQUE,
    first_hour    integer NOT NULL,
    last_hour     integer NOT NULL
);
INSERT INTO day_part (day_part_id, day_part_name, first_hour, last_hour) VALUES
    (1, 'night', 0, 5),
    (2, 'morning', 6, 11),
    (3, 'afternoon', 12, 16),
    (4, 'evening', 17, 20),
    (5, 'late evening', 21, 23);

-- Quarter-hour slots.
CREATE TABLE time_of_day (
    time_id     integer PRIMARY KEY,
    hour        integer NOT NULL CHECK (hour BETWEEN 0 AND 23),
    minute      integer NOT NULL CHECK (minute BETWEEN 0 AND 59),
    day_part_id integer NOT NULL REFERENCES day_part
);
INSERT INTO time_of_day (time_id, hour, minute, day_part_id)
SELECT i, (i - 1) / 4, ((i - 1) % 4) * 15, dp.day_part_id
FROM generate_series(1, 96) AS i
JOIN day_part AS dp ON (i - 1) / 4 BETWEEN dp.first_hour AND dp.last_hour;

-- Customers -------------------------------------------------------------------------------------------

CREATE TABLE customer_segment (
    segment_id   integer PRIMARY KEY,
    segment_name text    NOT NULL UNIQUE
);
INSERT INTO customer_segment (segment_id, segment_name) VALUES
    (1, 'Consumer'), (2, 'Small business'), (3, 'Corporate'),
    (4, 'Public sector'), (5, 'Education'), (6, 'Non-profit');

CREATE TABLE loyalty_tier (
    loyalty_tier_id  integer      PRIMARY KEY,
    tier_name        text         NOT NULL UNIQUE,
    discount_percent numeric(4, 1) NOT NULL
);
INSERT INTO loyalty_tier (loyalty_tier_id, tier_name, discount_percent) VALUES
    (1, 'None', 0), (2, 'Silver', 2.5), (3, 'Gold', 5), (4, 'Platinum', 7.5);

CREATE TABLE income_band (
    income_band_id integer PRIMARY KEY,
    lower_bound    integer NOT NULL,
    upper_bound    integer NOT NULL
);
INSERT INTO income_band (income_band_id, lower_bound, upper_bound)
SELECT i, (i - 1) * 20000, i * 20000 - 1
FROM generate_series(1, 10) AS i;

CREATE TABLE customer (
    customer_id     integer PRIMARY KEY,
    customer_name   text    NOT NULL,
    birth_year      integer NOT NULL,
    city_id         integer NOT NULL REFERENCES city,
    segment_id      integer NOT NULL REFERENCES customer_segment,
    loyalty_tier_id integer NOT NULL REFERENCES loyalty_tier,
    income_band_id  integer NOT NULL REFERENCES income_band
);
INSERT INTO customer (customer_id, customer_name, birth_year, city_id, segment_id, loyalty_tier_id, income_band_id)
SELECT i, 'Customer ' || i, 1940 + (i * 37) % 65, 1 + (i * 13) % 240, 1 + i % 6, 1 + (i * 7) % 4, 1 + (i * 3) % 10
FROM generate_series(1, 1000) AS i;

-- Products --------------------------------------------------------------------------------------------

CREATE TABLE manufacturer (
    manufacturer_id   integer PRIMARY KEY,
    manufacturer_name text    NOT NULL UNIQUE,
    country_id        integer NOT NULL REFERENCES country
);
INSERT INTO manufacturer (manufacturer_id, manufacturer_name, country_id)
SELECT i, 'Manufacturer ' || i, 1 + (i * 7) % 20
FROM generate_series(1, 15) AS i;

CREATE TABLE brand (
    brand_id        integer PRIMARY KEY,
    brand_name      text    NOT NULL UNIQUE,
    manufacturer_id integer NOT NULL REFERENCES manufacturer
);
INSERT INTO brand (brand_id, brand_name, manufacturer_id)
SELECT i, 'Brand ' || i, 1 + (i - 1) % 15
FROM generate_series(1, 60) AS i;

CREATE TABLE department (
    department_id   integer PRIMARY KEY,
    department_name text    NOT NULL UNIQUE
);
INSERT INTO department (department_id, department_name) VALUES
    (1, 'Grocery'), (2, 'Fresh food'), (3, 'Household'), (4, 'Electronics'),
    (5, 'Clothing'), (6, 'Garden'), (7, 'Toys'), (8, 'Health and beauty');

CREATE TABLE category (
    category_id   integer PRIMARY KEY,
    category_name text    NOT NULL UNIQUE,
    department_id integer NOT NULL REFERENCES department
);
INSERT INTO category (category_id, category_name, department_id)
SELECT i, 'Category ' || i, 1 + (i - 1) % 8
FROM generate_series(1, 32) AS i;

CREATE TABLE supplier (
    supplier_id   integer PRIMARY KEY,
    supplier_name text    NOT NULL UNIQUE,
    city_id       integer NOT NULL REFERENCES city
);
INSERT INTO supplier (supplier_id, supplier_name, city_id)
SELECT i, 'Supplier ' || i, 1 + (i * 17) % 240
FROM generate_series(1, 40) AS i;

CREATE TABLE product (
    product_id   integer        PRIMARY KEY,
    product_name text           NOT NULL UNIQUE,
    brand_id     integer        NOT NULL REFERENCES brand,
    category_id  integer        NOT NULL REFERENCES category,
    supplier_id  integer        NOT NULL REFERENCES supplier,
    list_price   numeric(10, 2) NOT NULL CHECK (list_price > 0)
);
INSERT INTO product (product_id, product_name, brand_id, category_id, supplier_id, list_price)
SELECT i, 'Product ' || i, 1 + (i * 7) % 60, 1 + (i * 11) % 32, 1 + (i * 13) % 40, 1.99 + (i * 37) % 500
FROM generate_series(1, 400) AS i;

-- Stores and staff ------------------------------------------------------------------------------------

CREATE TABLE store_format (
    store_format_id integer PRIMARY KEY,
    format_name     text    NOT NULL UNIQUE
);
INSERT INTO store_format (store_format_id, format_name) VALUES
    (1, 'Hypermarket'), (2, 'Supermarket'), (3, 'Convenience'), (4, 'Outlet'), (5, 'Online fulfilment');

CREATE TABLE store (
    store_id        integer PRIMARY KEY,
    store_name      text    NOT NULL UNIQUE,
    city_id         integer NOT NULL REFERENCES city,
    store_format_id integer NOT NULL REFERENCES store_format,
    floor_space_m2  integer NOT NULL
);
INSERT INTO store (store_id, store_name, city_id, store_format_id, floor_space_m2)
SELECT i, 'Store ' || i, 1 + (i * 29) % 240, 1 + i % 5, 200 + (i * 613) % 12000
FROM generate_series(1, 60) AS i;

CREATE TABLE job_title (
    job_title_id integer PRIMARY KEY,
    title        text    NOT NULL UNIQUE
);
INSERT INTO job_title (job_title_id, title) VALUES
    (1, 'Cashier'), (2, 'Sales assistant'), (3, 'Shift lead'), (4, 'Department manager'),
    (5, 'Store manager'), (6, 'Stock clerk'), (7, 'Customer service'), (8, 'Online picker'),
    (9, 'Delivery driver'), (10, 'Regional manager');

-- Employee e works at store 1 + (e - 1) % 60; the sales below rely on that.
CREATE TABLE employee (
    employee_id   integer PRIMARY KEY,
    employee_name text    NOT NULL,
    store_id      integer NOT NULL REFERENCES store,
    job_title_id  integer NOT NULL REFERENCES job_title,
    hire_date_id  integer NOT NULL REFERENCES date_dim
);
INSERT INTO employee (employee_id, employee_name, store_id, job_title_id, hire_date_id)
SELECT i, 'Employee ' || i, 1 + (i - 1) % 60, 1 + (i * 3) % 10, 1 + (i * 7) % 731
FROM generate_series(1, 300) AS i;

-- Promotions (promotion 1 is "no promotion") ----------------------------------------------------------

CREATE TABLE promotion_type (
    promotion_type_id integer PRIMARY KEY,
    type_name         text    NOT NULL UNIQUE
);
INSERT INTO promotion_type (promotion_type_id, type_name) VALUES
    (1, 'None'), (2, 'Price reduction'), (3, 'Bundle'), (4, 'Coupon'), (5, 'Loyalty bonus'), (6, 'Clearance');

CREATE TABLE promotion (
    promotion_id      integer PRIMARY KEY,
    promotion_name    text    NOT NULL UNIQUE,
    promotion_type_id integer NOT NULL REFERENCES promotion_type,
    start_date_id     integer NOT NULL REFERENCES date_dim,
    end_date_id       integer NOT NULL REFERENCES date_dim,
    CHECK (end_date_id >= start_date_id)
);
INSERT INTO promotion (promotion_id, promotion_name, promotion_type_id, start_date_id, end_date_id)
SELECT i,
       CASE WHEN i = 1 THEN 'No promotion' ELSE 'Promotion ' || i END,
       CASE WHEN i = 1 THEN 1 ELSE 2 + i % 5 END,
       CASE WHEN i = 1 THEN 1 ELSE 1 + (i * 17) % 700 END,
       CASE WHEN i = 1 THEN 731 ELSE 31 + (i * 17) % 700 END
FROM generate_series(1, 40) AS i;

-- Channels, logistics and payment ---------------------------------------------------------------------

CREATE TABLE channel (
    channel_id   integer PRIMARY KEY,
    channel_name text    NOT NULL UNIQUE
);
INSERT INTO channel (channel_id, channel_name) VALUES
    (1, 'Store'), (2, 'Web'), (3, 'Mobile app'), (4, 'Phone'), (5, 'Marketplace');

CREATE TABLE carrier (
    carrier_id   integer PRIMARY KEY,
    carrier_name text    NOT NULL UNIQUE
);
INSERT INTO carrier (carrier_id, carrier_name)
SELECT i, 'Carrier ' || i
FROM generate_series(1, 8) AS i;

CREATE TABLE shipping_mode (
    shipping_mode_id integer PRIMARY KEY,
    mode_name        text    NOT NULL UNIQUE,
    carrier_id       integer NOT NULL REFERENCES carrier
);
INSERT INTO shipping_mode (shipping_mode_id, mode_name, carrier_id) VALUES
    (1, 'In-store pickup', 1), (2, 'Standard', 2), (3, 'Express', 3),
    (4, 'Next day', 4), (5, 'Freight', 5), (6, 'Parcel locker', 6);

CREATE TABLE payment_provider (
    payment_provider_id integer PRIMARY KEY,
    provider_name       text    NOT NULL UNIQUE
);
INSERT INTO payment_provider (payment_provider_id, provider_name) VALUES
    (1, 'Cash office'), (2, 'Card network A'), (3, 'Card network B'), (4, 'Wallet provider'), (5, 'Bank');

CREATE TABLE payment_method (
    payment_method_id   integer PRIMARY KEY,
    method_name         text    NOT NULL UNIQUE,
    payment_provider_id integer NOT NULL REFERENCES payment_provider
);
INSERT INTO payment_method (payment_method_id, method_name, payment_provider_id) VALUES
    (1, 'Cash', 1), (2, 'Debit card', 2), (3, 'Credit card', 3), (4, 'Mobile wallet', 4),
    (5, 'Bank transfer', 5), (6, 'Gift card', 1), (7, 'Buy now pay later', 4), (8, 'Voucher', 1);

CREATE TABLE warehouse (
    warehouse_id   integer PRIMARY KEY,
    warehouse_name text    NOT NULL UNIQUE,
    city_id        integer NOT NULL REFERENCES city,
    capacity_m3    integer NOT NULL
);
INSERT INTO warehouse (warehouse_id, warehouse_name, city_id, capacity_m3)
SELECT i, 'Warehouse ' || i, 1 + (i * 19) % 240, 5000 + (i * 2741) % 50000
FROM generate_series(1, 12) AS i;

-- The fact table --------------------------------------------------------------------------------------

-- The foreign keys of sales are added after the load: one validating join per key costs a fraction of
-- 6,000 x 12 row-by-row trigger checks.
CREATE TABLE sales (
    sale_id           integer        PRIMARY KEY,
    date_id           integer        NOT NULL,
    time_id           integer        NOT NULL,
    customer_id       integer        NOT NULL,
    product_id        integer        NOT NULL,
    store_id          integer        NOT NULL,
    employee_id       integer        NOT NULL,
    promotion_id      integer        NOT NULL,
    channel_id        integer        NOT NULL,
    currency_id       integer        NOT NULL,
    warehouse_id      integer        NOT NULL,
    shipping_mode_id  integer        NOT NULL,
    payment_method_id integer        NOT NULL,
    quantity          integer        NOT NULL CHECK (quantity > 0),
    unit_price        numeric(10, 2) NOT NULL,
    discount          numeric(12, 2) NOT NULL,
    net_amount        numeric(12, 2) NOT NULL
);
-- Each multiplier is coprime to its modulus, so every dimension row is used. Every third sale carries a
-- promotion and a 10% discount; the employee works at the sale's store (see employee above).
INSERT INTO sales (sale_id, date_id, time_id, customer_id, product_id, store_id, employee_id, promotion_id,
                   channel_id, currency_id, warehouse_id, shipping_mode_id, payment_method_id,
                   quantity, unit_price, discount, net_amount)
SELECT k.i, k.date_id, k.time_id, k.customer_id, k.product_id, k.store_id, k.store_id + 60 * (k.i % 5),
       k.promotion_id, k.channel_id, k.currency_id, k.warehouse_id, k.shipping_mode_id, k.payment_method_id,
       k.quantity, p.list_price,
       round(p.list_price * k.quantity * k.discount_rate, 2),
       round(p.list_price * k.quantity * (1 - k.discount_rate), 2)
FROM (
    SELECT i,
           1 + (i * 7) % 731 AS date_id,
           1 + (i * 11) % 96 AS time_id,
           1 + (i * 13) % 1000 AS customer_id,
           1 + (i * 31) % 400 AS product_id,
           1 + (i * 23) % 60 AS store_id,
           CASE WHEN i % 3 = 0 THEN 2 + (i * 17) % 39 ELSE 1 END AS promotion_id,
           1 + i % 5 AS channel_id,
           1 + (i * 5) % 12 AS currency_id,
           1 + (i * 7) % 12 AS warehouse_id,
           1 + (i * 5) % 6 AS shipping_mode_id,
           1 + (i * 3) % 8 AS payment_method_id,
           1 + i % 4 AS quantity,
           CASE WHEN i % 3 = 0 THEN 0.10 ELSE 0 END AS discount_rate
    FROM generate_series(1, 6000) AS i
) AS k
JOIN product AS p ON p.product_id = k.product_id;

ALTER TABLE sales
    ADD FOREIGN KEY (date_id) REFERENCES date_dim,
    ADD FOREIGN KEY (time_id) REFERENCES time_of_day,
    ADD FOREIGN KEY (customer_id) REFERENCES customer,
    ADD FOREIGN KEY (product_id) REFERENCES product,
    ADD FOREIGN KEY (store_id) REFERENCES store,
    ADD FOREIGN KEY (employee_id) REFERENCES employee,
    ADD FOREIGN KEY (promotion_id) REFERENCES promotion,
    ADD FOREIGN KEY (channel_id) REFERENCES channel,
    ADD FOREIGN KEY (currency_id) REFERENCES currency,
    ADD FOREIGN KEY (warehouse_id) REFERENCES warehouse,
    ADD FOREIGN KEY (shipping_mode_id) REFERENCES shipping_mode,
    ADD FOREIGN KEY (payment_method_id) REFERENCES payment_method;

-- Indexes on the busiest foreign keys give the planner index paths to weigh, as in a real warehouse.
CREATE INDEX sales_date_idx ON sales (date_id);
CREATE INDEX sales_customer_idx ON sales (customer_id);
CREATE INDEX sales_product_idx ON sales (product_id);
CREATE INDEX sales_store_idx ON sales (store_id);
CREATE INDEX sales_promotion_idx ON sales (promotion_id);
CREATE INDEX customer_city_idx ON customer (city_id);
CREATE INDEX product_brand_idx ON product (brand_id);
CREATE INDEX product_category_idx ON product (category_id);

-- Planner lab: a hub with one key column per arm, and 19 empty arms. A star join of the hub and n-1 arms
-- is the shape whose planner memory DESIGN.md measured (26 MB for 12 tables, 615 MB for 16 with the collapse
-- limits raised); docs/examples/star16.sql is one. Each arm joins its own hub column: arms joined on one
-- column would form a single equivalence class, which PostgreSQL plans as a clique.
CREATE TABLE lab_hub (k1 integer, k2 integer, k3 integer, k4 integer, k5 integer, k6 integer, k7 integer, k8 integer, k9 integer, k10 integer, k11 integer, k12 integer, k13 integer, k14 integer, k15 integer, k16 integer, k17 integer, k18 integer, k19 integer);
CREATE TABLE lab_arm1 (id integer PRIMARY KEY, label text);
CREATE TABLE lab_arm2 (id integer PRIMARY KEY, label text);
CREATE TABLE lab_arm3 (id integer PRIMARY KEY, label text);
CREATE TABLE lab_arm4 (id integer PRIMARY KEY, label text);
CREATE TABLE lab_arm5 (id integer PRIMARY KEY, label text);
CREATE TABLE lab_arm6 (id integer PRIMARY KEY, label text);
CREATE TABLE lab_arm7 (id integer PRIMARY KEY, label text);
CREATE TABLE lab_arm8 (id integer PRIMARY KEY, label text);
CREATE TABLE lab_arm9 (id integer PRIMARY KEY, label text);
CREATE TABLE lab_arm10 (id integer PRIMARY KEY, label text);
CREATE TABLE lab_arm11 (id integer PRIMARY KEY, label text);
CREATE TABLE lab_arm12 (id integer PRIMARY KEY, label text);
CREATE TABLE lab_arm13 (id integer PRIMARY KEY, label text);
CREATE TABLE lab_arm14 (id integer PRIMARY KEY, label text);
CREATE TABLE lab_arm15 (id integer PRIMARY KEY, label text);
CREATE TABLE lab_arm16 (id integer PRIMARY KEY, label text);
CREATE TABLE lab_arm17 (id integer PRIMARY KEY, label text);
CREATE TABLE lab_arm18 (id integer PRIMARY KEY, label text);
CREATE TABLE lab_arm19 (id integer PRIMARY KEY, label text);

-- The same 16-table star as a view (docs/examples/star16-view.sql counts over it): PostgreSQL plans
-- SELECT count(*) FROM lab_star16 as the join itself, and Memogate, which reads view definitions with
-- broker.monitor, estimates it so.
CREATE VIEW lab_star16 AS
SELECT h.k1
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

-- The same count in a PL/pgSQL function (docs/examples/star16-function.sql calls it): the server plans the
-- 16-table join while SELECT lab_star16_count() runs, and Memogate, which reads function bodies with
-- broker.monitor, estimates the call so and holds its permits until the call is over.
CREATE FUNCTION lab_star16_count() RETURNS bigint LANGUAGE plpgsql STABLE AS $$
DECLARE
    n bigint;
BEGIN
    SELECT count(*) INTO n FROM lab_star16;
    RETURN n;
END
$$;

-- Statistics for the planner, named table by table: a bare ANALYZE would also visit the shared system
-- catalogs, which only a superuser may analyze, and warn about each.
ANALYZE country, region, city, currency, fiscal_period, date_dim, day_part, time_of_day,
        customer_segment, loyalty_tier, income_band, customer, manufacturer, brand, department, category,
        supplier, product, store_format, store, job_title, employee, promotion_type, promotion, channel,
        carrier, shipping_mode, payment_provider, payment_method, warehouse, sales, lab_hub,
        lab_arm1, lab_arm2, lab_arm3, lab_arm4, lab_arm5, lab_arm6, lab_arm7, lab_arm8, lab_arm9, lab_arm10, lab_arm11, lab_arm12, lab_arm13, lab_arm14, lab_arm15, lab_arm16, lab_arm17, lab_arm18, lab_arm19;
