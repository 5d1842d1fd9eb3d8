-- The sales table and its fifteen dimensions.
create table date_dim (id int primary key, name text);
create table store (id int primary key, name text);
create table product (id int primary key, name text);
create table customer (id int primary key, name text);
create table promotion (id int primary key, name text);
create table channel (id int primary key, name text);
create table region (id int primary key, name text);
create table currency (id int primary key, name text);
create table supplier (id int primary key, name text);
create table warehouse (id int primary key, name text);
create table carrier (id int primary key, name text);
create table payment_method (id int primary key, name text);
create table campaign (id int primary key, name text);
create table sales_rep (id int primary key, name text);
create table price_list (id int primary key, name text);
create table sales (
    id bigint primary key,
    amount bigint,
    date_dim_id int,
    store_id int,
    product_id int,
    customer_id int,
    promotion_id int,
    channel_id int,
    region_id int,
    currency_id int,
    supplier_id int,
    warehouse_id int,
    carrier_id int,
    payment_method_id int,
    campaign_id int,
    sales_rep_id int,
    price_list_id int
);
