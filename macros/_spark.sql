{#-
  Private: the hook on Apache Spark (dbt-spark). Spark's own tables (parquet, hive) have
  no transactions and no row-level DELETE, UPDATE or MERGE, so the hook writes there
  append-only (docs/decisions/0005-spark-hook.md):

  - node runs first, then their inputs with input_invocation_id resolved by the INSERT
    itself, and the invocation row last: an invocation row means its runs are complete;
  - a second run of the hook in the same invocation finds that row and writes nothing;
  - on Spark 4.1 and later each statement runs inside a SQL script whose exit handler
    turns an error into a result row, so a failed write is a warning (or, with
    dbt_lineage_fail_on_error, a failed run) instead of a failed hook.
-#}
{% macro _spark_record_run(results) %}
  {% set config = dbt_lineage.lineage_config() %}
  {% set dialect = dbt_lineage.lineage_dialect() %}
  {% do dialect.update({'guard': dbt_lineage._spark_guard()}) %}
  {# room for the guard around each statement #}
  {% do config.update({'max_statement_bytes': config.max_statement_bytes
      - dbt_lineage._byte_length(dbt_lineage._guarded_sql('', dialect))}) %}
  {% set node_results = dbt_lineage._node_results(results) %}
  {% set invocation = dbt_lineage._invocation_row(node_results, config) %}
  {# dbt-spark has no database above the schema: target.database is undefined #}
  {% do invocation.update({'target_database': target.database if target.database is defined else none}) %}
  {% set collected = dbt_lineage._collect_rows(node_results, config) %}
  {% do dbt_lineage._clean_rows([invocation], dbt_lineage._invocations_columns()) %}
  {% do dbt_lineage._clean_rows(collected.node_runs, dbt_lineage._node_runs_columns()) %}
  {% do dbt_lineage._clean_rows(collected.run_inputs, dbt_lineage._run_inputs_columns()) %}
  {% set relations = dbt_lineage._lineage_relations(config) %}

  {% if dbt_lineage._spark_recorded(relations.lineage_invocations, dialect) %}
    {% do log('dbt_lineage: invocation ' ~ invocation_id ~ ' is already recorded in '
        ~ config.schema ~ '; nothing written', info=true) %}
    {{ return('') }}
  {% endif %}

  {% set steps = dbt_lineage._schema_steps(config, dialect) %}
  {% for sql in dbt_lineage._insert_statements(relations.lineage_node_runs, dbt_lineage._node_runs_columns(),
                                                collected.node_runs, dialect, config.max_statement_bytes,
                                                config.max_rows_per_insert) %}
    {% do steps.append({'table': 'lineage_node_runs', 'sql': sql}) %}
  {% endfor %}
  {% for sql in dbt_lineage._spark_inputs_statements(relations, collected.run_inputs, invocation.started_at,
                                                      dialect, config) %}
    {% do steps.append({'table': 'lineage_run_inputs', 'sql': sql}) %}
  {% endfor %}
  {% for sql in dbt_lineage._insert_statements(relations.lineage_invocations, dbt_lineage._invocations_columns(),
                                                [invocation], dialect, config.max_statement_bytes, 1) %}
    {% do steps.append({'table': 'lineage_invocations', 'sql': sql}) %}
  {% endfor %}
  {{ return(dbt_lineage._finish_record(steps, dialect, config, collected.node_runs | length,
                                       collected.run_inputs | length)) }}
{% endmacro %}

{#
  'spark_script' where Spark runs SQL scripts with condition handlers (4.1 and later, with
  spark.sql.scripting.enabled, its default there), else 'none': older Spark has no way
  for SQL to catch its own errors, and a failed write fails the hook (ADR 0003).
#}
{% macro _spark_guard() %}
  {% set version = (dbt_lineage._execute('select version()', fetch=true).rows[0][0] | string).split(' ')[0].split('.') + ['0'] %}
  {% if (version[0] | int(0), version[1] | int(0)) < (4, 1) %}
    {{ return('none') }}
  {% endif %}
  {% set enabled = dbt_lineage._execute('set spark.sql.scripting.enabled', fetch=true) %}
  {{ return('spark_script' if enabled.rows and (enabled.rows[0][1] | string | lower) == 'true' else 'none') }}
{% endmacro %}

{# Whether this invocation already has its row in lineage_invocations (written last). #}
{% macro _spark_recorded(relation, dialect) %}
  {% if not adapter.get_columns_in_relation(relation) %}{{ return(false) }}{% endif %}
  {% set found = dbt_lineage._execute('select count(*) from ' ~ relation ~ ' where invocation_id = '
      ~ dbt_lineage._quote(invocation_id, dialect), fetch=true) %}
  {{ return((found.rows[0][0] | int) > 0) }}
{% endmacro %}

{#
  INSERTs of lineage_run_inputs rows that fill input_invocation_id as they insert (no
  MERGE on Spark tables): the batch's JSON rows become the CTE `edge`, joined to the runs
  that built each input (_latest_builds_sql, the rule every adapter uses). The node runs of
  this invocation are written before, so inputs rebuilt earlier in it are found.
#}
{% macro _spark_inputs_statements(relations, rows, invocation_started_at, dialect, config) %}
  {% set columns = dbt_lineage._run_inputs_columns() %}
  {% set names = columns | map(attribute=0) | join(', ') %}
  {% set insert = 'insert into ' ~ relations.lineage_run_inputs ~ ' (' ~ names ~ ')\n' %}
  {% set builds = dbt_lineage._latest_builds_sql('edge', relations.lineage_node_runs, invocation_id,
                                                  invocation_started_at, dialect, relations.lineage_invocations) %}
  {% set resolve = ')\n' ~ insert ~ 'select edge.invocation_id, edge.unique_id, edge.input_unique_id, '
      ~ 'edge.input_relation_name, latest.build_invocation_id\nfrom edge\nleft join (' ~ builds ~ ') as latest\n'
      ~ '  on latest.unique_id = edge.unique_id and latest.input_unique_id = edge.input_unique_id'
      ~ ' and latest.recency = 1' %}
  {% set named = {} %}
  {% do named.update(dialect) %}
  {% do named.update({'json_get': "r['{key}'] as {key}"}) %}
  {% set statements = [] %}
  {% for sql in dbt_lineage._insert_statements(relations.lineage_run_inputs, columns, rows, named,
                                                config.max_statement_bytes - dbt_lineage._byte_length(resolve) - 16,
                                                config.max_rows_per_insert) %}
    {% do statements.append('with edge as (\n' ~ sql[insert | length:] ~ resolve) %}
  {% endfor %}
  {{ return(statements) }}
{% endmacro %}

{#
  The statement inside a Spark SQL script whose exit handlers return the cause as the
  script's result ('' when the statement succeeded). Spark's scripts cannot read an
  error's message, so the cause is named from its SQLSTATE; the statement itself is in
  dbt's debug log.
#}
{% macro _spark_guarded_sql(sql) %}
  {% set causes = [
    ['42P01', 'a table or view it writes does not exist (SQLSTATE 42P01)'],
    ['42704', 'the schema does not exist (SQLSTATE 42704)'],
    ['42501', 'permission denied (SQLSTATE 42501)'],
    ['42809', 'a lineage table is not a table (SQLSTATE 42809: a view, or another kind of object)'],
    ['0A000', 'the table does not support the operation (SQLSTATE 0A000)'],
  ] %}
  {% set handlers = [] %}
  {% for cause in causes %}
    {% do handlers.append("  declare exit handler for sqlstate '" ~ cause[0] ~ "' select '" ~ cause[1] ~ "' as error;\n") %}
  {% endfor %}
  {{ return('begin\n' ~ handlers | join('')
      ~ "  declare exit handler for sqlexception select 'Spark raised an error (see the statement in logs/dbt.log)' as error;\n  "
      ~ sql ~ ";\n  select '' as error;\nend") }}
{% endmacro %}

{#
  purge_history on tables that cannot DELETE: each table is rewritten without the old
  invocations' rows, through a copy (Spark cannot overwrite a table it reads), children
  first and lineage_invocations last, since `old` reads it. The copy is named after this
  invocation and dropped at the end; if the process dies in between, it stays behind and
  still holds the rows that were kept.
#}
{% macro _spark_purge_sql(relations, old) %}
  {% set statements = [] %}
  {% for table in ['lineage_run_inputs', 'lineage_node_runs', 'lineage_invocations'] %}
    {% set relation = relations[table] %}
    {% set keep = relation ~ '__keep_' ~ invocation_id | replace('-', '_') %}
    {% set where = 'invocation_id not in (' ~ old ~ ')' %}
    {% do statements.append('create table ' ~ keep ~ ' using parquet as select * from ' ~ relation ~ ' where ' ~ where) %}
    {% do statements.append('insert overwrite table ' ~ relation ~ ' select * from ' ~ keep) %}
    {% do statements.append('drop table ' ~ keep) %}
  {% endfor %}
  {{ return(statements) }}
{% endmacro %}
