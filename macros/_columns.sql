{#-
  The expected columns of the three instance tables, in order, as [name, logical type].
  Schema evolution is append-only: a new column goes at the end of its list, and the hook
  adds it to existing tables (ALTER TABLE ... ADD COLUMN) the next time it runs. Never
  rename or drop an entry here. Every column is documented in docs/hook.md.
-#}
{% macro _invocations_columns() %}
  {{ return([
    ['invocation_id', 'id'], ['project_name', 'id'], ['command', 'id'], ['dbt_version', 'id'],
    ['target_name', 'id'], ['target_type', 'id'], ['target_database', 'id'],
    ['target_schema', 'id'], ['selected', 'text'], ['args', 'json'],
    ['full_refresh', 'boolean'], ['started_at', 'timestamp'], ['ended_at', 'timestamp'],
    ['nodes_total', 'bigint'], ['nodes_success', 'bigint'], ['nodes_warn', 'bigint'],
    ['nodes_error', 'bigint'], ['nodes_fail', 'bigint'], ['nodes_skipped', 'bigint'],
    ['git_sha', 'id'], ['git_branch', 'id'], ['git_pull_request', 'id'],
    ['recorded_at', 'timestamp'], ['recorded_complete', 'boolean'], ['nodes_no_op', 'bigint'],
  ]) }}
{% endmacro %}

{% macro _node_runs_columns() %}
  {{ return([
    ['invocation_id', 'id'], ['unique_id', 'id'], ['resource_type', 'id'], ['node_name', 'id'],
    ['package_name', 'id'], ['relation_name', 'id'], ['materialization', 'id'],
    ['status', 'id'], ['rows_affected', 'bigint'], ['failures', 'bigint'],
    ['execution_time', 'double'], ['compile_started_at', 'timestamp'],
    ['compile_completed_at', 'timestamp'], ['execute_started_at', 'timestamp'],
    ['execute_completed_at', 'timestamp'], ['thread_id', 'id'], ['message', 'text'],
    ['checksum', 'id'], ['adapter_response', 'json'],
  ]) }}
{% endmacro %}

{% macro _run_inputs_columns() %}
  {{ return([
    ['invocation_id', 'id'], ['unique_id', 'id'], ['input_unique_id', 'id'],
    ['input_relation_name', 'id'], ['input_invocation_id', 'id'],
  ]) }}
{% endmacro %}

{# table name -> its columns, in the order the hook writes them #}
{% macro _lineage_tables() %}
  {{ return({
    'lineage_invocations': dbt_lineage._invocations_columns(),
    'lineage_node_runs': dbt_lineage._node_runs_columns(),
    'lineage_run_inputs': dbt_lineage._run_inputs_columns(),
  }) }}
{% endmacro %}

{# Indexes created with the tables where the warehouse has them (PostgreSQL): the hook's
   delete and its input resolution look rows up by invocation and by node. #}
{% macro _lineage_indexes() %}
  {{ return({
    'lineage_invocations': [['invocation_id']],
    'lineage_node_runs': [['invocation_id'], ['unique_id', 'status', 'execute_completed_at']],
    'lineage_run_inputs': [['invocation_id', 'unique_id']],
  }) }}
{% endmacro %}
