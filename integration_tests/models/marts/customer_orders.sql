select c.customer_id, c.name, count(o.order_id) as order_count, sum(o.amount) as total_amount
from {{ ref('stg_customers') }} as c
left join {{ ref('orders') }} as o on o.customer_id = c.customer_id
group by c.customer_id, c.name
