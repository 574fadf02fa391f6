{#-
  stamp(column_name=none): a select-list item holding this invocation's id, so that every
  row a model writes can be traced to the run that wrote it:

      select {{ dbt_lineage.stamp() }}, o.* from {{ ref('stg_orders') }} as o

  renders  '<invocation_id>' as dbt_lineage_invocation_id  (the column name comes from
  the var dbt_lineage_stamp_column unless given here).
-#}
{% macro stamp(column_name=none) %}
  {{ return(adapter.dispatch('stamp', 'dbt_lineage')(column_name)) }}
{% endmacro %}

{% macro default__stamp(column_name=none) %}
  {% set name = column_name or var('dbt_lineage_stamp_column', 'dbt_lineage_invocation_id') %}
  {{ return("'" ~ invocation_id ~ "' as " ~ name) }}
{% endmacro %}
