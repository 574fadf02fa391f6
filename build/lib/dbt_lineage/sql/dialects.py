"""Which sqlglot dialect reads the SQL that a dbt adapter compiles."""

from __future__ import annotations

_ADAPTER_DIALECTS = {
    "athena": "athena",
    "bigquery": "bigquery",
    "clickhouse": "clickhouse",
    "databricks": "databricks",
    "duckdb": "duckdb",
    "fabric": "tsql",
    "materialize": "postgres",
    "mysql": "mysql",
    "oracle": "oracle",
    "postgres": "postgres",
    "redshift": "redshift",
    "snowflake": "snowflake",
    "spark": "spark",
    "sqlite": "sqlite",
    "sqlserver": "tsql",
    "synapse": "tsql",
    "teradata": "teradata",
    "trino": "trino",
}


def dialect_for(adapter_type: str | None) -> str:
    """The sqlglot dialect for a dbt ``adapter_type``; an unknown adapter reads as ANSI.

    >>> dialect_for("sqlserver")
    'tsql'
    >>> dialect_for("something-new")
    ''
    """
    return _ADAPTER_DIALECTS.get((adapter_type or "").lower(), "")
