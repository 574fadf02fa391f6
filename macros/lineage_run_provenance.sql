{#-
  lineage_run_provenance(relation_or_unique_id, invocation_id=none): the recursive SQL
  that answers "which run built this relation, and from which runs of its inputs", back to
  sources. The node is named by unique id (model.shop.orders) or relation (shop.orders,
  "db"."shop"."orders"). Starts from the latest successful run of the node (or, given invocation_id, e.g.
  a row's stamp, the run of that invocation) and follows lineage_run_inputs through
  input_invocation_id. Returns the query and logs it, so that

      dbt run-operation dbt_lineage.lineage_run_provenance --args '{relation_or_unique_id: model.shop.orders}'

  prints a query to paste into any SQL client. One row per (node run, input); depth 0 is
  the run asked about. With include_archive=true the query reads the live tables and the
  archive tables of `archive_schema` (default: the var dbt_lineage_archive_schema)
  together, union all (archive_history.sql; docs/run-history.md).
-#}
{% macro lineage_run_provenance(relation_or_unique_id, invocation_id=none, include_archive=false, archive_schema=none) %}
  {% set sql = adapter.dispatch('lineage_run_provenance', 'dbt_lineage')(relation_or_unique_id, invocation_id, include_archive, archive_schema) %}
  {% do log(sql, info=true) %}
  {{ return(sql) }}
{% endmacro %}

{% macro default__lineage_run_provenance(relation_or_unique_id, invocation_id=none, include_archive=false, archive_schema=none) %}
  {% set config = dbt_lineage.lineage_config() %}
  {% set relations = dbt_lineage._lineage_relations(config) %}
  {% set marked = 'recorded_complete' in (adapter.get_columns_in_relation(relations.lineage_invocations)
                                          | map(attribute='name') | map('lower') | list) %}
  {% set archived = none %}
  {% if include_archive in [true, 'true', 'True'] %}
    {% set archive = dbt_lineage._archive_config('dbt_lineage.lineage_run_provenance', config, archive_schema, none, none, 'archive_schema', 'no query') %}
    {% set archive_config = {} %}
    {% do archive_config.update(config) %}
    {% do archive_config.update({'schema': archive.schema, 'database': archive.database}) %}
    {% set archived = dbt_lineage._lineage_relations(archive_config) %}
    {% if not adapter.get_columns_in_relation(archived.lineage_node_runs) %}
      {{ exceptions.raise_compiler_error("dbt_lineage.lineage_run_provenance: no archive tables in " ~ archived.lineage_node_runs.include(identifier=false) ~ ": run dbt_lineage.archive_history first, or name its schema in archive_schema") }}
    {% endif %}
  {% endif %}
  {{ return(dbt_lineage._provenance_sql(relation_or_unique_id, invocation_id, dbt_lineage.lineage_dialect(), relations, marked, archived)) }}
{% endmacro %}


{#
  The query itself. `relations` maps the three table names to rendered relations.
  BigQuery takes no column list on a recursive CTE; the others are given one (Redshift
  requires it). A relation name matches the end of the full name by equality on right()
  (no LIKE, whose _ and % would match other names). The start is the latest run, NULL
  completion times last and the invocation id breaking ties, as `dbt-lineage trace` picks
  it; `marked` (lineage_invocations has recorded_complete) skips invocations whose hook
  was interrupted. Given `archived` (the archive's relations), each table is read as a CTE
  of its live and archived rows (union all) of the columns the query uses.
#}
{% macro _provenance_sql(relation_or_unique_id, invocation_id, dialect, relations, marked=true, archived=none) %}
  {% set unions = [] %}
  {% if archived %}
    {% set used = {
      'lineage_invocations': ['invocation_id', 'command', 'git_sha'] + (['recorded_complete'] if marked else []),
      'lineage_node_runs': ['invocation_id', 'unique_id', 'relation_name', 'status', 'execute_completed_at'],
      'lineage_run_inputs': ['invocation_id', 'unique_id', 'input_unique_id', 'input_relation_name', 'input_invocation_id'],
    } %}
    {% set combined = {} %}
    {% for table, columns in used.items() %}
      {% do unions.append(table ~ '_with_archive as (select ' ~ columns | join(', ') ~ ' from ' ~ relations[table]
          ~ ' union all select ' ~ columns | join(', ') ~ ' from ' ~ archived[table] ~ ')') %}
      {% do combined.update({table: table ~ '_with_archive'}) %}
    {% endfor %}
    {% set relations = combined %}
  {% endif %}
  {% set name = relation_or_unique_id | string | lower | replace('"', '') | replace('`', '') %}
  {% set wanted = dbt_lineage._quote(name, dialect) %}
  {% set wanted_suffix = dbt_lineage._quote('.' ~ name, dialect) %}
  {% set columns = '' if dialect.name == 'bigquery' else ' (depth, unique_id, invocation_id)' %}
  {% set sql %}
with recursive {% for union in unions %}{{ union }},
{% endfor %}start_run as (
    select unique_id, invocation_id
    from {{ relations.lineage_node_runs }}
    where (lower(unique_id) = {{ wanted }}
           or lower(replace(replace(relation_name, '"', ''), '`', '')) = {{ wanted }}
           or right(lower(replace(replace(relation_name, '"', ''), '`', '')), {{ ('.' ~ name) | length }}) = {{ wanted_suffix }})
      {% if invocation_id -%}
      and invocation_id = {{ dbt_lineage._quote(invocation_id, dialect) }}
      {%- else -%}
      and status = 'success'
      {%- endif %}
      and invocation_id in (select invocation_id from {{ relations.lineage_invocations }}
                            {%- if marked %} where recorded_complete is null or recorded_complete = true{% endif %})
    order by case when execute_completed_at is null then 1 else 0 end, execute_completed_at desc, invocation_id desc
    limit 1
),
provenance{{ columns }} as (
    select 0 as depth, unique_id, invocation_id from start_run
    union all
    select parent.depth + 1, edge.input_unique_id, edge.input_invocation_id
    from provenance as parent
    join {{ relations.lineage_run_inputs }} as edge
      on edge.invocation_id = parent.invocation_id and edge.unique_id = parent.unique_id
    where edge.input_invocation_id is not null and parent.depth < 100
)
select distinct
    provenance.depth,
    provenance.unique_id,
    node_run.relation_name,
    provenance.invocation_id,
    node_run.status,
    node_run.execute_completed_at,
    invocation.command,
    invocation.git_sha,
    edge.input_unique_id,
    edge.input_relation_name,
    edge.input_invocation_id
from provenance
left join {{ relations.lineage_node_runs }} as node_run
  on node_run.invocation_id = provenance.invocation_id and node_run.unique_id = provenance.unique_id
left join {{ relations.lineage_invocations }} as invocation
  on invocation.invocation_id = provenance.invocation_id
left join {{ relations.lineage_run_inputs }} as edge
  on edge.invocation_id = provenance.invocation_id and edge.unique_id = provenance.unique_id
order by provenance.depth, provenance.unique_id, edge.input_unique_id
  {%- endset %}
  {{ return(sql | trim) }}
{% endmacro %}
