"""The names a query's output columns get in the warehouse.

An alias names its column: folded the dialect's way in PostgreSQL and Snowflake, kept as
written in the case-preserving dialects (DuckDB, BigQuery, Databricks). A plain column keeps
its name (the source's spelling, in a case-preserving dialect, when it copies a column of
that name). An expression without an alias is named the way the dialect names it, where
that is known (PostgreSQL: the function's name, the cast column's name, ``case``, else
``?column?``; BigQuery: ``f0_``, ``f1_``...); otherwise it keeps a ``_col_N`` placeholder
and is reported, so that the caller can name it from the catalog by position.
"""

from __future__ import annotations

import typing as t

from sqlglot import exp
from sqlglot.optimizer.scope import Scope

from dbt_lineage.sql.edges import IDENTITY, Edges
from dbt_lineage.sql.walk_base import Output, WalkerBase

_POSTGRES_FAMILY = ("postgres", "redshift", "materialize")


class Named(t.NamedTuple):
    names: list[str]
    """The name of each output, in order."""
    unnamed: list[str]
    """Names that are placeholders (``_col_N``)."""


def output_names(
    walker: WalkerBase,
    root: Scope,
    dialect: str,
    resolved: dict[str, Edges],
    originals: dict[int, str],
) -> Named:
    """The warehouse's names for the outputs of ``root`` (one per distinct inner name)."""
    inner = list(resolved)
    first = root
    while isinstance(first.expression, exp.SetOperation) and first.set_operation_scopes:
        first = first.set_operation_scopes[0]
    if not isinstance(first.expression, exp.Select):
        return Named(inner, [])
    by_name: dict[str, Output] = {}
    for each in walker.shape(first).outputs:
        by_name.setdefault(each.name, each)
    names: list[str] = []
    unnamed: list[str] = []
    anonymous = 0
    for name in inner:
        output = by_name.get(name)
        body = output.body if output is not None else None
        if body is None:
            names.append(name)
            continue
        projection = body.parent if isinstance(body.parent, exp.Alias) else body
        original = originals.get(id(projection))
        if not name.startswith("_col_") or isinstance(projection, exp.Alias):
            names.append(_named(walker, name, original, projection, resolved[name]))
            continue
        dialect_name = _dialect_name(dialect, body, anonymous)
        anonymous += 1
        if dialect_name is None or dialect_name in names or dialect_name in inner:
            names.append(name)
            unnamed.append(name)
        else:
            names.append(dialect_name)
    return Named(names, unnamed)


def _named(
    walker: WalkerBase, name: str, original: str | None, projection: exp.Expr, edges: Edges
) -> str:
    if not walker.names.insensitive or original is None:
        return name
    if isinstance(projection, exp.Column) and len(edges.direct) == 1:
        ((_, column), (rank, _)) = next(iter(edges.direct.items()))
        if rank == IDENTITY and column.casefold() == original.casefold():
            return column  # a copy keeps its source's spelling
    return original


def _dialect_name(dialect: str, body: exp.Expr, anonymous: int) -> str | None:
    if dialect == "bigquery":
        return f"f{anonymous}_"
    if dialect in _POSTGRES_FAMILY:
        return _postgres_name(body)
    return None


def _postgres_name(body: exp.Expr) -> str:
    """PostgreSQL's name for an unaliased expression (its FigureColname)."""
    node = body
    while isinstance(node, (exp.Cast, exp.Paren)):
        node = node.this
    if isinstance(node, (exp.Column, exp.Dot)) and node.name:
        return node.name
    if isinstance(node, exp.Case):
        return "case"
    if isinstance(node, exp.Anonymous):
        return node.name.lower()
    if isinstance(node, exp.Func) and not isinstance(node, exp.Binary):
        return node.sql_name().lower()
    return "?column?"
