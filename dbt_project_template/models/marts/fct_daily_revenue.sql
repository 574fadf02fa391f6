{{
    config(
        materialized='incremental',
        unique_key='order_date',
        incremental_strategy='delete+insert'
    )
}}
-- Revenue per day; an incremental run re-computes the last loaded day onwards.
select
    order_date,
    count(distinct order_id) as order_count,
    count(distinct customer_id) as customer_count,
    sum(amount) as revenue
from {{ ref('orders') }}
where status <> 'returned'
{% if is_incremental() %}
  and order_date >= (select max(order_date) from {{ this }})
{% endif %}
group by order_date
