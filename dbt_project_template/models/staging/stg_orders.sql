-- depends_on: {{ ref('raw_orders') }}
select
    id as order_id,
    user_id as customer_id,
    cast(order_date as date) as order_date,
    status,
    cast(updated_at as timestamp) as updated_at
from {{ source('ecom', 'raw_orders') }}
