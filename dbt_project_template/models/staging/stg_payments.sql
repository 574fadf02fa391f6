-- depends_on: {{ ref('raw_payments') }}
-- The loader can deliver a payment twice: keep the latest copy of each.
with numbered as (
    select
        id as payment_id,
        order_id,
        payment_method,
        status = 'success' as is_successful,
        cast(amount_cents as decimal(12, 2)) / 100 as amount,
        cast(created_at as timestamp) as created_at,
        row_number() over (partition by id order by created_at desc) as copy_number
    from {{ source('ecom', 'raw_payments') }}
)

select payment_id, order_id, payment_method, is_successful, amount, created_at
from numbered
where copy_number = 1
