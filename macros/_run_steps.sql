{#-
  Private: run the hook's statements so that a failure comes back as a message instead of
  aborting the user's run, where the warehouse lets SQL catch its own errors
  (docs/decisions/0002-hook-failure-handling.md). Each step is {'table': ..., 'sql': ...},
  with 'raw': true for a statement sent as is (the transaction's begin).
  Returns none on success, or {'table': ..., 'cause': ...} for the first step that failed;
  the steps after it are not run.
-#}
{% macro _run_steps(steps, dialect) %}
  {% if dialect.guard == 'duckdb_readonly_check' %}
    {% set readonly = dbt_lineage._execute("select readonly from duckdb_databases() where database_name = current_database()", fetch=true) %}
    {% if readonly.rows and readonly.rows[0][0] %}
      {{ return({'table': steps[0].table if steps else '', 'cause': 'the DuckDB database is attached read-only'}) }}
    {% endif %}
  {% endif %}
  {% for step in steps %}
    {% if step.raw %}
      {% do dbt_lineage._execute(step.sql) %}
    {% endif %}
    {% set error = none if step.raw else dbt_lineage._run_guarded(step.sql, dialect) %}
    {% if error %}
      {{ return({'table': step.table, 'cause': error}) }}
    {% endif %}
  {% endfor %}
  {{ return(none) }}
{% endmacro %}

{# One statement wrapped in the dialect's error handler; returns the error text or none. #}
{% macro _run_guarded(sql, dialect) %}
  {% set wrapped = dbt_lineage._guarded_sql(sql, dialect) %}
  {% if wrapped == sql %}
    {% do dbt_lineage._execute(sql, fetch=false) %}
    {{ return(none) }}
  {% endif %}
  {% set table = dbt_lineage._execute(wrapped, fetch=true) %}
  {% set error = table.rows[0][0] if table and table.rows else none %}
  {{ return(error or none) }}
{% endmacro %}

{#
  Run one statement inside dbt's transaction for the connection (auto_begin), unlike
  run_query, so that record_run can commit all its writes at once where the adapter
  has transactions.
#}
{% macro _execute(sql, fetch=false) %}
  {% call statement('dbt_lineage', fetch_result=fetch, auto_begin=true) %}{{ sql }}{% endcall %}
  {{ return(load_result('dbt_lineage').table if fetch else none) }}
{% endmacro %}

{#
  The statement as the guard runs it. postgres: a DO block whose handler keeps SQLERRM in a
  session setting, read back by the same round trip (the block rolls back to its own
  savepoint, so the surrounding transaction stays usable). snowflake: an anonymous
  Snowflake Scripting block returning SQLERRM. bigquery: a script with an EXCEPTION clause
  selecting @@error.message. Others: the statement itself (a failure raises).
#}
{% macro _guarded_sql(sql, dialect) %}
  {% if dialect.guard == 'plpgsql_do' %}
    {# a dollar-quote tag that does not occur in the statement; at most one candidate per
       occurrence of the prefix is taken, so the search is bounded and usually one scan #}
    {% set tag = {'value': '$dbt_lineage$'} %}
    {% set clashes = sql.count('$dbt_lineage') %}
    {% for i in range(clashes) if tag.value in sql %}
      {% do tag.update({'value': '$dbt_lineage_' ~ i ~ '$'}) %}
    {% endfor %}
    {{ return('do ' ~ tag.value ~ '\nbegin\n  perform set_config(\'dbt_lineage.error\', \'\', false);\n  '
      ~ sql ~ ';\nexception when others then\n  perform set_config(\'dbt_lineage.error\', sqlerrm, false);\nend\n'
      ~ tag.value ~ ';\nselect current_setting(\'dbt_lineage.error\', true) as error') }}
  {% elif dialect.guard == 'snowflake_block' %}
    {% set block = 'begin\n  ' ~ sql ~ ';\n  return \'\';\nexception\n  when other then\n    return sqlerrm;\nend;' %}
    {{ return('execute immediate ' ~ dbt_lineage._quote(block, dialect)) }}
  {% elif dialect.guard == 'spark_script' %}
    {{ return(dbt_lineage._spark_guarded_sql(sql)) }}
  {% elif dialect.guard == 'bigquery_script' %}
    {{ return('begin\n  ' ~ sql ~ ';\n  select \'\' as error;\nexception when error then\n  select @@error.message as error;\nend') }}
  {% else %}
    {{ return(sql) }}
  {% endif %}
{% endmacro %}
