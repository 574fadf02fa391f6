{#-
  lineage_dialect(): how the current adapter spells the lineage tables' SQL, as data.

  The generic builders in _sql.sql read this dict, so each adapter is a dozen lines of
  facts instead of its own insert macros:
    name          the adapter
    escapes       its string-literal escaping rules (escape_string.sql)
    types         logical column type -> the warehouse type
    cast          logical type -> template wrapping a literal ("{}") into that type
    insert_style  json: INSERT ... SELECT <casts> FROM <the rows as one JSON string
                  literal, unnested by the warehouse> -- the rows are serialised by
                  Python (tojson) and escaped once per statement, which keeps the hook
                  fast (see _insert_statements)
                  values: INSERT ... VALUES (...), (...) (Redshift: its string literals
                  stop at 64 KB, too short for a batch of JSON)
    json_from     json style: the FROM clause, "{}" standing for the JSON literal
    json_get      json style: the text of field "{key}" of row r
    update_style  update_from | merge (Databricks/Spark)
    guard         how a write is run so that its failure can be reported, not raised
                  (docs/decisions/0002-hook-failure-handling.md)
    transaction   whether the writes share one transaction (begin ... commit)
    begin         the statement that opens it, sent by the hook itself after the DDL and
                  ended by its own commit ('' on DuckDB, where dbt's connection already
                  holds a transaction that adapter.commit() ends, and where there is none)
    row_delete    (optional, default true) false where the tables cannot DELETE rows
                  (Spark's parquet tables): the hook appends (_spark.sql) and
                  purge_history rewrites the tables instead
    table_options (optional) text after CREATE TABLE's column list (Spark: using parquet,
                  since Spark 3's default Hive text format cannot hold a newline)
    guard 'spark_script' is chosen at run time (_spark_guard): Spark 4.1+ scripts
-#}
{% macro lineage_dialect() %}
  {{ return(adapter.dispatch('lineage_dialect', 'dbt_lineage')()) }}
{% endmacro %}

{# Only the adapters below have SQL facts; any other fails with the one message. #}
{% macro default__lineage_dialect() %}
  {% do dbt_lineage._assert_supported(adapter.type()) %}
  {{ exceptions.raise_compiler_error("dbt_lineage: no lineage_dialect for " ~ adapter.type()) }}
{% endmacro %}

{% macro _cast_templates(types, json_template) %}
  {% set cast = {} %}
  {% for kind, sql_type in types.items() %}
    {% if kind == 'json' %}
      {% do cast.update({kind: json_template}) %}
    {% elif kind in ('id', 'text') %}
      {% do cast.update({kind: '{}'}) %}
    {% else %}
      {% do cast.update({kind: 'cast({} as ' ~ sql_type ~ ')'}) %}
    {% endif %}
  {% endfor %}
  {{ return(cast) }}
{% endmacro %}

{% macro duckdb__lineage_dialect() %}
  {% set types = {'id': 'varchar', 'text': 'varchar', 'bigint': 'bigint', 'double': 'double',
                  'boolean': 'boolean', 'timestamp': 'timestamp', 'json': 'json'} %}
  {{ return({'name': 'duckdb', 'types': types, 'escapes': dbt_lineage._escape_rules('duckdb'),
             'cast': dbt_lineage._cast_templates(types, 'cast({} as json)'),
             'insert_style': 'json', 'json_from': '(select unnest(cast({} as json[])) as r)', 'json_get': "(r ->> '{key}')", 'update_style': 'update_from',
             'guard': 'duckdb_readonly_check', 'transaction': true, 'begin': ''}) }}
{% endmacro %}

{% macro postgres__lineage_dialect() %}
  {% set types = {'id': 'text', 'text': 'text', 'bigint': 'bigint', 'double': 'double precision',
                  'boolean': 'boolean', 'timestamp': 'timestamp', 'json': 'jsonb'} %}
  {{ return({'name': 'postgres', 'types': types, 'escapes': dbt_lineage._escape_rules('postgres'),
             'cast': dbt_lineage._cast_templates(types, 'cast({} as jsonb)'),
             'insert_style': 'json', 'json_from': 'jsonb_array_elements(cast({} as jsonb)) as r', 'json_get': "(r ->> '{key}')", 'update_style': 'update_from',
             'guard': 'plpgsql_do', 'transaction': true, 'begin': 'begin'}) }}
{% endmacro %}

{% macro redshift__lineage_dialect() %}
  {% set types = {'id': 'varchar(1024)', 'text': 'varchar(65535)', 'bigint': 'bigint',
                  'double': 'double precision', 'boolean': 'boolean', 'timestamp': 'timestamp',
                  'json': 'super'} %}
  {{ return({'name': 'redshift', 'types': types, 'escapes': dbt_lineage._escape_rules('redshift'),
             'cast': dbt_lineage._cast_templates(types, 'json_parse({})'),
             'insert_style': 'values', 'update_style': 'update_from',
             'guard': 'none', 'transaction': true, 'begin': 'begin'}) }}
{% endmacro %}

{% macro snowflake__lineage_dialect() %}
  {% set types = {'id': 'varchar', 'text': 'varchar', 'bigint': 'number(38,0)', 'double': 'float',
                  'boolean': 'boolean', 'timestamp': 'timestamp_ntz', 'json': 'variant'} %}
  {{ return({'name': 'snowflake', 'types': types, 'escapes': dbt_lineage._escape_rules('snowflake'),
             'cast': dbt_lineage._cast_templates(types, 'parse_json({})'),
             'insert_style': 'json', 'json_from': 'table(flatten(input => parse_json({}))) as r', 'json_get': 'strip_null_value(r.value:"{key}")::varchar', 'update_style': 'update_from',
             'guard': 'snowflake_block', 'transaction': true, 'begin': 'begin'}) }}
{% endmacro %}

{% macro bigquery__lineage_dialect() %}
  {% set types = {'id': 'string', 'text': 'string', 'bigint': 'int64', 'double': 'float64',
                  'boolean': 'bool', 'timestamp': 'timestamp', 'json': 'json'} %}
  {{ return({'name': 'bigquery', 'types': types, 'escapes': dbt_lineage._escape_rules('bigquery'),
             'cast': dbt_lineage._cast_templates(types, 'safe.parse_json({})'),
             'insert_style': 'json', 'json_from': "unnest(json_query_array(parse_json({}, wide_number_mode => 'round'))) as r", 'json_get': "json_value(r, '$.{key}')", 'update_style': 'update_from',
             'guard': 'bigquery_script', 'transaction': false, 'begin': ''}) }}
{% endmacro %}

{% macro spark__lineage_dialect() %}
  {% set types = {'id': 'string', 'text': 'string', 'bigint': 'bigint', 'double': 'double',
                  'boolean': 'boolean', 'timestamp': 'timestamp', 'json': 'string'} %}
  {{ return({'name': 'spark', 'types': types, 'escapes': dbt_lineage._escape_rules('spark'),
             'cast': dbt_lineage._cast_templates(types, '{}'),
             'insert_style': 'json', 'json_from': "(select explode(from_json({}, 'array<map<string,string>>')) as r) as lineage_rows", 'json_get': "r['{key}']", 'update_style': 'merge',
             'guard': 'none', 'transaction': false, 'begin': '', 'row_delete': false, 'table_options': ' using parquet'}) }}
{% endmacro %}

{% macro databricks__lineage_dialect() %}
  {% set dialect = dbt_lineage.spark__lineage_dialect() %}
  {# Delta tables (Databricks' default format) delete and merge rows #}
  {% do dialect.update({'name': 'databricks', 'escapes': dbt_lineage._escape_rules('databricks'),
                        'row_delete': true, 'table_options': ''}) %}
  {{ return(dialect) }}
{% endmacro %}
