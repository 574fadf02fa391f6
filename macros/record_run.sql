{#-
  record_run(results): the on-run-end hook. Records this invocation, one row per node
  run and one row per (node run, upstream) edge in the lineage tables, creating or
  migrating the tables first. Only commands that run nodes are recorded (build, run, test,
  seed, snapshot, retry; the var dbt_lineage_record_commands chooses). Add to
  dbt_project.yml:

      on-run-end: ["{{ dbt_lineage.record_run(results) }}"]

  Returns an empty string: all writes happen while the hook renders, so that a failure
  can be reported as a warning (docs/decisions/0002-hook-failure-handling.md).
-#}
{% macro record_run(results) %}
  {% if not execute %}{{ return('') }}{% endif %}
  {% set gate = dbt_lineage._lineage_config(0) %}
  {% if not gate.enabled %}
    {% do log('dbt_lineage: recording is disabled (var dbt_lineage_enabled)', info=true) %}
    {{ return('') }}
  {% endif %}
  {% if gate.targets and target.name not in gate.targets %}
    {% do log('dbt_lineage: target ' ~ target.name ~ ' is not in dbt_lineage_targets; nothing recorded', info=true) %}
    {{ return('') }}
  {% endif %}
  {% set args = invocation_args_dict if invocation_args_dict is defined else {} %}
  {% set command = (args.get('which') or (flags.WHICH if flags.WHICH is defined else '')) | string | lower %}
  {% if command not in gate.record_commands %}
    {% do log('dbt_lineage: command ' ~ command ~ ' is not in dbt_lineage_record_commands ('
        ~ gate.record_commands | join(', ') ~ '); nothing recorded', info=true) %}
    {{ return('') }}
  {% endif %}
  {{ return(adapter.dispatch('record_run', 'dbt_lineage')(results)) }}
{% endmacro %}

{% macro default__record_run(results) %}
  {% do dbt_lineage._assert_supported(adapter.type()) %}
  {{ return(dbt_lineage._record_run(results)) }}
{% endmacro %}

{# Spark's tables cannot delete rows: the append-only path (_spark.sql). #}
{% macro spark__record_run(results) %}{{ return(dbt_lineage._spark_record_run(results)) }}{% endmacro %}
{# dbt-databricks descends from dbt-spark; Delta tables take the common path. #}
{% macro databricks__record_run(results) %}{{ return(dbt_lineage.default__record_run(results)) }}{% endmacro %}
