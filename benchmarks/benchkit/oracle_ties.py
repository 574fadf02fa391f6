"""Ties at a ``LIMIT`` cut: where the rows a query keeps are DuckDB's choice, not a function
of the data (see :mod:`.oracle`)."""

from __future__ import annotations

import duckdb
import sqlglot
from sqlglot import exp

from .oracle_data import freeze, run
from .oracle_steps import with_ctes


def tie_probes(query: str) -> list[tuple[str, int]]:
    """Queries that show a tie at a ``LIMIT`` cut: for each ``SELECT`` with ``ORDER BY`` and
    ``LIMIT n``, its sort keys of the n-th and the next row (equal keys there: which rows are
    kept is not a function of the data). A select whose keys cannot be told (a position past
    a star, DISTINCT) gives none.

    >>> tie_probes("select a, b from t order by 1 limit 10")
    [('SELECT a, b, a AS __key0 FROM t ORDER BY __key0 LIMIT 2 OFFSET 9', 1)]
    """
    try:
        tree = sqlglot.parse_one(query, dialect="duckdb")
    except sqlglot.errors.SqlglotError:
        return []
    probes = []
    for select in tree.find_all(exp.Select):
        order, limit = select.args.get("order"), select.args.get("limit")
        count = limit.expression if isinstance(limit, exp.Limit) else None
        if not order or not isinstance(count, exp.Literal) or select.args.get("distinct"):
            continue
        keys = [_sort_key(select, ordered.this) for ordered in order.expressions]
        if any(key is None for key in keys) or select.args.get("offset"):
            continue
        probe = select.copy()
        names = [f"__key{i}" for i in range(len(keys))]
        probe.set("expressions", [*probe.expressions, *map(exp.alias_, keys, names)])
        ordered = [o.copy() for o in order.expressions]
        for item, name in zip(ordered, names, strict=True):
            item.set("this", exp.column(name))
        probe.set("order", exp.Order(expressions=ordered))
        probe.set("limit", exp.Limit(expression=exp.Literal.number(2)))
        probe.set("offset", exp.Offset(expression=exp.Literal.number(int(count.name) - 1)))
        probes.append((with_ctes(probe, select).sql(dialect="duckdb"), len(keys)))
    return probes


def tied(con: duckdb.DuckDBPyConnection, probes: list[tuple[str, int]]) -> bool:
    """Whether a ``LIMIT`` cut falls inside rows of equal sort keys (and other values) on the
    data in ``con``."""
    for probe, keys in probes:
        try:
            rows = run(con, probe)
        except duckdb.Error:
            continue
        if (
            len(rows) == 2
            and rows[0] != rows[1]
            and freeze(rows[0][-keys:]) == freeze(rows[1][-keys:])
        ):
            return True
    return False


def _sort_key(select: exp.Select, key: exp.Expr) -> exp.Expr | None:
    """The expression an ORDER BY key stands for: a position or an alias of the select list
    is that item's expression."""
    items = select.expressions
    if isinstance(key, exp.Literal) and key.is_int:
        index = int(key.name) - 1
        if any(isinstance(item, exp.Star) or item.find(exp.Star) for item in items[: index + 1]):
            return None
        return items[index].unalias().copy() if 0 <= index < len(items) else None
    if isinstance(key, exp.Column) and not key.table:
        named = [item for item in items if item.alias_or_name.casefold() == key.name.casefold()]
        if isinstance(named[:1] and named[0], exp.Alias):
            return named[0].unalias().copy()
    return key.copy()
