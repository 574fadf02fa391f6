"""The OpenLineage dataset namespace of a dbt target, as ``dbt-ol`` names it.

The rules follow the OpenLineage naming spec and ``openlineage-integration-common``'s dbt
processor (``DbtArtifactProcessor.extract_namespace``, version 1.54), so that datasets we
emit and datasets ``dbt-ol`` emits for the same profile are the same datasets in Marquez.
``tests/outputs/openlineage/test_naming.py`` checks every rule against that code.
"""

from __future__ import annotations

import typing as t

from dbt_lineage.errors import DbtLineageError

_HOST_PORT = {
    "postgres": "postgres",
    "redshift": "redshift",
    "clickhouse": "clickhouse",
    "trino": "trino",
    "presto": "presto",
}
_SPARK_PORTS = {"http": ":443", "odbc": ":443", "thrift": ":10001"}


def namespace(adapter_type: str, credentials: t.Mapping[str, t.Any]) -> str:
    """The dataset namespace for a target of this adapter type and these credentials.

    >>> namespace("postgres", {"host": "db.internal", "port": 5432})
    'postgres://db.internal:5432'
    >>> namespace("snowflake", {"account": "xy12345.us-east-1"})
    'snowflake://xy12345.us-east-1.aws'
    >>> namespace("bigquery", {"project": "analytics"})
    'bigquery'

    Raises:
        DbtLineageError: an adapter without a naming rule, or credentials missing a part.
    """
    try:
        if adapter_type in _HOST_PORT:
            return f"{_HOST_PORT[adapter_type]}://{credentials['host']}:{credentials['port']}"
        if adapter_type == "snowflake":
            return f"snowflake://{_snowflake_account(str(credentials['account']))}"
        if adapter_type == "bigquery":
            return "bigquery"
        if adapter_type == "duckdb":
            return f"duckdb://{credentials['path']}"
        if adapter_type == "databricks":
            return f"databricks://{credentials['host']}"
        if adapter_type == "spark":
            method = str(credentials.get("method") or "")
            if method not in _SPARK_PORTS:
                raise DbtLineageError(
                    f"spark connection method {method!r} has no dataset namespace"
                )
            port = f":{credentials['port']}" if credentials.get("port") else _SPARK_PORTS[method]
            return f"spark://{credentials['host']}{port}"
        if adapter_type == "sqlserver":
            return f"mssql://{credentials['server']}:{credentials['port']}"
    except KeyError as missing:
        raise DbtLineageError(
            f"the {adapter_type} profile has no {missing.args[0]}, which its OpenLineage "
            "dataset namespace needs"
        ) from None
    raise DbtLineageError(
        f"no OpenLineage dataset namespace rule for adapter {adapter_type}: supported are "
        "bigquery, clickhouse, databricks, duckdb, postgres, presto, redshift, snowflake, "
        "spark, sqlserver, trino"
    )


def _snowflake_account(account: str) -> str:
    """An account identifier with its region and cloud, as the naming spec wants it.

    >>> _snowflake_account("myorg-myaccount"), _snowflake_account("xy12345")
    ('myorg-myaccount', 'xy12345.us-west-1.aws')
    """
    parts = account.split(".")
    if "-" in parts[0]:
        return parts[0]
    if len(parts) == 1:
        return f"{parts[0]}.us-west-1.aws"
    if len(parts) == 2:
        return f"{parts[0]}.{parts[1]}.aws"
    return account
