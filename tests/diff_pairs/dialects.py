"""The pairs' DuckDB artifacts as another adapter would have written them.

A pair is built once, with real dbt on DuckDB. For each other dialect we support, both sides
are copied with the manifest's ``adapter_type`` set to that adapter and every compiled query
and relation name written in its SQL (sqlglot transpiles DuckDB's), so the diff reads the
same pull request as that warehouse's SQL: its casts, its quoting, its identifier case.
"""

from __future__ import annotations

import json
import shutil
import typing as t
from pathlib import Path

import sqlglot
from sqlglot import exp

DIALECTS = ("duckdb", "snowflake", "bigquery", "redshift", "databricks", "postgres")
"""Every dialect a supported dbt adapter compiles to; DuckDB's artifacts are dbt's own."""

_KEPT = ("catalog.json",)


def as_dialect(target: Path, dialect: str) -> Path:
    """A copy of the dbt target directory ``target`` whose manifest says it was compiled by
    ``dialect``'s adapter (made once, beside it); ``target`` itself for DuckDB."""
    if dialect == "duckdb":
        return target
    into = target.parent.parent / f"{target.parent.name}.{dialect}" / target.name
    if (into / "manifest.json").is_file():
        return into
    into.mkdir(parents=True, exist_ok=True)
    for name in _KEPT:
        if (target / name).is_file():
            shutil.copy2(target / name, into / name)
    manifest = json.loads((target / "manifest.json").read_text())
    manifest["metadata"]["adapter_type"] = dialect
    for node in (*manifest["nodes"].values(), *manifest["sources"].values()):
        _convert(node, dialect)
    (into / "manifest.json").write_text(json.dumps(manifest))
    return into


def _convert(node: dict[str, t.Any], dialect: str) -> None:
    if node.get("relation_name"):
        table = exp.to_table(node["relation_name"], dialect="duckdb")
        node["relation_name"] = table.sql(dialect=dialect)
    if node.get("compiled_code") and node.get("resource_type") in ("model", "snapshot"):
        try:
            statements = sqlglot.transpile(node["compiled_code"], read="duckdb", write=dialect)
        except sqlglot.errors.ParseError:
            return  # SQL nobody parses (a pair of its own) reaches every warehouse as it is
        node["compiled_code"] = ";\n".join(statements)
