{#-
  purge_history(days=none, confirm=false): delete instance rows of invocations that started
  more than `days` days ago, from the three lineage tables; newer rows are untouched.
  Without `days` nothing is deleted (the default keeps everything). `days` is a whole
  number written as an integer (30, not 30.0 or "0.9"), at least 1: days 0 deletes all
  history and needs confirm: true. Logs how many rows each table lost.
  With `archive_to: SCHEMA` (and optionally `archive_database`) the rows are archived
  there before they leave the live tables: archive_history's move (archive_history.sql).

      dbt run-operation dbt_lineage.purge_history --args '{days: 30}'
-#}
{% macro purge_history(days=none, confirm=false, archive_to=none, archive_database=none) %}
  {{ return(adapter.dispatch('purge_history', 'dbt_lineage')(days, confirm, archive_to, archive_database)) }}
{% endmacro %}

{% macro default__purge_history(days=none, confirm=false, archive_to=none, archive_database=none) %}
  {% set days = dbt_lineage._history_days('dbt_lineage.purge_history', days, 0, '{days: 30}', 'nothing deleted') %}
  {% if days is none %}{{ return('') }}{% endif %}
  {% if days == 0 and confirm is not sameas true %}
    {{ exceptions.raise_compiler_error("dbt_lineage.purge_history: days 0 deletes the whole run history; pass --args '{days: 0, confirm: true}' to do that; nothing deleted") }}
  {% endif %}
  {% set config = dbt_lineage.lineage_config() %}
  {% if archive_to is not none %}
    {% set archive = dbt_lineage._archive_config('dbt_lineage.purge_history', config, archive_to, archive_database, none, 'archive_to', 'nothing deleted') %}
    {% do dbt_lineage._move_history('dbt_lineage.purge_history', config, archive, days) %}
    {{ return('') }}
  {% endif %}
  {% set dialect = dbt_lineage.lineage_dialect() %}
  {% set relations = dbt_lineage._lineage_relations(config) %}
  {% if not adapter.get_columns_in_relation(relations.lineage_invocations) %}
    {% do log('dbt_lineage.purge_history: ' ~ relations.lineage_invocations ~ ' does not exist, nothing to purge', info=true) %}
    {{ return('') }}
  {% endif %}
  {% set cutoff = modules.datetime.datetime.utcnow() - modules.datetime.timedelta(days=days) %}
  {% set cutoff_text = dbt_lineage._timestamp_text(cutoff) %}
  {% set old = dbt_lineage._old_invocations_sql(relations, cutoff_text, dialect) %}
  {% if dialect.begin %}{% do dbt_lineage._execute(dialect.begin) %}{% endif %}
  {% set removed = [] %}
  {% for table in ['lineage_run_inputs', 'lineage_node_runs', 'lineage_invocations'] %}
    {% set found = dbt_lineage._execute('select count(*) from ' ~ relations[table]
        ~ ' where invocation_id in (' ~ old ~ ')', fetch=true) %}
    {% do removed.append(table ~ ': ' ~ (found.rows[0][0] | int)) %}
  {% endfor %}
  {% for statement in dbt_lineage._purge_sql(relations, cutoff_text, dialect) %}
    {% do dbt_lineage._execute(statement) %}
  {% endfor %}
  {% if dialect.begin %}{% do dbt_lineage._execute('commit') %}
  {% elif dialect.transaction %}{% do adapter.commit() %}{% endif %}
  {% do log('dbt_lineage.purge_history: deleted invocations started before ' ~ cutoff ~ ' UTC; rows removed: '
      ~ removed | join(', '), info=true) %}
  {{ return('') }}
{% endmacro %}

{# The deletes, children first, keyed on the invocation's started_at. #}
{% macro _purge_sql(relations, cutoff_text, dialect) %}
  {% set old = dbt_lineage._old_invocations_sql(relations, cutoff_text, dialect) %}
  {% if not dialect.get('row_delete', true) %}
    {{ return(dbt_lineage._spark_purge_sql(relations, old)) }}
  {% endif %}
  {{ return([
    'delete from ' ~ relations.lineage_run_inputs ~ ' where invocation_id in (' ~ old ~ ')',
    'delete from ' ~ relations.lineage_node_runs ~ ' where invocation_id in (' ~ old ~ ')',
    'delete from ' ~ relations.lineage_invocations ~ ' where started_at < ' ~ dbt_lineage._literal(cutoff_text, 'timestamp', dialect),
  ]) }}
{% endmacro %}
