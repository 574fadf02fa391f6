"""Ties among a window's peers: where the value a window gives each row, or the rows a
``QUALIFY`` keeps, is DuckDB's choice, not a function of the data (see :mod:`.oracle_ties`).

``row_number``, ``ntile``, ``lag``, ``lead``, ``first_value``, ``last_value``, ``nth_value``
and an aggregate over a ``ROWS`` frame give a row a value that depends on where it stands
among its peers (the rows of its partition with equal ``ORDER BY`` keys; with no ``ORDER BY``,
the whole partition), and DuckDB orders peers as it likes. That is no lineage only when the
peers differ in what the ``SELECT`` passes on: its outputs that hold no such window, and
the window function's arguments (a ranking of two rows alike gives the same rows whichever
is first). So each such window becomes a probe: the ``SELECT``'s rows before any window (its
``FROM``, joins, ``WHERE`` and grouping, without ``QUALIFY``, ``DISTINCT``, ``ORDER BY`` or
``LIMIT``), grouped by the window's partition and order keys, a row for each group of peers
that differ::

    SELECT 1 FROM (SELECT <keys>, ROW(<outputs>, <arguments>) AS __row FROM ...) AS __peers
    GROUP BY <keys> HAVING COUNT(DISTINCT __row) > 1 LIMIT 1

A star among the outputs passes on its tables whole: DuckDB reads a table's alias as the
struct of its row.

>>> import sqlglot
>>> select = sqlglot.parse_one(
...     "select a, b from t qualify row_number() over (partition by k order by v) = 1",
...     dialect="duckdb",
... )
>>> print(peer_probes(select)[0].sql(dialect="duckdb"))
SELECT 1 FROM (SELECT k AS __key0, v AS __key1, ROW(a, b) AS __row FROM t) AS __peers \
GROUP BY __key0, __key1 HAVING COUNT(DISTINCT __row) > 1 LIMIT 1
"""

from __future__ import annotations

from sqlglot import exp

from .oracle_sql import items

_IN_ORDER = (
    exp.RowNumber, exp.Ntile, exp.Lag, exp.Lead, exp.FirstValue, exp.LastValue, exp.NthValue,
)  # fmt: skip
"""Window functions whose value for a row depends on where it stands among its peers."""

_WRAPPERS = (exp.IgnoreNulls, exp.RespectNulls, exp.Filter)


def peer_probes(select: exp.Select) -> list[exp.Select]:
    """The probes (without the CTEs ``select`` sees) of ``select``'s own windows
    whose value depends on the order among peers: each gives a row when peers differ in what
    ``select`` passes on (none for a window it cannot tell: a named window, no ``FROM``)."""
    if select.args.get("from_") is None:
        return []
    windows = [w for w in select.find_all(exp.Window) if _own(w, select) and _in_order(w)]
    if not windows:
        return []
    passed = [_passed(item, select) for item in select.expressions if not _holds(item, windows)]
    found: list[exp.Select] = []
    for window in windows:
        function = _function(window)
        arguments = [a for a in (function.this, *function.expressions) if isinstance(a, exp.Expr)]
        row = [*(e.copy() for item in passed for e in item), *(a.copy() for a in arguments)]
        if not row:
            continue  # the window alone: its values over the peers, in any order, are the same
        keys = [*(window.args.get("partition_by") or ())]
        keys += [o.this for o in (window.args.get("order") or exp.Order()).expressions]
        inner = select.copy()
        for arg in ("distinct", "qualify", "order", "limit", "offset", "with_"):
            inner.set(arg, None)
        names = [f"__key{i}" for i in range(len(keys))]
        inner.set(
            "expressions",
            [
                *(exp.alias_(k.copy(), n) for k, n in zip(keys, names, strict=True)),
                exp.alias_(exp.Anonymous(this="ROW", expressions=row), "__row"),
            ],
        )
        probe = exp.select("1").from_(exp.alias_(exp.Subquery(this=inner), "__peers"))
        if names:
            probe = probe.group_by(*names)
        probe = probe.having("COUNT(DISTINCT __row) > 1").limit(1)
        found.append(probe)
    return found


def _function(window: exp.Window) -> exp.Expr:
    """The function ``window`` computes, under any IGNORE NULLS or FILTER around it."""
    function = window.this
    while isinstance(function, _WRAPPERS):
        function = function.this
    return function


def _own(window: exp.Window, select: exp.Select) -> bool:
    return window.find_ancestor(exp.Select) is select and not isinstance(
        window.this, exp.Identifier
    )


def _in_order(window: exp.Window) -> bool:
    """Whether ``window``'s value for a row depends on the order among its peers."""
    if window.alias:  # a named window (OVER w): its keys are elsewhere
        return False
    function = _function(window)
    if isinstance(function, _IN_ORDER):
        return True
    spec = window.args.get("spec")
    if not isinstance(function, exp.AggFunc) or not isinstance(spec, exp.WindowSpec):
        return False
    whole = spec.args.get("start") == "UNBOUNDED" and spec.args.get("end") == "UNBOUNDED"
    return str(spec.args.get("kind") or "").upper() == "ROWS" and not whole


def _holds(item: exp.Expr, windows: list[exp.Window]) -> bool:
    """Whether the output ``item`` holds one of ``windows``."""
    return any(node is window for node in item.walk() for window in windows)


def _passed(item: exp.Expr, select: exp.Select) -> list[exp.Expr]:
    """What the output ``item`` passes on: its expression, or for a star, the tables it
    reads whole (their aliases)."""
    expression = item.unalias()
    if isinstance(expression, exp.Star):
        aliases = [i.alias_or_name for i in items(select) if i.alias_or_name]
        return [exp.column(exp.to_identifier(a, quoted=True)) for a in aliases]
    if isinstance(expression, exp.Column) and isinstance(expression.this, exp.Star):
        return [exp.column(exp.to_identifier(expression.table, quoted=True))]
    return [expression]
