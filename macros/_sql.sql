{#-
  Private SQL builders shared by every adapter. They take a `dialect` dict
  (lineage_dialect) and never read the current adapter themselves, so a test can render
  Snowflake or BigQuery SQL from a DuckDB session by passing snowflake__lineage_dialect().
-#}

{#
  "(v1, v2, ...)" for each row dict, values in column order. Written inline (no macro call
  per value) because it runs for every value the hook writes: a dbt macro call costs about
  60 us, which for 1,000 results would alone exceed the hook's time budget.
  `raw` leaves out the casts.
#}
{% macro _rows_sql(rows, columns, dialect, raw=false) %}
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
  The INSERT statements writing `rows` (dicts) into `relation`, each at most `max_bytes`
  long (UTF-8, as sent: the guard around it included) and holding at most `max_rows` rows.
  A row too long for the limit on its own has its long values cut to fit (_cut_row), so no
  statement is ever over the limit.

  json style: each row is serialised by tojson (Python, ASCII-only) and the batch goes in as
  one string literal, escaped once. The size of a row in the statement is its JSON length
  plus what escaping adds to its quotes and backslashes, which we can count exactly.
#}
{% macro _insert_statements(relation, columns, rows, dialect, max_bytes, max_rows) %}
  {% set names = columns | map(attribute=0) | join(', ') %}
  {% set requoted = dialect.guard == 'snowflake_block' %}
  {% set quote_growth = (dbt_lineage._escape("'", dialect.escapes) | length) - 1 %}
  {% set backslash_growth = (dbt_lineage._escape("\\", dialect.escapes) | length) - 1 %}
  {% if requoted %}
    {% set quote_growth = (quote_growth + 1) * (quote_growth + 1) - 1 %}
    {% set backslash_growth = (backslash_growth + 1) * (backslash_growth + 1) - 1 %}
  {% endif %}
  {% if dialect.insert_style == 'json' %}
    {% set exprs = [] %}
    {% for col in columns %}
      {% set get = dialect.json_get.replace('{key}', col[0]) %}
      {% do exprs.append(get if col[1] in ('id', 'text') else dialect.cast[col[1]].replace('{}', get)) %}
    {% endfor %}
    {% set parts = dialect.json_from.split('{}') %}
    {% set head = 'insert into ' ~ relation ~ ' (' ~ names ~ ')\nselect ' ~ exprs | join(', ') ~ '\nfrom ' ~ parts[0] ~ "'[" %}
    {% set tail = "]'" ~ parts[1] %}
    {% set encoded = [] %}
    {% for row in rows %}{% do encoded.append(tojson(row)) %}{% endfor %}
    {# no newline between rows: BigQuery would have to escape it inside the literal #}
    {% set separator = ',' %}
  {% else %}
    {% set head = 'insert into ' ~ relation ~ ' (' ~ names ~ ')\nvalues\n' %}
    {% set tail = '' %}
    {% set encoded = dbt_lineage._rows_sql(rows, columns, dialect) %}
    {% set separator = ',\n' %}
  {% endif %}
  {% set fixed = (head ~ tail).encode('utf-8') | length %}
  {% set fixed = fixed + 256 + ((head ~ tail).count("'") * quote_growth) %}
  {% set statements = [] %}
  {% set batch = {'rows': [], 'bytes': fixed} %}
  {% set growth = {'json': dialect.insert_style == 'json', 'requoted': requoted,
                    'quote': quote_growth, 'backslash': backslash_growth} %}
  {% for encoded_text in encoded %}
    {% set text = encoded_text %}
    {% set size = (text.encode('utf-8') | length) + 2 %}
    {% if dialect.insert_style == 'json' or requoted %}
      {% set size = size + text.count("'") * quote_growth + text.count("\\") * backslash_growth %}
    {% endif %}
    {% if fixed + size > max_bytes %}
      {% set fitted = dbt_lineage._cut_row(rows[loop.index0], columns, dialect, max_bytes - fixed, growth) %}
      {% set text = fitted.text %}
      {% set size = fitted.size %}
    {% endif %}
    {% if batch.rows and (batch.bytes + size > max_bytes or batch.rows | length >= max_rows) %}
      {% do statements.append(dbt_lineage._insert_sql(head, tail, batch.rows, separator, dialect)) %}
      {% do batch.update({'rows': [], 'bytes': fixed}) %}
    {% endif %}
    {% do batch.rows.append(text) %}
    {% do batch.update({'bytes': batch.bytes + size}) %}
  {% endfor %}
  {% if batch.rows %}
    {% do statements.append(dbt_lineage._insert_sql(head, tail, batch.rows, separator, dialect)) %}
  {% endif %}
  {{ return(statements) }}
{% endmacro %}

{#
  A row whose statement would exceed the size limit, with its long values cut until it
  fits in `budget` bytes: message and selected keep their start and end with
  " [cut by dbt_lineage: N characters]", and a JSON value (args, adapter_response) becomes
  {"dbt_lineage_cut": "<the start of its JSON text>", "length": N}. Logged. Returns
  {'text': the row as encoded in the statement, 'size': its bytes there}.
#}
{% macro _cut_row(row, columns, dialect, budget, growth) %}
  {% set kinds = {} %}
  {% for col in columns %}{% do kinds.update({col[0]: col[1]}) %}{% endfor %}
  {% set cuttable = [] %}
  {% for name in ['message', 'args', 'adapter_response', 'selected'] if row.get(name) is string %}
    {% do cuttable.append(name) %}
  {% endfor %}
  {% set keep = {} %}
  {% for name in cuttable %}{% do keep.update({name: row[name] | length}) %}{% endfor %}
  {% set cut = {} %}
  {% do cut.update(row) %}
  {% set changed = [] %}
  {% for attempt in range(40) %}
    {% set text = tojson(cut) if growth.json else dbt_lineage._rows_sql([cut], columns, dialect)[0] %}
    {% set size = (text.encode('utf-8') | length) + 2 %}
    {% if growth.json or growth.requoted %}
      {% set size = size + text.count("'") * growth.quote + text.count("\\") * growth.backslash %}
    {% endif %}
    {% set open = [] %}
    {% for name in cuttable if keep[name] > 0 %}{% do open.append([keep[name], name]) %}{% endfor %}
    {% if size <= budget or not open %}
      {% do log('dbt_lineage: ' ~ (row.get('unique_id') or 'invocation ' ~ row.get('invocation_id'))
          ~ ': cut ' ~ (changed | unique | join(', ')) ~ ' to fit dbt_lineage_max_statement_bytes ('
          ~ size ~ ' bytes of ' ~ budget ~ ' available)', info=true) %}
      {{ return({'text': text, 'size': size}) }}
    {% endif %}
    {% set name = (open | sort | last)[1] %}
    {% set original = row[name] %}
    {% do keep.update({name: ((keep[name] * 0.9 * budget / size) | int) if keep[name] > 64 else 0}) %}
    {% do changed.append(name) %}
    {% set n = keep[name] %}
    {% if kinds[name] == 'json' %}
      {% do cut.update({name: tojson({'dbt_lineage_cut': original[:n], 'length': original | length})}) %}
    {% else %}
      {% do cut.update({name: original[:n // 2] ~ ' [cut by dbt_lineage: ' ~ original | length ~ ' characters] '
                               ~ (original[(original | length) - (n - n // 2):] if n else '')}) %}
    {% endif %}
  {% endfor %}
{% endmacro %}

{# One statement: json style escapes the batch's JSON text once, as one string literal. #}
{% macro _insert_sql(head, tail, rows, separator, dialect) %}
  {% set body = rows | join(separator) %}
  {% if dialect.insert_style == 'json' %}
    {% set body = dbt_lineage._escape(body, dialect.escapes) %}
  {% endif %}
  {{ return(head ~ body ~ tail) }}
{% endmacro %}

{#
  CREATE SCHEMA for the lineage schema, quoted as the tables are: `rendered` is the schema
  as the adapter renders a relation (its quoting policy), given by the hook; without it
  (rendering tests) each dialect's default quoting is used.
#}
{% macro _create_schema_sql(database, schema, dialect, rendered=none) %}
  {% if rendered %}
    {{ return('create schema if not exists ' ~ rendered) }}
  {% elif dialect.name in ('postgres', 'redshift') %}
    {{ return('create schema if not exists "' ~ schema ~ '"') }}
  {% elif dialect.name in ('spark', 'databricks') %}
    {{ return('create schema if not exists `' ~ schema ~ '`') }}
  {% elif dialect.name == 'bigquery' %}
    {{ return('create schema if not exists `' ~ database ~ '`.`' ~ schema ~ '`') }}
  {% elif dialect.name == 'duckdb' %}
    {{ return('create schema if not exists "' ~ database ~ '"."' ~ schema ~ '"') }}
  {% else %}
    {# Snowflake: dbt-snowflake quotes nothing by default #}
    {{ return('create schema if not exists ' ~ database ~ '.' ~ schema) }}
  {% endif %}
{% endmacro %}

{% macro _create_table_sql(relation, columns, dialect) %}
  {% set defs = [] %}
  {% for col in columns %}
    {% do defs.append(col[0] ~ ' ' ~ dialect.types[col[1]]) %}
  {% endfor %}
  {{ return('create table if not exists ' ~ relation ~ ' (\n  ' ~ defs | join(',\n  ') ~ '\n)'
      ~ dialect.get('table_options', '')) }}
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
{% macro _resolve_inputs_sql(inputs_relation, node_runs_relation, invocation_id, invocation_started_at, dialect, invocations_relation=none) %}
  {% set inv = dbt_lineage._quote(invocation_id, dialect) %}
  {% set builds = dbt_lineage._latest_builds_sql(inputs_relation, node_runs_relation, invocation_id, invocation_started_at, dialect, invocations_relation) %}
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

{#
  For each edge of one invocation (rows of `inputs_relation`, a table or a CTE), every
  successful run of its input that completed before the consuming node run started, ranked:
  recency = 1 is the run that built what the consumer read. Given `invocations_relation`,
  only runs of this invocation or of completely recorded ones count (recorded_complete:
  null in rows written before the column existed).
#}
{% macro _latest_builds_sql(inputs_relation, node_runs_relation, invocation_id, invocation_started_at, dialect, invocations_relation=none) %}
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
    {%- if invocations_relation %}
    left join {{ invocations_relation }} as build_invocation
      on build_invocation.invocation_id = build.invocation_id
    {%- endif %}
    where edge.invocation_id = {{ inv }}
    {%- if invocations_relation %}
      and (build.invocation_id = {{ inv }} or (build_invocation.invocation_id is not null
           and (build_invocation.recorded_complete is null or build_invocation.recorded_complete)))
    {%- endif %}
  {% endset %}
  {{ return(builds) }}
{% endmacro %}
