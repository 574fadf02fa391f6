{#- Private: the body of record_run, the same for every supported adapter. -#}
{% macro _record_run(results) %}
  {% set config = dbt_lineage.lineage_config() %}
  {% set dialect = dbt_lineage.lineage_dialect() %}
  {% set node_results = dbt_lineage._node_results(results) %}
  {% set invocation = dbt_lineage._invocation_row(node_results, config) %}
  {% set collected = dbt_lineage._collect_rows(node_results, config) %}
  {% set node_rows = collected.node_runs %}
  {% set input_rows = collected.run_inputs %}
  {% set rows = {'lineage_invocations': [invocation], 'lineage_node_runs': node_rows,
                 'lineage_run_inputs': input_rows} %}
  {% for table, columns in dbt_lineage._lineage_tables().items() %}
    {% do dbt_lineage._clean_rows(rows[table], columns) %}
  {% endfor %}

  {#
    DDL first (Snowflake commits it implicitly), then one transaction where the adapter has
    them. Everywhere the invocation row goes in last, with recorded_complete true: where
    the writes cannot share a transaction (BigQuery), a process killed half-way leaves
    node runs without that row, and readers skip them.
  #}
  {% set steps = dbt_lineage._schema_steps(config, dialect) %}
  {% set relations = dbt_lineage._lineage_relations(config) %}
  {% if dialect.begin %}{% do steps.append({'table': '', 'sql': dialect.begin, 'raw': true}) %}{% endif %}
  {% for table in dbt_lineage._lineage_tables() %}
    {% do steps.append({'table': table, 'sql': dbt_lineage._delete_invocation_sql(relations[table], invocation_id, dialect)}) %}
  {% endfor %}
  {% for table, columns in dbt_lineage._lineage_tables().items() if table != 'lineage_invocations' %}
    {% for sql in dbt_lineage._insert_statements(relations[table], columns, rows[table], dialect,
                                                  config.max_statement_bytes, config.max_rows_per_insert) %}
      {% do steps.append({'table': table, 'sql': sql}) %}
    {% endfor %}
  {% endfor %}
  {% if input_rows %}
    {% do steps.append({'table': 'lineage_run_inputs', 'sql': dbt_lineage._resolve_inputs_sql(
        relations.lineage_run_inputs, relations.lineage_node_runs, invocation_id,
        invocation.started_at, dialect, relations.lineage_invocations)}) %}
  {% endif %}
  {% for sql in dbt_lineage._insert_statements(relations.lineage_invocations, dbt_lineage._invocations_columns(),
                                                [invocation], dialect, config.max_statement_bytes, 1) %}
    {% do steps.append({'table': 'lineage_invocations', 'sql': sql}) %}
  {% endfor %}

  {{ return(dbt_lineage._finish_record(steps, dialect, config, node_rows | length, input_rows | length)) }}
{% endmacro %}

{#
  Run the hook's steps and report: commit, or roll back and warn (or fail, with
  dbt_lineage_fail_on_error). Shared by every adapter's write path.
#}
{% macro _finish_record(steps, dialect, config, node_count, input_count) %}
  {% set error = dbt_lineage._run_steps(steps, dialect) %}
  {% if error %}
    {% if dialect.transaction %}{% do dbt_lineage._execute('rollback') %}{% endif %}
    {% set where = config.schema ~ ('.' ~ error.table if error.table else '') ~ ': ' ~ error.cause %}
    {% if config.fail_on_error %}
      {{ exceptions.raise_compiler_error("dbt_lineage could not record invocation " ~ invocation_id
          ~ " in " ~ where ~ " (dbt_lineage_fail_on_error is true, so the run fails).") }}
    {% endif %}
    {% do exceptions.warn("dbt_lineage could not record invocation " ~ invocation_id ~ " in "
        ~ where ~ ". The run itself is unaffected; " ~ dbt_lineage._advice(error.cause, config)) %}
  {% else %}
    {% if dialect.begin %}{% do dbt_lineage._execute('commit') %}
    {% elif dialect.transaction %}{% do adapter.commit() %}{% endif %}
    {% do log('dbt_lineage: recorded invocation ' ~ invocation_id ~ ' (' ~ node_count
        ~ ' node runs, ' ~ input_count ~ ' inputs) in ' ~ config.schema, info=true) %}
  {% endif %}
  {{ return('') }}
{% endmacro %}

{# What to do about a failed write, from its cause: grant advice only for a missing grant. #}
{% macro _advice(cause, config) %}
  {% set text = cause | lower %}
  {% set instead = 'or set dbt_lineage_fail_on_error: true to fail the run instead.' %}
  {% if 'read-only' in text or 'read only' in text or 'readonly' in text %}
    {{ return('open the database read-write, ' ~ instead) }}
  {% endif %}
  {% for marker in ['permission denied', 'privilege', 'access denied', 'not authorized',
                    'unauthorized', 'does not have permission', '42501'] if marker in text %}
    {{ return('grant the role write access to schema ' ~ config.schema ~ ', ' ~ instead) }}
  {% endfor %}
  {{ return('the failed statement is in logs/dbt.log; fix the cause above, ' ~ instead) }}
{% endmacro %}

{% macro _lineage_relations(config) %}
  {% set relations = {} %}
  {% for table in dbt_lineage._lineage_tables() %}
    {% do relations.update({table: api.Relation.create(database=config.database, schema=config.schema, identifier=table)}) %}
  {% endfor %}
  {{ return(relations) }}
{% endmacro %}

{#
  The DDL that brings the tables to the expected columns: create the schema and tables
  that are missing, add the columns that are missing (append-only evolution).
#}
{% macro _schema_steps(config, dialect) %}
  {% set steps = [] %}
  {% set relations = dbt_lineage._lineage_relations(config) %}
  {% set any_table = {'found': false} %}
  {% for table, columns in dbt_lineage._lineage_tables().items() %}
    {% set existing = adapter.get_columns_in_relation(relations[table]) | map(attribute='name') | map('lower') | list %}
    {% if existing %}
      {% do any_table.update({'found': true}) %}
      {% for column in columns if column[0] not in existing %}
        {% do steps.append({'table': table, 'sql': dbt_lineage._add_column_sql(relations[table], column, dialect)}) %}
      {% endfor %}
    {% else %}
      {% do steps.append({'table': table, 'sql': dbt_lineage._create_table_sql(relations[table], columns, dialect)}) %}
      {% if dialect.name == 'postgres' %}
        {% for index_columns in dbt_lineage._lineage_indexes()[table] %}
          {% do steps.append({'table': table, 'sql': 'create index if not exists ' ~ table ~ '__' ~ index_columns | join('__')
              ~ ' on ' ~ relations[table] ~ ' (' ~ index_columns | join(', ') ~ ')'}) %}
        {% endfor %}
      {% endif %}
    {% endif %}
  {% endfor %}
  {% if not any_table.found and not adapter.check_schema_exists(config.database, config.schema) %}
    {# as the adapter renders the schema: quoted as the tables are; PostgreSQL, Redshift
       and Spark take no database in CREATE SCHEMA #}
    {% set rendered = api.Relation.create(database=config.database, schema=config.schema) %}
    {% if dialect.name in ('postgres', 'redshift', 'spark', 'databricks') %}
      {% set rendered = rendered.include(database=false) %}
    {% endif %}
    {% do steps.insert(0, {'table': '', 'sql': dbt_lineage._create_schema_sql(config.database, config.schema, dialect, rendered | string)}) %}
  {% endif %}
  {{ return(steps) }}
{% endmacro %}
