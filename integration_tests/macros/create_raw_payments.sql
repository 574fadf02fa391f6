{# The source table: written by on-run-start, outside dbt's DAG, as a loader would
   (dbt has created the target schema by then). #}
{% macro create_raw_payments() %}
  {% if execute %}
    {% call statement('create_raw_payments', auto_begin=true) %}
      create table if not exists {{ target.schema }}.raw_payments as
      select 10 as order_id, 25.00 as paid union all select 12, 99.90
    {% endcall %}
    {% do adapter.commit() %}
  {% endif %}
{% endmacro %}
