{#-
  purge_history(days=none): delete instance rows of invocations that started more than
  `days` days ago, from the three lineage tables; newer rows are untouched. Without
  `days` nothing is deleted (the default keeps everything).

      dbt run-operation dbt_lineage.purge_history --args '{days: 30}'
-#}
{% macro purge_history(days=none) %}
  {{ return(adapter.dispatch('purge_history', 'dbt_lineage')(days)) }}
{% endmacro %}

{% macro default__purge_history(days=none) %}
  {% if days is none %}
    {% do log('dbt_lineage.purge_history: no days given, nothing deleted (pass --args "{days: N}")', info=true) %}
    {{ return('') }}
  {% endif %}
  {% if (days | string | int(-1)) < 0 %}
    {{ exceptions.raise_compiler_error("dbt_lineage.purge_history: days must be a whole number >= 0, got " ~ days) }}
  {% endif %}
  {% set config = dbt_lineage.lineage_config() %}
  {% set dialect = dbt_lineage.lineage_dialect() %}
  {% set relations = dbt_lineage._lineage_relations(config) %}
  {% if not adapter.get_columns_in_relation(relations.lineage_invocations) %}
    {% do log('dbt_lineage.purge_history: ' ~ relations.lineage_invocations ~ ' does not exist, nothing to purge', info=true) %}
    {{ return('') }}
  {% endif %}
  {% set cutoff = modules.datetime.datetime.utcnow() - modules.datetime.timedelta(days=days | int) %}
  {% set sql = dbt_lineage._purge_sql(relations, dbt_lineage._timestamp_text(cutoff), dialect) %}
  {% for statement in sql %}
    {% do dbt_lineage._execute(statement) %}
  {% endfor %}
  {% if dialect.transaction %}{% do adapter.commit() %}{% endif %}
  {% do log('dbt_lineage.purge_history: deleted invocations started before ' ~ cutoff ~ ' UTC', info=true) %}
  {{ return('') }}
{% endmacro %}

{# The deletes, children first, keyed on the invocation's started_at. #}
{% macro _purge_sql(relations, cutoff_text, dialect) %}
  {% set old = 'select invocation_id from ' ~ relations.lineage_invocations ~ ' where started_at < '
      ~ dbt_lineage._literal(cutoff_text, 'timestamp', dialect) %}
  {% if not dialect.get('row_delete', true) %}
    {{ return(dbt_lineage._spark_purge_sql(relations, old)) }}
  {% endif %}
  {{ return([
    'delete from ' ~ relations.lineage_run_inputs ~ ' where invocation_id in (' ~ old ~ ')',
    'delete from ' ~ relations.lineage_node_runs ~ ' where invocation_id in (' ~ old ~ ')',
    'delete from ' ~ relations.lineage_invocations ~ ' where started_at < ' ~ dbt_lineage._literal(cutoff_text, 'timestamp', dialect),
  ]) }}
{% endmacro %}
