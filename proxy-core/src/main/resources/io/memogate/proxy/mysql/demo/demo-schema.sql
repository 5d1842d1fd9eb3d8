-- The Memogate demo warehouse for MariaDB: the PostgreSQL demo's star/snowflake (one fact table, sales, and 30
-- dimension tables; postgres/embedded/demo-schema.sql describes its branches), with the same rows, written for
-- MariaDB: rows come from the SEQUENCE engine's seq_1_to_N tables in place of generate_series, and the keys are
-- table-level FOREIGN KEY clauses (InnoDB ignores a REFERENCES written on a column).
--
-- The point is join count, not volume: a report over it joins 15 to 20 tables. MariaDB's optimizer plans such
-- a join in a few milliseconds with its default pruning (optimizer_prune_level = 2), and for seconds to minutes
-- with pruning off (optimizer_prune_level = 0), which is what Memogate's gateways bound on MariaDB.
-- MariaDbDemoSchema runs this file statement by statement in database demo.

-- Geography -------------------------------------------------------------------------------------------

CREATE TABLE country (
    country_id   INT         PRIMARY KEY,
    country_name VARCHAR(40) NOT NULL UNIQUE,
    iso_code     CHAR(2)     NOT NULL UNIQUE
);
INSERT INTO country (country_id, country_name, iso_code)
SELECT seq, CONCAT('Country ', seq), CONCAT('A', CHAR(64 + seq))
FROM seq_1_to_20;

CREATE TABLE region (
    region_id   INT         PRIMARY KEY,
    region_name VARCHAR(40) NOT NULL,
    country_id  INT         NOT NULL,
    FOREIGN KEY (country_id) REFERENCES country (country_id)
);
INSERT INTO region (region_id, region_name, country_id)
SELECT seq, CONCAT('Region ', seq), 1 + (seq - 1) % 20
FROM seq_1_to_60;

CREATE TABLE city (
    city_id    INT         PRIMARY KEY,
    city_name  VARCHAR(40) NOT NULL,
    region_id  INT         NOT NULL,
    population INT         NOT NULL,
    FOREIGN KEY (region_id) REFERENCES region (region_id)
);
INSERT INTO city (city_id, city_name, region_id, population)
SELECT seq, CONCAT('City ', seq), 1 + (seq - 1) % 60, 10000 + (seq * 7919) % 990000
FROM seq_1_to_240;

CREATE TABLE currency (
    currency_id   INT            PRIMARY KEY,
    currency_code CHAR(3)        NOT NULL UNIQUE,
    country_id    INT            NOT NULL,
    rate_to_eur   DECIMAL(12, 6) NOT NULL,
    FOREIGN KEY (country_id) REFERENCES country (country_id)
);
INSERT INTO currency (currency_id, currency_code, country_id, rate_to_eur)
SELECT seq, CONCAT('C', CHAR(64 + seq), CHAR(64 + seq)), seq, ROUND(0.5 + seq * 0.137, 6)
FROM seq_1_to_12;

-- Calendar --------------------------------------------------------------------------------------------

CREATE TABLE fiscal_period (
    fiscal_period_id INT PRIMARY KEY,
    fiscal_year      INT NOT NULL,
    fiscal_quarter   INT NOT NULL CHECK (fiscal_quarter BETWEEN 1 AND 4),
    fiscal_month     INT NOT NULL CHECK (fiscal_month BETWEEN 1 AND 12)
);
INSERT INTO fiscal_period (fiscal_period_id, fiscal_year, fiscal_quarter, fiscal_month)
SELECT seq, 2024 + (seq - 1) DIV 12, 1 + ((seq - 1) % 12) DIV 3, 1 + (seq - 1) % 12
FROM seq_1_to_24;

-- Two years, 2024-01-01 to 2025-12-31.
CREATE TABLE date_dim (
    date_id          INT     PRIMARY KEY,
    full_date        DATE    NOT NULL UNIQUE,
    day_of_week      INT     NOT NULL CHECK (day_of_week BETWEEN 1 AND 7),
    is_weekend       BOOLEAN NOT NULL,
    fiscal_period_id INT     NOT NULL,
    FOREIGN KEY (fiscal_period_id) REFERENCES fiscal_period (fiscal_period_id)
);
-- WEEKDAY() counts from Monday = 0; the ISO day of the week is one more.
INSERT INTO date_dim (date_id, full_date, day_of_week, is_weekend, fiscal_period_id)
SELECT seq, d, WEEKDAY(d) + 1, WEEKDAY(d) >= 5, (YEAR(d) - 2024) * 12 + MONTH(d)
FROM (SELECT seq, DATE '2024-01-01' + INTERVAL (seq - 1) DAY AS d FROM seq_1_to_731) AS day;

CREATE TABLE day_part (
    day_part_id   INT         PRIMARY KEY,
    day_part_name VARCHAR(20) NOT NULL UNIQUE,
    first_hour    INT         NOT NULL,
    last_hour     INT         NOT NULL
);
INSERT INTO day_part (day_part_id, day_part_name, first_hour, last_hour) VALUES
    (1, 'night', 0, 5),
    (2, 'morning', 6, 11),
    (3, 'afternoon', 12, 16),
    (4, 'evening', 17, 20),
    (5, 'late evening', 21, 23);

-- Quarter-hour slots.
CREATE TABLE time_of_day (
    time_id     INT PRIMARY KEY,
    hour        INT NOT NULL CHECK (hour BETWEEN 0 AND 23),
    minute      INT NOT NULL CHECK (minute BETWEEN 0 AND 59),
    day_part_id INT NOT NULL,
    FOREIGN KEY (day_part_id) REFERENCES day_part (day_part_id)
);
INSERT INTO time_of_day (time_id, hour, minute, day_part_id)
SELECT seq, (seq - 1) DIV 4, ((seq - 1) % 4) * 15, dp.day_part_id
FROM seq_1_to_96
JOIN day_part AS dp ON (seq - 1) DIV 4 BETWEEN dp.first_hour AND dp.last_hour;

-- Customers -------------------------------------------------------------------------------------------

CREATE TABLE customer_segment (
    segment_id   INT         PRIMARY KEY,
    segment_name VARCHAR(40) NOT NULL UNIQUE
);
INSERT INTO customer_segment (segment_id, segment_name) VALUES
    (1, 'Consumer'), (2, 'Small business'), (3, 'Corporate'),
    (4, 'Public sector'), (5, 'Education'), (6, 'Non-profit');

CREATE TABLE loyalty_tier (
    loyalty_tier_id  INT           PRIMARY KEY,
    tier_name        VARCHAR(20)   NOT NULL UNIQUE,
    discount_percent DECIMAL(4, 1) NOT NULL
);
INSERT INTO loyalty_tier (loyalty_tier_id, tier_name, discount_percent) VALUES
    (1, 'None', 0), (2, 'Silver', 2.5), (3, 'Gold', 5), (4, 'Platinum', 7.5);

CREATE TABLE income_band (
    income_band_id INT PRIMARY KEY,
    lower_bound    INT NOT NULL,
    upper_bound    INT NOT NULL
);
INSERT INTO income_band (income_band_id, lower_bound, upper_bound)
SELECT seq, (seq - 1) * 20000, seq * 20000 - 1
FROM seq_1_to_10;

CREATE TABLE customer (
    customer_id     INT         PRIMARY KEY,
    customer_name   VARCHAR(40) NOT NULL,
    birth_year      INT         NOT NULL,
    city_id         INT         NOT NULL,
    segment_id      INT         NOT NULL,
    loyalty_tier_id INT         NOT NULL,
    income_band_id  INT         NOT NULL,
    FOREIGN KEY (city_id) REFERENCES city (city_id),
    FOREIGN KEY (segment_id) REFERENCES customer_segment (segment_id),
    FOREIGN KEY (loyalty_tier_id) REFERENCES loyalty_tier (loyalty_tier_id),
    FOREIGN KEY (income_band_id) REFERENCES income_band (income_band_id)
);
INSERT INTO customer (customer_id, customer_name, birth_year, city_id, segment_id, loyalty_tier_id, income_band_id)
SELECT seq, CONCAT('Customer ', seq), 1940 + (seq * 37) % 65, 1 + (seq * 13) % 240, 1 + seq % 6, 1 + (seq * 7) % 4,
       1 + (seq * 3) % 10
FROM seq_1_to_1000;

-- Products --------------------------------------------------------------------------------------------

CREATE TABLE manufacturer (
    manufacturer_id   INT         PRIMARY KEY,
    manufacturer_name VARCHAR(40) NOT NULL UNIQUE,
    country_id        INT         NOT NULL,
    FOREIGN KEY (country_id) REFERENCES country (country_id)
);
INSERT INTO manufacturer (manufacturer_id, manufacturer_name, country_id)
SELECT seq, CONCAT('Manufacturer ', seq), 1 + (seq * 7) % 20
FROM seq_1_to_15;

CREATE TABLE brand (
    brand_id        INT         PRIMARY KEY,
    brand_name      VARCHAR(40) NOT NULL UNIQUE,
    manufacturer_id INT         NOT NULL,
    FOREIGN KEY (manufacturer_id) REFERENCES manufacturer (manufacturer_id)
);
INSERT INTO brand (brand_id, brand_name, manufacturer_id)
SELECT seq, CONCAT('Brand ', seq), 1 + (seq - 1) % 15
FROM seq_1_to_60;

CREATE TABLE department (
    department_id   INT         PRIMARY KEY,
    department_name VARCHAR(40) NOT NULL UNIQUE
);
INSERT INTO department (department_id, department_name) VALUES
    (1, 'Grocery'), (2, 'Fresh food'), (3, 'Household'), (4, 'Electronics'),
    (5, 'Clothing'), (6, 'Garden'), (7, 'Toys'), (8, 'Health and beauty');

CREATE TABLE category (
    category_id   INT         PRIMARY KEY,
    category_name VARCHAR(40) NOT NULL UNIQUE,
    department_id INT         NOT NULL,
    FOREIGN KEY (department_id) REFERENCES department (department_id)
);
INSERT INTO category (category_id, category_name, department_id)
SELECT seq, CONCAT('Category ', seq), 1 + (seq - 1) % 8
FROM seq_1_to_32;

CREATE TABLE supplier (
    supplier_id   INT         PRIMARY KEY,
    supplier_name VARCHAR(40) NOT NULL UNIQUE,
    city_id       INT         NOT NULL,
    FOREIGN KEY (city_id) REFERENCES city (city_id)
);
INSERT INTO supplier (supplier_id, supplier_name, city_id)
SELECT seq, CONCAT('Supplier ', seq), 1 + (seq * 17) % 240
FROM seq_1_to_40;

CREATE TABLE product (
    product_id   INT            PRIMARY KEY,
    product_name VARCHAR(40)    NOT NULL UNIQUE,
    brand_id     INT            NOT NULL,
    category_id  INT            NOT NULL,
    supplier_id  INT            NOT NULL,
    list_price   DECIMAL(10, 2) NOT NULL CHECK (list_price > 0),
    FOREIGN KEY (brand_id) REFERENCES brand (brand_id),
    FOREIGN KEY (category_id) REFERENCES category (category_id),
    FOREIGN KEY (supplier_id) REFERENCES supplier (supplier_id)
);
INSERT INTO product (product_id, product_name, brand_id, category_id, supplier_id, list_price)
SELECT seq, CONCAT('Product ', seq), 1 + (seq * 7) % 60, 1 + (seq * 11) % 32, 1 + (seq * 13) % 40,
       1.99 + (seq * 37) % 500
FROM seq_1_to_400;

-- Stores and staff ------------------------------------------------------------------------------------

CREATE TABLE store_format (
    store_format_id INT         PRIMARY KEY,
    format_name     VARCHAR(40) NOT NULL UNIQUE
);
INSERT INTO store_format (store_format_id, format_name) VALUES
    (1, 'Hypermarket'), (2, 'Supermarket'), (3, 'Convenience'), (4, 'Outlet'), (5, 'Online fulfilment');

CREATE TABLE store (
    store_id        INT         PRIMARY KEY,
    store_name      VARCHAR(40) NOT NULL UNIQUE,
    city_id         INT         NOT NULL,
    store_format_id INT         NOT NULL,
    floor_space_m2  INT         NOT NULL,
    FOREIGN KEY (city_id) REFERENCES city (city_id),
    FOREIGN KEY (store_format_id) REFERENCES store_format (store_format_id)
);
INSERT INTO store (store_id, store_name, city_id, store_format_id, floor_space_m2)
SELECT seq, CONCAT('Store ', seq), 1 + (seq * 29) % 240, 1 + seq % 5, 200 + (seq * 613) % 12000
FROM seq_1_to_60;

CREATE TABLE job_title (
    job_title_id INT         PRIMARY KEY,
    title        VARCHAR(40) NOT NULL UNIQUE
);
INSERT INTO job_title (job_title_id, title) VALUES
    (1, 'Cashier'), (2, 'Sales assistant'), (3, 'Shift lead'), (4, 'Department manager'),
    (5, 'Store manager'), (6, 'Stock clerk'), (7, 'Customer service'), (8, 'Online picker'),
    (9, 'Delivery driver'), (10, 'Regional manager');

-- Employee e works at store 1 + (e - 1) % 60; the sales below rely on that.
CREATE TABLE employee (
    employee_id   INT         PRIMARY KEY,
    employee_name VARCHAR(40) NOT NULL,
    store_id      INT         NOT NULL,
    job_title_id  INT         NOT NULL,
    hire_date_id  INT         NOT NULL,
    FOREIGN KEY (store_id) REFERENCES store (store_id),
    FOREIGN KEY (job_title_id) REFERENCES job_title (job_title_id),
    FOREIGN KEY (hire_date_id) REFERENCES date_dim (date_id)
);
INSERT INTO employee (employee_id, employee_name, store_id, job_title_id, hire_date_id)
SELECT seq, CONCAT('Employee ', seq), 1 + (seq - 1) % 60, 1 + (seq * 3) % 10, 1 + (seq * 7) % 731
FROM seq_1_to_300;

-- Promotions (promotion 1 is "no promotion") ----------------------------------------------------------

CREATE TABLE promotion_type (
    promotion_type_id INT         PRIMARY KEY,
    type_name         VARCHAR(40) NOT NULL UNIQUE
);
INSERT INTO promotion_type (promotion_type_id, type_name) VALUES
    (1, 'None'), (2, 'Price reduction'), (3, 'Bundle'), (4, 'Coupon'), (5, 'Loyalty bonus'), (6, 'Clearance');

CREATE TABLE promotion (
    promotion_id      INT         PRIMARY KEY,
    promotion_name    VARCHAR(40) NOT NULL UNIQUE,
    promotion_type_id INT         NOT NULL,
    start_date_id     INT         NOT NULL,
    end_date_id       INT         NOT NULL,
    CHECK (end_date_id >= start_date_id),
    FOREIGN KEY (promotion_type_id) REFERENCES promotion_type (promotion_type_id),
    FOREIGN KEY (start_date_id) REFERENCES date_dim (date_id),
    FOREIGN KEY (end_date_id) REFERENCES date_dim (date_id)
);
INSERT INTO promotion (promotion_id, promotion_name, promotion_type_id, start_date_id, end_date_id)
SELECT seq,
       CASE WHEN seq = 1 THEN 'No promotion' ELSE CONCAT('Promotion ', seq) END,
       CASE WHEN seq = 1 THEN 1 ELSE 2 + seq % 5 END,
       CASE WHEN seq = 1 THEN 1 ELSE 1 + (seq * 17) % 700 END,
       CASE WHEN seq = 1 THEN 731 ELSE 31 + (seq * 17) % 700 END
FROM seq_1_to_40;

-- Channels, logistics and payment ---------------------------------------------------------------------

CREATE TABLE channel (
    channel_id   INT         PRIMARY KEY,
    channel_name VARCHAR(40) NOT NULL UNIQUE
);
INSERT INTO channel (channel_id, channel_name) VALUES
    (1, 'Store'), (2, 'Web'), (3, 'Mobile app'), (4, 'Phone'), (5, 'Marketplace');

CREATE TABLE carrier (
    carrier_id   INT         PRIMARY KEY,
    carrier_name VARCHAR(40) NOT NULL UNIQUE
);
INSERT INTO carrier (carrier_id, carrier_name)
SELECT seq, CONCAT('Carrier ', seq)
FROM seq_1_to_8;

CREATE TABLE shipping_mode (
    shipping_mode_id INT         PRIMARY KEY,
    mode_name        VARCHAR(40) NOT NULL UNIQUE,
    carrier_id       INT         NOT NULL,
    FOREIGN KEY (carrier_id) REFERENCES carrier (carrier_id)
);
INSERT INTO shipping_mode (shipping_mode_id, mode_name, carrier_id) VALUES
    (1, 'In-store pickup', 1), (2, 'Standard', 2), (3, 'Express', 3),
    (4, 'Next day', 4), (5, 'Freight', 5), (6, 'Parcel locker', 6);

CREATE TABLE payment_provider (
    payment_provider_id INT         PRIMARY KEY,
    provider_name       VARCHAR(40) NOT NULL UNIQUE
);
INSERT INTO payment_provider (payment_provider_id, provider_name) VALUES
    (1, 'Cash office'), (2, 'Card network A'), (3, 'Card network B'), (4, 'Wallet provider'), (5, 'Bank');

CREATE TABLE payment_method (
    payment_method_id   INT         PRIMARY KEY,
    method_name         VARCHAR(40) NOT NULL UNIQUE,
    payment_provider_id INT         NOT NULL,
    FOREIGN KEY (payment_provider_id) REFERENCES payment_provider (payment_provider_id)
);
INSERT INTO payment_method (payment_method_id, method_name, payment_provider_id) VALUES
    (1, 'Cash', 1), (2, 'Debit card', 2), (3, 'Credit card', 3), (4, 'Mobile wallet', 4),
    (5, 'Bank transfer', 5), (6, 'Gift card', 1), (7, 'Buy now pay later', 4), (8, 'Voucher', 1);

CREATE TABLE warehouse (
    warehouse_id   INT         PRIMARY KEY,
    warehouse_name VARCHAR(40) NOT NULL UNIQUE,
    city_id        INT         NOT NULL,
    capacity_m3    INT         NOT NULL,
    FOREIGN KEY (city_id) REFERENCES city (city_id)
);
INSERT INTO warehouse (warehouse_id, warehouse_name, city_id, capacity_m3)
SELECT seq, CONCAT('Warehouse ', seq), 1 + (seq * 19) % 240, 5000 + (seq * 2741) % 50000
FROM seq_1_to_12;

-- The fact table --------------------------------------------------------------------------------------

-- Each multiplier is coprime to its modulus, so every dimension row is used. Every third sale carries a
-- promotion and a 10% discount; the employee works at the sale's store (see employee above). InnoDB indexes
-- each foreign key's column, so the busiest keys have their index as in the PostgreSQL demo.
CREATE TABLE sales (
    sale_id           INT            PRIMARY KEY,
    date_id           INT            NOT NULL,
    time_id           INT            NOT NULL,
    customer_id       INT            NOT NULL,
    product_id        INT            NOT NULL,
    store_id          INT            NOT NULL,
    employee_id       INT            NOT NULL,
    promotion_id      INT            NOT NULL,
    channel_id        INT            NOT NULL,
    currency_id       INT            NOT NULL,
    warehouse_id      INT            NOT NULL,
    shipping_mode_id  INT            NOT NULL,
    payment_method_id INT            NOT NULL,
    quantity          INT            NOT NULL CHECK (quantity > 0),
    unit_price        DECIMAL(10, 2) NOT NULL,
    discount          DECIMAL(12, 2) NOT NULL,
    net_amount        DECIMAL(12, 2) NOT NULL,
    FOREIGN KEY (date_id) REFERENCES date_dim (date_id),
    FOREIGN KEY (time_id) REFERENCES time_of_day (time_id),
    FOREIGN KEY (customer_id) REFERENCES customer (customer_id),
    FOREIGN KEY (product_id) REFERENCES product (product_id),
    FOREIGN KEY (store_id) REFERENCES store (store_id),
    FOREIGN KEY (employee_id) REFERENCES employee (employee_id),
    FOREIGN KEY (promotion_id) REFERENCES promotion (promotion_id),
    FOREIGN KEY (channel_id) REFERENCES channel (channel_id),
    FOREIGN KEY (currency_id) REFERENCES currency (currency_id),
    FOREIGN KEY (warehouse_id) REFERENCES warehouse (warehouse_id),
    FOREIGN KEY (shipping_mode_id) REFERENCES shipping_mode (shipping_mode_id),
    FOREIGN KEY (payment_method_id) REFERENCES payment_method (payment_method_id)
);
INSERT INTO sales (sale_id, date_id, time_id, customer_id, product_id, store_id, employee_id, promotion_id,
                   channel_id, currency_id, warehouse_id, shipping_mode_id, payment_method_id,
                   quantity, unit_price, discount, net_amount)
SELECT k.i, k.date_id, k.time_id, k.customer_id, k.product_id, k.store_id, k.store_id + 60 * (k.i % 5),
       k.promotion_id, k.channel_id, k.currency_id, k.warehouse_id, k.shipping_mode_id, k.payment_method_id,
       k.quantity, p.list_price,
       ROUND(p.list_price * k.quantity * k.discount_rate, 2),
       ROUND(p.list_price * k.quantity * (1 - k.discount_rate), 2)
FROM (
    SELECT seq AS i,
           1 + (seq * 7) % 731 AS date_id,
           1 + (seq * 11) % 96 AS time_id,
           1 + (seq * 13) % 1000 AS customer_id,
           1 + (seq * 31) % 400 AS product_id,
           1 + (seq * 23) % 60 AS store_id,
           CASE WHEN seq % 3 = 0 THEN 2 + (seq * 17) % 39 ELSE 1 END AS promotion_id,
           1 + seq % 5 AS channel_id,
           1 + (seq * 5) % 12 AS currency_id,
           1 + (seq * 7) % 12 AS warehouse_id,
           1 + (seq * 5) % 6 AS shipping_mode_id,
           1 + (seq * 3) % 8 AS payment_method_id,
           1 + seq % 4 AS quantity,
           CASE WHEN seq % 3 = 0 THEN 0.10 ELSE 0 END AS discount_rate
    FROM seq_1_to_6000
) AS k
JOIN product AS p ON p.product_id = k.product_id;

-- Planner lab: a hub with one key column per arm, and 19 arms of three rows (a table of one row or none is
-- read as a constant before the join search, so it would not count). A star join of the hub and
-- n-1 arms is the shape whose join-order search MariaDB makes long with pruning off (0.9 s for 12 tables,
-- 88 s for 14 on a 2-vCPU machine); docs/examples/mariadb-star12.sql is one.
CREATE TABLE lab_hub (k1 INT, k2 INT, k3 INT, k4 INT, k5 INT, k6 INT, k7 INT, k8 INT, k9 INT, k10 INT, k11 INT, k12 INT, k13 INT, k14 INT, k15 INT, k16 INT, k17 INT, k18 INT, k19 INT);
INSERT INTO lab_hub SELECT seq, seq, seq, seq, seq, seq, seq, seq, seq, seq, seq, seq, seq, seq, seq, seq, seq, seq, seq FROM seq_1_to_20;
CREATE TABLE lab_arm1 (id INT PRIMARY KEY, label VARCHAR(20)) SELECT seq AS id, CONCAT('arm 1.', seq) AS label FROM seq_1_to_3;
CREATE TABLE lab_arm2 (id INT PRIMARY KEY, label VARCHAR(20)) SELECT seq AS id, CONCAT('arm 2.', seq) AS label FROM seq_1_to_3;
CREATE TABLE lab_arm3 (id INT PRIMARY KEY, label VARCHAR(20)) SELECT seq AS id, CONCAT('arm 3.', seq) AS label FROM seq_1_to_3;
CREATE TABLE lab_arm4 (id INT PRIMARY KEY, label VARCHAR(20)) SELECT seq AS id, CONCAT('arm 4.', seq) AS label FROM seq_1_to_3;
CREATE TABLE lab_arm5 (id INT PRIMARY KEY, label VARCHAR(20)) SELECT seq AS id, CONCAT('arm 5.', seq) AS label FROM seq_1_to_3;
CREATE TABLE lab_arm6 (id INT PRIMARY KEY, label VARCHAR(20)) SELECT seq AS id, CONCAT('arm 6.', seq) AS label FROM seq_1_to_3;
CREATE TABLE lab_arm7 (id INT PRIMARY KEY, label VARCHAR(20)) SELECT seq AS id, CONCAT('arm 7.', seq) AS label FROM seq_1_to_3;
CREATE TABLE lab_arm8 (id INT PRIMARY KEY, label VARCHAR(20)) SELECT seq AS id, CONCAT('arm 8.', seq) AS label FROM seq_1_to_3;
CREATE TABLE lab_arm9 (id INT PRIMARY KEY, label VARCHAR(20)) SELECT seq AS id, CONCAT('arm 9.', seq) AS label FROM seq_1_to_3;
CREATE TABLE lab_arm10 (id INT PRIMARY KEY, label VARCHAR(20)) SELECT seq AS id, CONCAT('arm 10.', seq) AS label FROM seq_1_to_3;
CREATE TABLE lab_arm11 (id INT PRIMARY KEY, label VARCHAR(20)) SELECT seq AS id, CONCAT('arm 11.', seq) AS label FROM seq_1_to_3;
CREATE TABLE lab_arm12 (id INT PRIMARY KEY, label VARCHAR(20)) SELECT seq AS id, CONCAT('arm 12.', seq) AS label FROM seq_1_to_3;
CREATE TABLE lab_arm13 (id INT PRIMARY KEY, label VARCHAR(20)) SELECT seq AS id, CONCAT('arm 13.', seq) AS label FROM seq_1_to_3;
CREATE TABLE lab_arm14 (id INT PRIMARY KEY, label VARCHAR(20)) SELECT seq AS id, CONCAT('arm 14.', seq) AS label FROM seq_1_to_3;
CREATE TABLE lab_arm15 (id INT PRIMARY KEY, label VARCHAR(20)) SELECT seq AS id, CONCAT('arm 15.', seq) AS label FROM seq_1_to_3;
CREATE TABLE lab_arm16 (id INT PRIMARY KEY, label VARCHAR(20)) SELECT seq AS id, CONCAT('arm 16.', seq) AS label FROM seq_1_to_3;
CREATE TABLE lab_arm17 (id INT PRIMARY KEY, label VARCHAR(20)) SELECT seq AS id, CONCAT('arm 17.', seq) AS label FROM seq_1_to_3;
CREATE TABLE lab_arm18 (id INT PRIMARY KEY, label VARCHAR(20)) SELECT seq AS id, CONCAT('arm 18.', seq) AS label FROM seq_1_to_3;
CREATE TABLE lab_arm19 (id INT PRIMARY KEY, label VARCHAR(20)) SELECT seq AS id, CONCAT('arm 19.', seq) AS label FROM seq_1_to_3;

-- Statistics for the optimizer, as in the PostgreSQL demo.
ANALYZE TABLE country, region, city, currency, fiscal_period, date_dim, day_part, time_of_day,
        customer_segment, loyalty_tier, income_band, customer, manufacturer, brand, department, category,
        supplier, product, store_format, store, job_title, employee, promotion_type, promotion, channel,
        carrier, shipping_mode, payment_provider, payment_method, warehouse, sales, lab_hub,
        lab_arm1, lab_arm2, lab_arm3, lab_arm4, lab_arm5, lab_arm6, lab_arm7, lab_arm8, lab_arm9, lab_arm10,
        lab_arm11, lab_arm12, lab_arm13, lab_arm14, lab_arm15, lab_arm16, lab_arm17, lab_arm18, lab_arm19;
