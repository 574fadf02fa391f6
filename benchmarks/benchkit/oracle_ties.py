"""Ties at a ``LIMIT`` cut and among a window's peers: where the rows a query keeps, or the
values a window gives them, are DuckDB's choice, not a function of the data (see
:mod:`.oracle`, and :mod:`.oracle_peers` for the windows)."""

from __future__ import annotations

import duckdb
import sqlglot
from sqlglot import exp

from .oracle_data import freeze, run
from .oracle_peers import peer_probes
from .oracle_steps import with_ctes

Probe = tuple[str, tuple[int, ...]]
"""A probe's SQL and the columns of its rows that hold sort keys: a tie when its two rows
differ and their keys do not; with no keys, a tie when it gives any row."""


def tie_probes(query: str) -> list[Probe]:
    """Queries that show a tie: for each ``SELECT`` with ``ORDER BY`` and ``LIMIT n``, its sort
    keys of the n-th and the next row (equal keys there: which rows are kept is not a
    function of the data); for a ``DISTINCT`` one, or one sorted by a position past a star,
    those of its rows without the ``ORDER BY`` and ``LIMIT``, as a derived table; and each
    window whose value depends on the order among peers (:mod:`.oracle_peers`).

    >>> tie_probes("select a, b from t order by 1 limit 10")
    [('SELECT a, b, a AS __key0 FROM t ORDER BY __key0 LIMIT 2 OFFSET 9', (-1,))]
    >>> tie_probes("select distinct * from t order by 2 limit 3")
    [('SELECT * FROM (SELECT DISTINCT * FROM t) AS __cut ORDER BY 2 LIMIT 2 OFFSET 2', (1,))]
    """
    try:
        tree = sqlglot.parse_one(query, dialect="duckdb")
    except sqlglot.errors.SqlglotError:
        return []
    probes = []
    for select in tree.find_all(exp.Select):
        for peers in peer_probes(select):
            probes.append((with_ctes(peers, select).sql(dialect="duckdb"), ()))
        order, limit = select.args.get("order"), select.args.get("limit")
        count = limit.expression if isinstance(limit, exp.Limit) else None
        if not order or not isinstance(count, exp.Literal) or select.args.get("offset"):
            continue
        keys = [_sort_key(select, ordered.this) for ordered in order.expressions]
        if any(key is None for key in keys) or select.args.get("distinct"):
            probe, columns = _cut(select, order)
        else:
            probe = select.copy()
            names = [f"__key{i}" for i in range(len(keys))]
            probe.set("expressions", [*probe.expressions, *map(exp.alias_, keys, names)])
            ordered = [o.copy() for o in order.expressions]
            for item, name in zip(ordered, names, strict=True):
                item.set("this", exp.column(name))
            probe.set("order", exp.Order(expressions=ordered))
            columns = tuple(range(-len(keys), 0))
        probe.set("limit", exp.Limit(expression=exp.Literal.number(2)))
        probe.set("offset", exp.Offset(expression=exp.Literal.number(int(count.name) - 1)))
        probes.append((with_ctes(probe, select).sql(dialect="duckdb"), columns))
    return probes


def tied(con: duckdb.DuckDBPyConnection, probes: list[Probe]) -> bool:
    """Whether a ``LIMIT`` cut falls inside rows of equal sort keys (and other values), or
    peers of a window differ, on the data in ``con``."""
    for probe, keys in probes:
        try:
            rows = run(con, probe)
        except duckdb.Error:
            continue
        if not keys and rows:
            return True
        if (
            keys
            and len(rows) == 2
            and rows[0] != rows[1]
            and all(freeze(rows[0][i]) == freeze(rows[1][i]) for i in keys)
        ):
            return True
    return False


def _cut(select: exp.Select, order: exp.Order) -> tuple[exp.Select, tuple[int, ...]]:
    """``select`` without its ``ORDER BY`` and ``LIMIT``, as a derived table sorted as it was:
    a position sorts by that column of its rows, another key (by the names of its outputs)
    by a column added after them."""
    inner = select.copy()
    for arg in ("order", "limit", "offset", "with_"):
        inner.set(arg, None)
    added: list[exp.Expr] = []
    columns: list[int] = []
    ordered = [o.copy() for o in order.expressions]
    for i, item in enumerate(ordered):
        key = item.this
        if isinstance(key, exp.Literal) and key.is_int:
            columns.append(int(key.name) - 1)
            continue
        key = key.copy().transform(
            lambda n: exp.column(n.this) if isinstance(n, exp.Column) and n.table else n
        )
        added.append(exp.alias_(key, f"__key{i}"))
        item.set("this", exp.column(f"__key{i}"))
        columns.append(-len(added))  # counted from the end of the row, fixed below
    probe = exp.select("*", *added).from_(exp.alias_(exp.Subquery(this=inner), "__cut"))
    probe.set("order", exp.Order(expressions=ordered))
    return probe, tuple(c if c >= 0 else -len(added) - 1 - c for c in columns)


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
