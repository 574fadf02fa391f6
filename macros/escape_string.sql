{#-
  escape_string(value): the body of a single-quoted SQL string literal holding `value`
  exactly, for the current adapter (the caller adds the quotes). One helper per adapter:

  - duckdb, postgres: quotes doubled; backslashes are literal (postgres with
    standard_conforming_strings on, its default since 9.1; we never emit E'' strings).
  - snowflake, redshift: backslash is an escape character there, so it is doubled first.
  - bigquery, databricks/spark: backslash escapes, quotes as \' ('' is not an escaped
    quote there); BigQuery single-quoted strings cannot hold a raw newline.
-#}
{% macro escape_string(value) %}
  {{ return(adapter.dispatch('escape_string', 'dbt_lineage')(value)) }}
{% endmacro %}

{% macro default__escape_string(value) %}
  {{ exceptions.raise_compiler_error("adapter " ~ adapter.type() ~ " is not supported by dbt_lineage: no string escaping is defined for it.") }}
{% endmacro %}

{% macro duckdb__escape_string(value) %}{{ return(value | string | replace("'", "''")) }}{% endmacro %}

{% macro postgres__escape_string(value) %}{{ return(value | string | replace("'", "''")) }}{% endmacro %}

{% macro redshift__escape_string(value) %}{{ return(value | string | replace("\\", "\\\\") | replace("'", "''")) }}{% endmacro %}

{% macro snowflake__escape_string(value) %}{{ return(value | string | replace("\\", "\\\\") | replace("'", "''")) }}{% endmacro %}

{% macro bigquery__escape_string(value) %}{{ return(value | string | replace("\\", "\\\\") | replace("'", "\\'") | replace("\n", "\\n") | replace("\r", "\\r")) }}{% endmacro %}

{% macro spark__escape_string(value) %}{{ return(value | string | replace("\\", "\\\\") | replace("'", "\\'")) }}{% endmacro %}

{% macro databricks__escape_string(value) %}{{ return(dbt_lineage.spark__escape_string(value)) }}{% endmacro %}
