-- The monthly sales report: every sale with all fifteen of its dimensions, a 16-table star join.
select count(*)
from sales s
join date_dim on s.date_dim_id = date_dim.id
join store on s.store_id = store.id
join product on s.product_id = product.id
join customer on s.customer_id = customer.id
join promotion on s.promotion_id = promotion.id
join channel on s.channel_id = channel.id
join region on s.region_id = region.id
join currency on s.currency_id = currency.id
join supplier on s.supplier_id = supplier.id
join warehouse on s.warehouse_id = warehouse.id
join carrier on s.carrier_id = carrier.id
join payment_method on s.payment_method_id = payment_method.id
join campaign on s.campaign_id = campaign.id
join sales_rep on s.sales_rep_id = sales_rep.id
join price_list on s.price_list_id = price_list.id
