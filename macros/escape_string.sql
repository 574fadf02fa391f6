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
  {{ return(dbt_lineage._escape(value, dbt_lineage.lineage_dialect().escapes)) }}
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
