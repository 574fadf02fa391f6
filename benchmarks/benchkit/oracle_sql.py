"""The pieces of SQL the oracle's steps and probes (:mod:`.oracle_steps`,
:mod:`.oracle_joins`, :mod:`.oracle_lateral`) all read a ``SELECT`` with, and the row id
column they all add."""

from __future__ import annotations

from sqlglot import exp


def items(select: exp.Select) -> list[exp.Expr]:
    """What ``select``'s own FROM and joins read (tables, subqueries, functions)."""
    sources = [select.args.get("from_"), *(select.args.get("joins") or ())]
    return [s.this for s in sources if s is not None and isinstance(s.this, exp.Expr)]


def is_base(item: exp.Expr, ctes: set[str]) -> bool:
    """Whether ``item`` is a base table (not a CTE, a subquery or a table function)."""
    if not isinstance(item, exp.Table) or isinstance(item.this, exp.Func):
        return False
    return item.name.casefold() not in ctes or bool(item.db)


def grouped(select: exp.Select) -> bool:
    """Whether ``select`` groups: a GROUP BY, or an aggregate of its own outside a window."""
    if select.args.get("group"):
        return True
    return any(
        agg.find_ancestor(exp.Window, exp.Subquery, exp.Select) is select
        for projection in select.expressions
        for agg in projection.find_all(exp.AggFunc)
    )


def rowid(name: str, alias: str) -> exp.Expr:
    """DuckDB's row id of the table ``name`` (its alias in the query), as ``alias``."""
    return exp.alias_(exp.column("rowid", table=exp.to_identifier(name, quoted=True)), alias)
