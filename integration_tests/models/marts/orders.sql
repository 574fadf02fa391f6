select
    {{ dbt_lineage.stamp() }},
    o.order_id,
    o.customer_id,
    o.amount,
    p.paid
from {{ ref('stg_orders') }} as o
left join {{ ref('stg_payments') }} as p on p.order_id = o.order_id
