{#-
  archive_history(days=none, to=none, database=none, to_parquet=none): move the rows of
  invocations that started more than `days` days ago from the three lineage tables (the hot
  tier) into archive tables of the same names and columns in schema `to` (the warm tier;
  default: the var dbt_lineage_archive_schema), in `database` if given. The archive tables
  are created when missing and gain the columns an upgrade added, as the hook's own do.
  On DuckDB, `to_parquet: DIR` (an existing folder) also writes the moved rows as Parquet
  files (the cold tier): DIR/<table>/archived_on=<date>/<time>_0.parquet.

  One transaction per table where the warehouse has them: insert into the archive the
  rows of old invocations it does not hold yet, then delete from the live table the rows
  of old invocations the archive holds. Children first, lineage_invocations last (it
  says which invocations are old). A kill leaves each row in the live table, the archive,
  or both with the same values; a rerun finishes the move without duplicates
  (docs/decisions/0015-run-history-tiers.md). `days` as for purge_history, but at least 1.
  Logs the rows moved per table.

      dbt run-operation dbt_lineage.archive_history --args '{days: 90, to: lineage_archive}'
-#}
{% macro archive_history(days=none, to=none, database=none, to_parquet=none) %}
  {{ return(adapter.dispatch('archive_history', 'dbt_lineage')(days, to, database, to_parquet)) }}
{% endmacro %}

{% macro default__archive_history(days=none, to=none, database=none, to_parquet=none) %}
  {% set name = 'dbt_lineage.archive_history' %}
  {% set days = dbt_lineage._history_days(name, days, 1, "{days: 90, to: lineage_archive}", 'nothing moved') %}
  {% if days is none %}{{ return('') }}{% endif %}
  {% set config = dbt_lineage.lineage_config() %}
  {% set archive = dbt_lineage._archive_config(name, config, to, database, to_parquet, 'to', 'nothing moved') %}
  {% do dbt_lineage._move_history(name, config, archive, days) %}
  {{ return('') }}
{% endmacro %}
