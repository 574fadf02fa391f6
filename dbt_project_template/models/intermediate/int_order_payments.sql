{{ config(materialized='ephemeral') }}
-- Successful payments per order, one column per payment method.
{% set payment_methods = ['credit_card', 'bank_transfer', 'coupon', 'gift_card'] %}

select
    order_id,
    {% for method in payment_methods -%}
    sum(case when payment_method = '{{ method }}' then amount else 0 end) as {{ method }}_amount,
    {% endfor -%}
    sum(amount) as total_amount,
    count(*) as payment_count
from {{ ref('stg_payments') }}
where is_successful
group by order_id
