-- depends_on: {{ ref('raw_payments') }}
-- The loader can deliver a payment twice: keep the latest copy of each.
select
    id as payment_id,
    order_id,
    payment_method,
    status = 'success' as is_successful,
    cast(amount_cents as decimal(12, 2)) / 100 as amount,
    cast(created_at as timestamp) as created_at
from {{ source('ecom', 'raw_payments') }}
qualify row_number() over (partition by id order by created_at desc) = 1
