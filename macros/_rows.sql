{#-
  Private: turn the hook's `results` (RunResult objects, or dicts of the same shape in
  tests) into row dicts for the three tables. Pure Jinja; no SQL here.
-#}

{# A timestamp as 'YYYY-MM-DD HH:MM:SS.ffffff' (UTC, no zone), or none. #}
{% macro _timestamp_text(value) %}
  {% if value is none or value == '' %}
    {{ return(none) }}
  {% elif value is string %}
    {{ return(value | replace('T', ' ') | replace('Z', '') | replace('+00:00', '')) }}
  {% else %}
    {{ return(value.strftime('%Y-%m-%d %H:%M:%S.%f')) }}
  {% endif %}
{% endmacro %}

{# The git commit, branch and pull/merge request of the CI run, from its environment. #}
{% macro _git_context() %}
  {% set sha = env_var('GITHUB_SHA', '') or env_var('CI_COMMIT_SHA', '') %}
  {% set branch = env_var('GITHUB_HEAD_REF', '') or env_var('GITHUB_REF_NAME', '')
       or env_var('CI_MERGE_REQUEST_SOURCE_BRANCH_NAME', '') or env_var('CI_COMMIT_REF_NAME', '') %}
  {% set pr = modules.re.match('^refs/pull/([0-9]+)/', env_var('GITHUB_REF', '')) %}
  {% set pull_request = pr.group(1) if pr else env_var('CI_MERGE_REQUEST_IID', '') %}
  {{ return({'git_sha': sha or none, 'git_branch': branch or none,
             'git_pull_request': pull_request or none}) }}
{% endmacro %}

{# Results that ran a node (on-run-start hooks, resource type operation, are not nodes). #}
{% macro _node_results(results) %}
  {% set kept = [] %}
  {% for result in results or [] %}
    {% if result.node is not none and result.node.resource_type | string != 'operation' %}
      {% do kept.append(result) %}
    {% endif %}
  {% endfor %}
  {{ return(kept) }}
{% endmacro %}

{% macro _invocation_row(results, config) %}
  {% set counts = {'success': 0, 'warn': 0, 'error': 0, 'fail': 0, 'skipped': 0, 'no_op': 0} %}
  {% for result in results %}
    {% set status = result.status | string | lower %}
    {% set key = 'success' if status in ('success', 'pass') else ('error' if status == 'runtime error' else status | replace('-', '_')) %}
    {% if key in counts %}{% do counts.update({key: counts[key] + 1}) %}{% endif %}
  {% endfor %}
  {% set args = invocation_args_dict if invocation_args_dict is defined else {} %}
  {% set selected = args.get('select') %}
  {% set row = {
    'invocation_id': invocation_id,
    'project_name': project_name,
    'command': args.get('which') or (flags.WHICH if flags.WHICH is defined else none),
    'dbt_version': dbt_version,
    'target_name': target.name,
    'target_type': target.type,
    'target_database': target.database,
    'target_schema': target.schema,
    'selected': ((selected | join(' ')) if selected is iterable and selected is not string else selected) or none,
    'args': tojson(args),
    'full_refresh': flags.FULL_REFRESH in [true, 'true', 'True'] or args.get('full_refresh') in [true],
    'started_at': dbt_lineage._timestamp_text(run_started_at),
    'ended_at': dbt_lineage._timestamp_text(modules.datetime.datetime.utcnow()),
    'nodes_total': results | length,
    'nodes_success': counts.success, 'nodes_warn': counts.warn, 'nodes_error': counts.error,
    'nodes_fail': counts.fail, 'nodes_skipped': counts.skipped, 'nodes_no_op': counts.no_op,
    'recorded_at': dbt_lineage._timestamp_text(modules.datetime.datetime.utcnow()),
    'recorded_complete': true,
  } %}
  {% do row.update(dbt_lineage._git_context()) %}
  {{ return(row) }}
{% endmacro %}

{#
  All rows of one invocation's node results: {'node_runs': [...], 'run_inputs': [...]}.
  One pass, written inline on purpose (no macro call per result: see _rows_sql). Timings are
  datetimes from dbt, or ISO strings in tests. run_inputs.input_invocation_id is filled in
  later, in SQL (_resolve_inputs_sql).
#}
{% macro _collect_rows(results, config) %}
  {% set node_runs = [] %}
  {% set run_inputs = [] %}
  {% set has_graph = execute and graph is defined %}
  {% for result in results %}
  {% set node = result.node %}
  {% set row = {
    'invocation_id': invocation_id,
    'unique_id': node.unique_id,
    'resource_type': node.resource_type | string,
    'node_name': node.name if node.name is defined else none,
    'package_name': node.package_name if node.package_name is defined else none,
    'relation_name': node.relation_name if node.relation_name is defined else none,
    'materialization': node.config.materialized if node.config is defined and node.config and node.config.materialized is defined else none,
    'status': result.status | string,
    'rows_affected': none,
    'failures': result.failures if result.failures is defined else none,
    'execution_time': result.execution_time,
    'thread_id': result.thread_id,
    'message': (result.message | string)[:config.max_message_chars] if result.message is not none else none,
    'checksum': (node.checksum.checksum if node.checksum is defined and node.checksum else none) or none,
    'adapter_response': tojson(result.adapter_response or {}),
  } %}
  {% for timing in result.timing or [] %}
    {% for edge in ('started_at', 'completed_at') %}
      {% set value = timing[edge] %}
      {% do row.update({timing.name ~ '_' ~ edge: none if not value else (
          value.replace('T', ' ').replace('Z', '') if value is string else value.strftime('%Y-%m-%d %H:%M:%S.%f'))}) %}
    {% endfor %}
  {% endfor %}
  {% set rows_affected = (result.adapter_response or {}).get('rows_affected') %}
  {% if rows_affected is not none and rows_affected is not boolean and (rows_affected | string | trim) not in ('', '-1') and (rows_affected | int(-1)) >= 0 %}
    {% do row.update({'rows_affected': rows_affected | int}) %}
  {% endif %}
  {% do node_runs.append(row) %}
  {% for input_id in (node.depends_on.nodes if node.depends_on is defined and node.depends_on else []) | unique %}
    {% set upstream = (graph.nodes.get(input_id) or graph.sources.get(input_id)) if has_graph else none %}
    {% do run_inputs.append({
      'invocation_id': invocation_id,
      'unique_id': node.unique_id,
      'input_unique_id': input_id,
      'input_relation_name': upstream.relation_name if upstream and upstream.relation_name is defined else none,
      'input_invocation_id': none,
    }) %}
  {% endfor %}
  {% endfor %}
  {{ return({'node_runs': node_runs, 'run_inputs': run_inputs}) }}
{% endmacro %}

{# One lineage_node_runs row (tests render rows one by one through this). #}
{% macro _node_run_row(result, config) %}
  {{ return(dbt_lineage._collect_rows([result], config).node_runs[0]) }}
{% endmacro %}


{#
  Rows without the characters warehouses reject in text: NUL (PostgreSQL text and jsonb
  refuse it, also as the JSON escape \u0000) is removed, and a lone UTF-16 surrogate (not
  valid UTF-8) becomes U+FFFD, in every string value and inside the JSON text of the json
  columns. A row is checked through its JSON text first (one search), so a clean row
  costs no per-value work.
#}
{% macro _clean_rows(rows, columns) %}
  {% set re = modules.re %}
  {% set json_keys = columns | selectattr(1, 'equalto', 'json') | map(attribute=0) | list %}
  {% set surrogate = re.compile('[\ud800-\udfff]') %}
  {# \u0000 as a JSON escape: preceded by an even number of backslashes #}
  {% set nul_escape = re.compile('(?<!\\\\)((?:\\\\\\\\)*)\\\\u0000') %}
  {% for row in rows %}
    {% set text = tojson(row) %}
    {# tojson escapes non-ASCII: a NUL shows as \u0000, a surrogate (or an emoji) as \udxxx #}
    {% if '\\u0000' in text or '\\ud' in text %}
      {% for key, value in row.items() if value is string %}
        {% set cleaned = surrogate.sub('\ufffd', value.replace('\x00', '')) %}
        {% set cleaned = nul_escape.sub('\\1', cleaned) if key in json_keys else cleaned %}
        {% if cleaned != value %}{% do row.update({key: cleaned}) %}{% endif %}
      {% endfor %}
    {% endif %}
  {% endfor %}
  {{ return(rows) }}
{% endmacro %}
