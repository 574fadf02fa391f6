{% snapshot orders_snapshot %}
{{
    config(
        target_schema=target.schema ~ '_snapshots',
        unique_key='id',
        strategy='timestamp',
        updated_at='updated_at',
        enabled=target.type != 'spark',
    )
}}
{#- On Spark a snapshot needs a Delta, Iceberg or Hudi table (MERGE), which plain pyspark lacks. -#}
-- depends_on: {{ ref('raw_orders') }}
-- Status history of raw orders.
select
    id,
    user_id,
    status,
    cast(updated_at as timestamp) as updated_at
from {{ source('ecom', 'raw_orders') }}
{% endsnapshot %}
