{#-
  Run-operations used by tests/macros/: they drive the package's own macros through real
  dbt rendering (no re-implementation in Python) and log their findings as one JSON line
  prefixed with DBT_LINEAGE_TEST_JSON= for the test to read.
-#}

{% macro _emit(payload) %}
  {% do log('DBT_LINEAGE_TEST_JSON=' ~ tojson(payload), info=true) %}
{% endmacro %}

{#
  `n` results shaped like dbt's RunResult (dicts: Jinja reads r.node.unique_id from a dict
  as from an object). Every node depends on the one before it and on a source; `text` goes
  into names and messages, so that escaping is exercised at scale.
#}
{% macro fake_results(n, text='') %}
  {% set results = [] %}
  {% for i in range(n | int) %}
    {% set uid = 'model.fake.' ~ text ~ 'node_' ~ i %}
    {% set deps = ['source.fake.raw.events'] + (['model.fake.' ~ text ~ 'node_' ~ (i - 1)] if i > 0 else []) %}
    {% do results.append({
      'status': 'error' if i % 10 == 9 else 'success',
      'thread_id': 'Thread-1',
      'execution_time': 0.5,
      'message': ('failed: ' ~ text) if i % 10 == 9 else 'OK ' ~ text,
      'failures': none,
      'adapter_response': {'_message': 'SELECT ' ~ i, 'code': 'SELECT', 'rows_affected': i},
      'timing': [
        {'name': 'compile', 'started_at': '2024-05-01T10:00:00.000000Z', 'completed_at': '2024-05-01T10:00:00.100000Z'},
        {'name': 'execute', 'started_at': '2024-05-01T10:00:00.100000Z', 'completed_at': '2024-05-01T10:00:01.000000Z'},
      ],
      'node': {
        'unique_id': uid, 'name': text ~ 'node_' ~ i, 'resource_type': 'model',
        'package_name': 'fake', 'relation_name': '"db"."schema"."' ~ text ~ 'node_' ~ i ~ '"',
        'config': {'materialized': 'table'}, 'checksum': {'checksum': 'ck5um' ~ i},
        'depends_on': {'nodes': deps},
      },
    }) %}
  {% endfor %}
  {{ return(results) }}
{% endmacro %}

{# Write `n` fake results through the package's real record path, then report what was written. #}
{% macro record_fake_run(n=3, text='', big=0) %}
  {% set results = dbt_lineage_integration_tests.fake_results(n, text) %}
  {% if big %}{% do dbt_lineage_integration_tests._make_big(results[0], big) %}{% endif %}
  {% do dbt_lineage._record_run(results) %}
  {% do dbt_lineage_integration_tests._emit({'invocation_id': invocation_id, 'text': text}) %}
{% endmacro %}

{# The INSERT statements the hook would send for `n` node runs, per dialect: their sizes. #}
{% macro check_batching(n=10000, text='') %}
  {% set results = dbt_lineage_integration_tests.fake_results(n, text) %}
  {% set config = dbt_lineage.lineage_config() %}
  {% set node_rows = dbt_lineage._collect_rows(results, config).node_runs %}
  {% set report = {} %}
  {% for name in ['duckdb', 'postgres', 'snowflake', 'bigquery', 'databricks', 'redshift'] %}
    {% set dialect = dbt_lineage[name ~ '__lineage_dialect']() %}
    {% set limit = (dbt_lineage.bigquery__lineage_config() if name == 'bigquery'
                    else dbt_lineage.default__lineage_config()).max_statement_bytes %}
    {% set statements = dbt_lineage._insert_statements('lineage.lineage_node_runs',
        dbt_lineage._node_runs_columns(), node_rows, dialect, limit, config.max_rows_per_insert) %}
    {% set sizes = [] %}
    {% set rows = [] %}
    {% for sql in statements %}
      {% do sizes.append(dbt_lineage._byte_length(dbt_lineage._guarded_sql(sql, dialect))) %}
      {% do rows.append(sql.count('ck5um')) %}
    {% endfor %}
    {% do report.update({name: {'limit': limit, 'sizes': sizes, 'rows': rows}}) %}
  {% endfor %}
  {% do dbt_lineage_integration_tests._emit(report) %}
{% endmacro %}

{# A result whose message and adapter response are `chars` characters of hostile text. #}
{% macro _make_big(result, chars) %}
  {% set unit = "it's $$ \\ \"q\" 😀 ü\n" %}
  {% set text = (unit * ((chars | int) // (unit | length) + 1))[:chars | int] %}
  {% do result.update({'message': text}) %}
  {% do result.adapter_response.update({'_message': text}) %}
{% endmacro %}

{# Statements for 3 results, one of them `chars` long, under a `limit`: sizes per dialect. #}
{% macro check_cutting(chars=300000, limit=100000) %}
  {% set results = dbt_lineage_integration_tests.fake_results(3, '') %}
  {% do dbt_lineage_integration_tests._make_big(results[0], chars) %}
  {% set config = dbt_lineage.lineage_config() %}
  {% do config.update({'max_message_chars': 10000000}) %}
  {% set node_rows = dbt_lineage._collect_rows(results, config).node_runs %}
  {% set report = {} %}
  {% for name in ['duckdb', 'postgres', 'snowflake', 'bigquery', 'databricks', 'redshift'] %}
    {% set dialect = dbt_lineage[name ~ '__lineage_dialect']() %}
    {% set statements = dbt_lineage._insert_statements('lineage.lineage_node_runs',
        dbt_lineage._node_runs_columns(), node_rows, dialect, limit | int, 5000) %}
    {% set sizes = [] %}
    {% for sql in statements %}
      {% do sizes.append(dbt_lineage._byte_length(dbt_lineage._guarded_sql(sql, dialect))) %}
    {% endfor %}
    {% do report.update({name: {'sizes': sizes, 'rows': (statements | join('')).count('ck5um'),
                                'marked': (statements | join('')).count('cut by dbt_lineage'),
                                'json_marked': (statements | join('')).count('dbt_lineage_cut')}}) %}
  {% endfor %}
  {% do dbt_lineage_integration_tests._emit(report) %}
{% endmacro %}

{#
  The SQL the hook sends on each adapter, rendered from this (DuckDB) session with the
  adapter's own dialect macros: DDL, insert, delete, resolve, purge and provenance.
#}
{% macro render_dialect_sql(text='') %}
  {% set results = dbt_lineage_integration_tests.fake_results(2, text) %}
  {% set config = dbt_lineage.lineage_config() %}
  {% set rows = dbt_lineage._clean_rows(dbt_lineage._collect_rows(results, config).node_runs,
                                        dbt_lineage._node_runs_columns()) %}
  {% set names = {
    'snowflake': 'analytics.dbt_lineage', 'bigquery': '`proj`.`dbt_lineage`',
    'databricks': 'dbt_lineage', 'spark': 'dbt_lineage', 'redshift': '"dev"."dbt_lineage"',
    'postgres': '"postgres"."dbt_lineage"', 'duckdb': '"db"."dbt_lineage"'} %}
  {% set report = {} %}
  {% for name, schema in names.items() %}
    {% set dialect = dbt_lineage[name ~ '__lineage_dialect']() %}
    {% set relations = {} %}
    {% for table in dbt_lineage._lineage_tables() %}
      {% do relations.update({table: (schema ~ '.' ~ table) if name != 'bigquery' else (schema ~ '.`' ~ table ~ '`')}) %}
    {% endfor %}
    {% set archived = {} %}
    {% for table in dbt_lineage._lineage_tables() %}
      {% do archived.update({table: relations[table] | replace('dbt_lineage', 'lineage_archive')}) %}
    {% endfor %}
    {% set insert = dbt_lineage._insert_statements(relations.lineage_node_runs, dbt_lineage._node_runs_columns(), rows, dialect, 1000000, 5000)[0] %}
    {% do report.update({name: {
      'create_schema': dbt_lineage._create_schema_sql('proj', 'dbt_lineage', dialect),
      'create_table': dbt_lineage._create_table_sql(relations.lineage_node_runs, dbt_lineage._node_runs_columns(), dialect),
      'add_column': dbt_lineage._add_column_sql(relations.lineage_node_runs, ['message', 'text'], dialect),
      'insert': insert,
      'guarded_insert': dbt_lineage._guarded_sql(insert, dialect),
      'delete': dbt_lineage._delete_invocation_sql(relations.lineage_node_runs, 'inv-1', dialect),
      'resolve': dbt_lineage._resolve_inputs_sql(relations.lineage_run_inputs, relations.lineage_node_runs, 'inv-1', '2024-05-01 10:00:00.000000', dialect),
      'purge': dbt_lineage._purge_sql(relations, '2024-05-01 10:00:00.000000', dialect),
      'archive': dbt_lineage._archive_sql('lineage_node_runs', relations, archived, dbt_lineage._node_runs_columns(), '2024-05-01 10:00:00.000000', dialect)
          + dbt_lineage._archive_sql('lineage_invocations', relations, archived, dbt_lineage._invocations_columns(), '2024-05-01 10:00:00.000000', dialect),
      'provenance': dbt_lineage._provenance_sql('model.shop.orders', none, dialect, relations),
      'provenance_archive': dbt_lineage._provenance_sql('model.shop.orders', none, dialect, relations, true, archived),
      'escaped': dbt_lineage._quote(text, dialect),
    }}) %}
  {% endfor %}
  {% do dbt_lineage_integration_tests._emit(report) %}
{% endmacro %}

{# What a user of an adapter without SQL in the package gets (sqlserver here). #}
{% macro call_default_record_run() %}
  {% do dbt_lineage._assert_supported('sqlserver') %}
{% endmacro %}
