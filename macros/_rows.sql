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

{# rows_affected as a number, or none when the adapter reports '', -1 or nothing. #}
{% macro _rows_affected(adapter_response) %}
  {% set value = (adapter_response or {}).get('rows_affected') %}
  {% if value is none or value is boolean or (value | string | trim) in ('', '-1') %}
    {{ return(none) }}
  {% endif %}
  {% set number = value | int(-1) %}
  {{ return(none if number < 0 else number) }}
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
  {% set counts = {'success': 0, 'warn': 0, 'error': 0, 'fail': 0, 'skipped': 0} %}
  {% for result in results %}
    {% set status = result.status | string | lower %}
    {% set key = 'success' if status in ('success', 'pass') else ('error' if status == 'runtime error' else status) %}
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
    'args': args,
    'full_refresh': flags.FULL_REFRESH in [true, 'true', 'True'] or args.get('full_refresh') in [true],
    'started_at': dbt_lineage._timestamp_text(run_started_at),
    'ended_at': dbt_lineage._timestamp_text(modules.datetime.datetime.utcnow()),
    'nodes_total': results | length,
    'nodes_success': counts.success, 'nodes_warn': counts.warn, 'nodes_error': counts.error,
    'nodes_fail': counts.fail, 'nodes_skipped': counts.skipped,
    'recorded_at': dbt_lineage._timestamp_text(modules.datetime.datetime.utcnow()),
  } %}
  {% do row.update(dbt_lineage._git_context()) %}
  {{ return(row) }}
{% endmacro %}

{% macro _node_run_row(result, config) %}
  {% set node = result.node %}
  {% set timings = {} %}
  {% for timing in result.timing or [] %}
    {% do timings.update({timing.name: timing}) %}
  {% endfor %}
  {% set compile = timings.get('compile') %}
  {% set execute = timings.get('execute') %}
  {% set message = result.message %}
  {% set node_config = node.config or {} %}
  {{ return({
    'invocation_id': invocation_id,
    'unique_id': node.unique_id,
    'resource_type': node.resource_type | string,
    'node_name': node.name,
    'package_name': node.package_name,
    'relation_name': node.relation_name,
    'materialization': node_config.materialized,
    'status': result.status | string,
    'rows_affected': dbt_lineage._rows_affected(result.adapter_response),
    'failures': result.failures,
    'execution_time': result.execution_time,
    'compile_started_at': dbt_lineage._timestamp_text(compile.started_at) if compile else none,
    'compile_completed_at': dbt_lineage._timestamp_text(compile.completed_at) if compile else none,
    'execute_started_at': dbt_lineage._timestamp_text(execute.started_at) if execute else none,
    'execute_completed_at': dbt_lineage._timestamp_text(execute.completed_at) if execute else none,
    'thread_id': result.thread_id,
    'message': (message | string)[:config.max_message_chars] if message is not none else none,
    'checksum': (node.checksum.checksum if node.checksum else none) or none,
    'adapter_response': result.adapter_response or {},
  }) }}
{% endmacro %}

{# One row per (node run, upstream node it depends on). input_invocation_id is set later, in SQL. #}
{% macro _run_input_rows(result) %}
  {% set rows = [] %}
  {% set node = result.node %}
  {% for input_id in (node.depends_on.nodes if node.depends_on else []) | unique %}
    {% set upstream = (graph.nodes.get(input_id) or graph.sources.get(input_id)) if execute and graph is defined else none %}
    {% do rows.append({
      'invocation_id': invocation_id,
      'unique_id': node.unique_id,
      'input_unique_id': input_id,
      'input_relation_name': upstream.relation_name if upstream else none,
      'input_invocation_id': none,
    }) %}
  {% endfor %}
  {{ return(rows) }}
{% endmacro %}
