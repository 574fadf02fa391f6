{#-
  Private SQL builders shared by every adapter. They take a `dialect` dict
  (lineage_dialect) and never read the current adapter themselves, so a test can render
  Snowflake or BigQuery SQL from a DuckDB session by passing snowflake__lineage_dialect().
-#}

{#
  "(v1, v2, ...)" for each row dict, values in column order. Written inline (no macro call
  per value) because it runs for every value the hook writes: a dbt macro call costs about
  60 us, which for 1,000 results would alone exceed the hook's time budget.
  `raw` (Snowflake's select-from-values) leaves the casts to the select list.
#}
{% macro _rows_sql(rows, columns, dialect, raw=none) %}
  {% set raw = (dialect.insert_style == 'select_values') if raw is none else raw %}
  {% set e = (dialect.escapes + [['', ''], ['', ''], ['', ''], ['', '']])[:4] %}
  {% set casts = [] %}
  {% for col in columns %}
    {% do casts.append(none if raw or col[1] in ('id', 'text') else dialect.cast[col[1]]) %}
  {% endfor %}
  {% set out = [] %}
  {% for row in rows %}
    {% set parts = [] %}
    {% for col in columns %}
      {% set value = row.get(col[0]) %}
      {% set kind = col[1] %}
      {% if value is none %}
        {% do parts.append('null') %}
      {% elif kind == 'boolean' %}
        {% do parts.append('true' if value else 'false') %}
      {% elif kind == 'bigint' %}
        {% do parts.append(value | int | string) %}
      {% elif kind == 'double' %}
        {% do parts.append(value | float | string) %}
      {% else %}
        {% set text = ((value if value is string else tojson(value)) if kind == 'json' else value) | string %}
        {% set quoted = "'" ~ text.replace(e[0][0], e[0][1]).replace(e[1][0], e[1][1]).replace(e[2][0], e[2][1]).replace(e[3][0], e[3][1]) ~ "'" %}
        {% do parts.append(quoted if casts[loop.index0] is none else casts[loop.index0].replace('{}', quoted)) %}
      {% endif %}
    {% endfor %}
    {% do out.append('(' ~ parts | join(', ') ~ ')') %}
  {% endfor %}
  {{ return(out) }}
{% endmacro %}

{# One value as SQL, cast to its type. #}
{% macro _literal(value, kind, dialect) %}
  {{ return(dbt_lineage._rows_sql([{'v': value}], [['v', kind]], dialect, false)[0][1:-1]) }}
{% endmacro %}

{# The quoted string literal for `value` in `dialect`. #}
{% macro _quote(value, dialect) %}
  {{ return(dbt_lineage._literal(value, 'id', dialect)) }}
{% endmacro %}

{# The UTF-8 size of a statement: the limits we keep under are in bytes. #}
{% macro _byte_length(text) %}
  {{ return(text.encode('utf-8') | length) }}
{% endmacro %}

{#
  The INSERT statements writing `rows` (dicts) into `relation`, each at most
  `max_bytes` long (UTF-8) and holding at most `max_rows` rows. A single row longer than
  the limit on its own (it cannot be split) gets a statement of its own.
#}
{% macro _insert_statements(relation, columns, rows, dialect, max_bytes, max_rows) %}
  {% set names = columns | map(attribute=0) | join(', ') %}
  {% if dialect.insert_style == 'select_values' %}
    {% set exprs = [] %}
    {% for col in columns %}
      {% do exprs.append(dialect.cast[col[1]] | replace('{}', 'column' ~ loop.index)) %}
    {% endfor %}
    {% set head = 'insert into ' ~ relation ~ ' (' ~ names ~ ')\nselect ' ~ exprs | join(', ') ~ '\nfrom values\n' %}
  {% else %}
    {% set head = 'insert into ' ~ relation ~ ' (' ~ names ~ ')\nvalues\n' %}
  {% endif %}
  {# room for the guard around each statement; Snowflake's guard re-quotes the statement,
     doubling each quote and backslash #}
  {% set requoted = dialect.guard == 'snowflake_block' %}
  {% set head_bytes = dbt_lineage._byte_length(head) + 256 + (head.count("'") if requoted else 0) %}
  {% set statements = [] %}
  {% set batch = {'rows': [], 'bytes': head_bytes} %}
  {% for row_sql in dbt_lineage._rows_sql(rows, columns, dialect) %}
    {% set row_bytes = (row_sql.encode('utf-8') | length) + 2
         + ((row_sql.count("'") + row_sql.count("\\")) if requoted else 0) %}
    {% if batch.rows and (batch.bytes + row_bytes > max_bytes or batch.rows | length >= max_rows) %}
      {% do statements.append(head ~ batch.rows | join(',\n')) %}
      {% do batch.update({'rows': [], 'bytes': head_bytes}) %}
    {% endif %}
    {% do batch.rows.append(row_sql) %}
    {% do batch.update({'bytes': batch.bytes + row_bytes}) %}
  {% endfor %}
  {% if batch.rows %}
    {% do statements.append(head ~ batch.rows | join(',\n')) %}
  {% endif %}
  {{ return(statements) }}
{% endmacro %}

{% macro _create_schema_sql(database, schema, dialect) %}
  {% if dialect.name in ('postgres', 'redshift', 'spark', 'databricks') %}
    {{ return('create schema if not exists ' ~ schema) }}
  {% elif dialect.name == 'bigquery' %}
    {{ return('create schema if not exists `' ~ database ~ '`.`' ~ schema ~ '`') }}
  {% else %}
    {{ return('create schema if not exists ' ~ database ~ '.' ~ schema) }}
  {% endif %}
{% endmacro %}

{% macro _create_table_sql(relation, columns, dialect) %}
  {% set defs = [] %}
  {% for col in columns %}
    {% do defs.append(col[0] ~ ' ' ~ dialect.types[col[1]]) %}
  {% endfor %}
  {{ return('create table if not exists ' ~ relation ~ ' (\n  ' ~ defs | join(',\n  ') ~ '\n)') }}
{% endmacro %}

{% macro _add_column_sql(relation, column, dialect) %}
  {% if dialect.name in ('spark', 'databricks') %}
    {{ return('alter table ' ~ relation ~ ' add columns (' ~ column[0] ~ ' ' ~ dialect.types[column[1]] ~ ')') }}
  {% else %}
    {{ return('alter table ' ~ relation ~ ' add column ' ~ column[0] ~ ' ' ~ dialect.types[column[1]]) }}
  {% endif %}
{% endmacro %}

{% macro _delete_invocation_sql(relation, invocation_id, dialect) %}
  {{ return('delete from ' ~ relation ~ ' where invocation_id = ' ~ dbt_lineage._quote(invocation_id, dialect)) }}
{% endmacro %}

{#
  Fill lineage_run_inputs.input_invocation_id for one invocation: for each edge, the
  latest invocation (this one included) whose node run of the input succeeded and
  completed before the consuming node run started. A consumer that never started (skipped)
  is placed at the invocation's start. Sources and never-recorded inputs stay null.
#}
{% macro _resolve_inputs_sql(inputs_relation, node_runs_relation, invocation_id, invocation_started_at, dialect) %}
  {% set inv = dbt_lineage._quote(invocation_id, dialect) %}
  {% set fallback = dbt_lineage._literal(invocation_started_at, 'timestamp', dialect) %}
  {% set builds %}
    select edge.unique_id, edge.input_unique_id, build.invocation_id as build_invocation_id,
           row_number() over (
             partition by edge.unique_id, edge.input_unique_id
             order by build.execute_completed_at desc, build.invocation_id desc
           ) as recency
    from {{ inputs_relation }} as edge
    join {{ node_runs_relation }} as consumer
      on consumer.invocation_id = edge.invocation_id and consumer.unique_id = edge.unique_id
    join {{ node_runs_relation }} as build
      on build.unique_id = edge.input_unique_id
     and build.status = 'success'
     and build.execute_completed_at <= coalesce(consumer.execute_started_at, consumer.compile_started_at, {{ fallback }})
    where edge.invocation_id = {{ inv }}
  {% endset %}
  {% if dialect.update_style == 'merge' %}
    {{ return('merge into ' ~ inputs_relation ~ ' as target\nusing (' ~ builds ~ ') as latest\n'
      ~ 'on target.invocation_id = ' ~ inv ~ ' and target.unique_id = latest.unique_id'
      ~ ' and target.input_unique_id = latest.input_unique_id and latest.recency = 1\n'
      ~ 'when matched then update set input_invocation_id = latest.build_invocation_id') }}
  {% else %}
    {{ return('update ' ~ inputs_relation ~ ' as target\nset input_invocation_id = latest.build_invocation_id\n'
      ~ 'from (' ~ builds ~ ') as latest\n'
      ~ 'where target.invocation_id = ' ~ inv ~ ' and target.unique_id = latest.unique_id'
      ~ ' and target.input_unique_id = latest.input_unique_id and latest.recency = 1') }}
  {% endif %}
{% endmacro %}
