{{
    config(
        materialized='incremental',
        unique_key='order_date',
        incremental_strategy='delete+insert'
    )
}}
{#- Spark tables without Delta/Iceberg cannot delete rows: overwrite the days' partitions instead. -#}
{% if target.type == 'spark' %}
{{ config(incremental_strategy='insert_overwrite', partition_by=['order_date'], file_format='parquet') }}
{% endif %}
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
