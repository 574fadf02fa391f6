{#-
  lineage_config(): the package settings, read from vars with their defaults.

  Every setting is a var named dbt_lineage_*; the adapter-specific defaults (statement
  size limits) live in the adapter implementations below.
-#}
{% macro lineage_config() %}
  {{ return(adapter.dispatch('lineage_config', 'dbt_lineage')()) }}
{% endmacro %}

{% macro _lineage_config(max_statement_bytes) %}
  {% set targets = var('dbt_lineage_targets', []) %}
  {% if targets is string %}{% set targets = [targets] %}{% endif %}
  {% set commands = var('dbt_lineage_record_commands', ['build', 'run', 'test', 'seed', 'snapshot', 'retry']) %}
  {% if commands is string %}{% set commands = [commands] %}{% endif %}
  {{ return({
      'schema': var('dbt_lineage_schema', target.schema ~ '_lineage'),
      'database': var('dbt_lineage_database', target.database),
      'enabled': var('dbt_lineage_enabled', true) in [true, 'true', 'True', 1, '1'],
      'targets': targets,
      'record_commands': commands | map('string') | map('lower') | list,
      'max_statement_bytes': var('dbt_lineage_max_statement_bytes', max_statement_bytes) | int,
      'max_rows_per_insert': var('dbt_lineage_max_rows_per_insert', 5000) | int,
      'max_message_chars': var('dbt_lineage_max_message_chars', 4000) | int,
      'fail_on_error': var('dbt_lineage_fail_on_error', false) in [true, 'true', 'True', 1, '1'],
      'stamp_column': var('dbt_lineage_stamp_column', 'dbt_lineage_invocation_id'),
  }) }}
{% endmacro %}

{# The adapters the package writes to: the one list every "not supported" error names. #}
{% macro _supported_adapters() %}
  {{ return(['duckdb', 'postgres', 'snowflake', 'bigquery', 'databricks', 'spark', 'redshift']) }}
{% endmacro %}

{# Fails with one message for an adapter the package has no SQL for. #}
{% macro _assert_supported(adapter_type) %}
  {% set supported = dbt_lineage._supported_adapters() %}
  {% if adapter_type not in supported %}
    {{ exceptions.raise_compiler_error(
        "adapter " ~ adapter_type ~ " is not supported by dbt_lineage: supported adapters are "
        ~ supported | join(', ') ~ ". Remove the dbt_lineage hook for this target, or list the "
        ~ "targets to record in the var dbt_lineage_targets.") }}
  {% endif %}
{% endmacro %}

{#
  Dispatched the dbt-utils way: default__ for every adapter, overrides only where a value
  differs. The statement size limit is under 1 MB (the limit Snowflake recommends per
  statement).
#}
{% macro default__lineage_config() %}
  {% do dbt_lineage._assert_supported(adapter.type()) %}
  {{ return(dbt_lineage._lineage_config(1000000)) }}
{% endmacro %}

{# dbt-databricks descends from dbt-spark: without this, spark__ below would apply. #}
{% macro databricks__lineage_config() %}{{ return(dbt_lineage.default__lineage_config()) }}{% endmacro %}

{# Spark has no database above the schema (dbt-spark leaves target.database undefined). #}
{% macro spark__lineage_config() %}
  {% set config = dbt_lineage._lineage_config(1000000) %}
  {% do config.update({'database': var('dbt_lineage_database', none)}) %}
  {{ return(config) }}
{% endmacro %}

{# BigQuery rejects an unresolved GoogleSQL query longer than 1 MB: keep a margin. #}
{% macro bigquery__lineage_config() %}{{ return(dbt_lineage._lineage_config(900000)) }}{% endmacro %}
