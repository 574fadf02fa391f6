{#- Private: the archive tier's checks and statements (archive_history, purge_history). -#}

{#
  `days` checked as purge_history and archive_history take it: none (nothing to do: logs
  it and returns none) or a whole number >= `minimum` written as an integer; returns it as
  an int, or fails with a message naming `example`.
#}
{% macro _history_days(name, days, minimum, example, nothing) %}
  {% if days is none %}
    {% do log(name ~ ': no days given, ' ~ nothing ~ ' (pass --args "' ~ example ~ '")', info=true) %}
    {{ return(none) }}
  {% endif %}
  {% set whole = (days is integer and days is not boolean and days >= minimum)
                 or (days is string and modules.re.match('^[0-9]+$', days) is not none and days | int >= minimum) %}
  {% if not whole %}
    {{ exceptions.raise_compiler_error(name ~ ": days must be a whole number >= " ~ minimum ~ " written as an integer (e.g. " ~ example ~ "), got " ~ tojson(days) ~ "; " ~ nothing) }}
  {% endif %}
  {{ return(days | int) }}
{% endmacro %}

{# The archive's place: {'schema', 'database', 'parquet'}, checked; `argument` is the
   caller's name for the schema, `nothing` what a refusal leaves undone. #}
{% macro _archive_config(name, config, to, database, to_parquet, argument, nothing) %}
  {% set schema = to if to is not none else var('dbt_lineage_archive_schema', none) %}
  {% if schema is none or schema is not string or schema | trim == '' %}
    {{ exceptions.raise_compiler_error(name ~ ": no archive schema: pass " ~ argument ~ ": SCHEMA in --args or set the var dbt_lineage_archive_schema; " ~ nothing) }}
  {% endif %}
  {% set database = database if database is not none else config.database %}
  {% if schema | lower == config.schema | lower and (database or '') | lower == (config.database or '') | lower %}
    {{ exceptions.raise_compiler_error(name ~ ": the archive schema " ~ schema ~ " is the lineage schema itself; name another schema in " ~ argument ~ "; " ~ nothing) }}
  {% endif %}
  {% if to_parquet is not none and adapter.type() != 'duckdb' %}
    {{ exceptions.raise_compiler_error(name ~ ": to_parquet is for DuckDB only (this target is " ~ adapter.type() ~ "); leave it out to archive into tables only; " ~ nothing) }}
  {% endif %}
  {{ return({'schema': schema, 'database': database, 'parquet': to_parquet}) }}
{% endmacro %}

{#
  Move the old invocations' rows into the archive, one table at a time, each in its own
  transaction where the warehouse has them; logs the rows moved per table.
#}
{% macro _move_history(name, config, archive, days) %}
  {% set dialect = dbt_lineage.lineage_dialect() %}
  {% set live = dbt_lineage._lineage_relations(config) %}
  {% if not adapter.get_columns_in_relation(live.lineage_invocations) %}
    {% do log(name ~ ': ' ~ live.lineage_invocations ~ ' does not exist, nothing to archive', info=true) %}
    {{ return(none) }}
  {% endif %}
  {% set archive_config = {} %}
  {% do archive_config.update(config) %}
  {% do archive_config.update({'schema': archive.schema, 'database': archive.database}) %}
  {% for step in dbt_lineage._schema_steps(archive_config, dialect) %}
    {% do dbt_lineage._execute(step.sql) %}
  {% endfor %}
  {% if dialect.transaction and not dialect.begin %}{% do adapter.commit() %}{% endif %}
  {% set stored = dbt_lineage._lineage_relations(archive_config) %}
  {% set now = modules.datetime.datetime.utcnow() %}
  {% set cutoff = now - modules.datetime.timedelta(days=days) %}
  {% set cutoff_text = dbt_lineage._timestamp_text(cutoff) %}
  {% set moved = [] %}
  {% for table in ['lineage_run_inputs', 'lineage_node_runs', 'lineage_invocations'] %}
    {% set existing = adapter.get_columns_in_relation(live[table]) | map(attribute='name') | map('lower') | list %}
    {% set columns = dbt_lineage._lineage_tables()[table] | selectattr(0, 'in', existing) | list %}
    {% set statements = dbt_lineage._archive_sql(table, live, stored, columns, cutoff_text, dialect) %}
    {% if dialect.begin %}{% do dbt_lineage._execute(dialect.begin) %}{% endif %}
    {% set found = dbt_lineage._execute('select count(*) from ' ~ live[table] ~ ' where invocation_id in ('
        ~ dbt_lineage._old_invocations_sql(live, cutoff_text, dialect) ~ ')', fetch=true) %}
    {% if archive.parquet %}
      {% do statements.insert(1, dbt_lineage._parquet_copy_sql(table, live, columns, cutoff_text, archive.parquet, now, dialect)) %}
    {% endif %}
    {% for statement in statements %}
      {% do dbt_lineage._execute(statement) %}
    {% endfor %}
    {% if dialect.begin %}{% do dbt_lineage._execute('commit') %}
    {% elif dialect.transaction %}{% do adapter.commit() %}{% endif %}
    {% do moved.append(table ~ ': ' ~ (found.rows[0][0] | int)) %}
  {% endfor %}
  {% do log(name ~ ': moved invocations started before ' ~ cutoff ~ ' UTC to ' ~ stored.lineage_invocations.include(identifier=false)
      ~ '; rows moved: ' ~ moved | join(', '), info=true) %}
{% endmacro %}

{# The ids of the invocations that started before the cutoff, as a subquery. #}
{% macro _old_invocations_sql(live, cutoff_text, dialect) %}
  {{ return('select invocation_id from ' ~ live.lineage_invocations ~ ' where started_at < '
      ~ dbt_lineage._literal(cutoff_text, 'timestamp', dialect)) }}
{% endmacro %}

{#
  One table's move, as statements: the insert of the old invocations' rows the archive
  does not hold yet (a whole invocation at a time, so a rerun after a kill adds no
  duplicate), then the delete of the live rows of old invocations the archive holds.
  Spark's tables cannot DELETE: the live table is rewritten instead (_spark_purge_sql).
#}
{% macro _archive_sql(table, live, stored, columns, cutoff_text, dialect) %}
  {% set old = dbt_lineage._old_invocations_sql(live, cutoff_text, dialect) %}
  {% set names = columns | map(attribute=0) | join(', ') %}
  {% set insert = 'insert into ' ~ stored[table] ~ ' (' ~ names ~ ')\nselect ' ~ names ~ ' from ' ~ live[table] ~ ' as live\n'
      ~ 'where live.invocation_id in (' ~ old ~ ')\n  and not exists (select 1 from ' ~ stored[table]
      ~ ' as archived where archived.invocation_id = live.invocation_id)' %}
  {% if not dialect.get('row_delete', true) %}
    {% set rewrite = dbt_lineage._spark_purge_sql(live, old) %}
    {% set at = ['lineage_run_inputs', 'lineage_node_runs', 'lineage_invocations'].index(table) * 3 %}
    {{ return([insert] + rewrite[at:at + 3]) }}
  {% endif %}
  {{ return([insert, 'delete from ' ~ live[table] ~ ' where invocation_id in (' ~ old ~ ')\n  and invocation_id in (select invocation_id from ' ~ stored[table] ~ ')']) }}
{% endmacro %}

{# DuckDB: the table's rows about to move, written under DIR/<table>/archived_on=<date>/. #}
{% macro _parquet_copy_sql(table, live, columns, cutoff_text, folder, now, dialect) %}
  {% set names = columns | map(attribute=0) | join(', ') %}
  {% set target = folder.rstrip('/') ~ '/' ~ table %}
  {{ return('copy (select ' ~ names ~ ', ' ~ dbt_lineage._quote(now.strftime('%Y-%m-%d'), dialect) ~ ' as archived_on from '
      ~ live[table] ~ ' where invocation_id in (' ~ dbt_lineage._old_invocations_sql(live, cutoff_text, dialect) ~ '))\nto '
      ~ dbt_lineage._quote(target, dialect) ~ ' (format parquet, partition_by (archived_on), filename_pattern '
      ~ dbt_lineage._quote(now.strftime('%H%M%S_%f') ~ '_{i}', dialect) ~ ', overwrite_or_ignore)') }}
{% endmacro %}
