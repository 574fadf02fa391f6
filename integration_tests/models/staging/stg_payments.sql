select order_id, paid from {{ source('loader', 'raw_payments') }}
