{#-
  escape_string(value): the body of a single-quoted SQL string literal holding `value`
  exactly, for the current adapter (the caller adds the quotes). One rule per adapter,
  stated once in _escape_rules and used both here and by the row renderer:

  - duckdb, postgres: quotes doubled; backslashes are literal (postgres with
    standard_conforming_strings on, its default since 9.1; we never emit E'' strings).
  - snowflake, redshift: backslash is an escape character there, so it is doubled first.
  - bigquery, databricks/spark: backslash escapes, and a quote is written \' ('' is not an
    escaped quote there); BigQuery single-quoted strings cannot hold a raw newline either.
-#}
{% macro escape_string(value) %}
  {{ return(adapter.dispatch('escape_string', 'dbt_lineage')(value)) }}
{% endmacro %}

{% macro default__escape_string(value) %}
  {{ exceptions.raise_compiler_error("adapter " ~ adapter.type() ~ " is not supported by dbt_lineage: no string escaping is defined for it.") }}
{% endmacro %}

{# [old, new] replacements, applied in order, for one adapter. #}
{% macro _escape_rules(name) %}
  {% set backslash_doubled = ["\\", "\\\\"] %}
  {{ return({
    'duckdb': [["'", "''"]],
    'postgres': [["'", "''"]],
    'redshift': [backslash_doubled, ["'", "''"]],
    'snowflake': [backslash_doubled, ["'", "''"]],
    'bigquery': [backslash_doubled, ["'", "\\'"], ["\n", "\\n"], ["\r", "\\r"]],
    'spark': [backslash_doubled, ["'", "\\'"]],
    'databricks': [backslash_doubled, ["'", "\\'"]],
  }[name]) }}
{% endmacro %}

{% macro _escape(value, rules) %}
  {% set text = {'value': value | string} %}
  {% for rule in rules %}
    {% do text.update({'value': text.value.replace(rule[0], rule[1])}) %}
  {% endfor %}
  {{ return(text.value) }}
{% endmacro %}

{% macro duckdb__escape_string(value) %}{{ return(dbt_lineage._escape(value, dbt_lineage._escape_rules('duckdb'))) }}{% endmacro %}
{% macro postgres__escape_string(value) %}{{ return(dbt_lineage._escape(value, dbt_lineage._escape_rules('postgres'))) }}{% endmacro %}
{% macro redshift__escape_string(value) %}{{ return(dbt_lineage._escape(value, dbt_lineage._escape_rules('redshift'))) }}{% endmacro %}
{% macro snowflake__escape_string(value) %}{{ return(dbt_lineage._escape(value, dbt_lineage._escape_rules('snowflake'))) }}{% endmacro %}
{% macro bigquery__escape_string(value) %}{{ return(dbt_lineage._escape(value, dbt_lineage._escape_rules('bigquery'))) }}{% endmacro %}
{% macro spark__escape_string(value) %}{{ return(dbt_lineage._escape(value, dbt_lineage._escape_rules('spark'))) }}{% endmacro %}
{% macro databricks__escape_string(value) %}{{ return(dbt_lineage._escape(value, dbt_lineage._escape_rules('databricks'))) }}{% endmacro %}
