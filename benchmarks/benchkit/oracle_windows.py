"""Each window's partitions, probed alone: which rows its ``PARTITION BY`` keys put together.

A partition key whose windows give the same value in every partition (``max(t0.id) over
(partition by t1.k)`` over a cross join: every partition holds the same ``t0`` rows) moves no
output and no step's values, yet it decides which rows each window reads. So each window of a
``SELECT`` that does not group, with a ``PARTITION BY`` or an ``ORDER BY`` of plain
expressions, becomes a step of its own (:mod:`.oracle_steps`): its rows before any window,
grouped by the partition keys, each partition of two rows or more as the sorted list of its
base tables' row ids::

    SELECT array_agg([<row ids>] ORDER BY <row ids>) FROM <the FROM, joins and WHERE>
    GROUP BY <the partition keys> HAVING count(*) > 1

A perturbation that splits or merges partitions moves its rows (``rows of the partitions of
max(t0.id) OVER (...) in the query``); a partition of one row is left out, for its window gives
the same value whatever its keys hold. So when the probe had no rows on any data set, the
window's keys decided nothing there (:func:`window_gates`), and neither did a key of a
``SUM``, ``MIN``, ``MAX``, ``AVG`` or ``COUNT`` of a column of a join's side that never paired
(NULL in every row).

An ``ORDER BY`` key that is a column of one base table orders nothing among rows that copy
one row of that table (a join with a CTE that repeats its rows): they hold the same value.
So for each such table the window also gets an *ordering* probe, the same query with
``HAVING count(DISTINCT <its row id>) > 1``: when it had no rows on any data set, no
partition held two of that table's rows, and its order keys decided nothing.

>>> import sqlglot
>>> select = sqlglot.parse_one(
...     "select max(a.v) over (partition by b.k) as m from a cross join b", dialect="duckdb"
... )
>>> probe = partition_probes(select, "the query", ["a", "b"])[0]
>>> probe.label
'the partitions of MAX(a.v) OVER (PARTITION BY b.k) in the query'
>>> probe.sql.split(" AS __parts ")[1]
'FROM a CROSS JOIN b GROUP BY b.k HAVING COUNT(*) > 1'
"""

from __future__ import annotations

import dataclasses
import typing as t

from sqlglot import exp

WINDOW_CHARS = 60
"""A window longer than this is cut in its probe's label."""


@dataclasses.dataclass(frozen=True)
class PartitionProbe:
    """One window's partitions as a query (see the module's docstring).

    Attributes:
        label: ``the partitions of <window> in <place>``.
        sql: its DuckDB SQL, without the CTEs its ``SELECT`` sees.
        tree: the same, as a tree.
        keys: the partition keys, in the original tree.
        window: the window's SQL.
        ordered: for an ordering probe, the alias (case-folded) of the base table whose rows
            it counts; empty for the partitions' probe.
    """

    label: str
    sql: str
    tree: exp.Select
    keys: tuple[exp.Expr, ...]
    window: str = ""
    ordered: str = ""


def partition_probes(
    select: exp.Select, place: str, tables: list[str], grouped: bool = False
) -> list[PartitionProbe]:
    """The probes of ``select``'s own windows with a ``PARTITION BY`` or an ``ORDER BY`` (none
    when it groups, reads no base table (``tables``: their aliases), or a partition key is not
    a plain expression)."""
    if grouped or not tables or select.args.get("from_") is None:
        return []
    found: list[PartitionProbe] = []
    seen: set[str] = set()
    for window in select.find_all(exp.Window):
        keys = window.args.get("partition_by") or []
        if window.find_ancestor(exp.Select) is not select or not (keys or window.args.get("order")):
            continue
        if any(k.find(exp.AggFunc, exp.Window, exp.Subquery, exp.Select) for k in keys):
            continue
        text = window.sql(dialect="duckdb")
        if text in seen:
            continue
        seen.add(text)
        rids = ", ".join(f'"{name}".rowid' for name in tables)
        tree = exp.select(f"array_agg([{rids}] order by {rids}) as __parts", dialect="duckdb")
        for arg in ("from_", "joins", "laterals", "where"):
            value = select.args.get(arg)
            if value:
                tree.set(
                    arg, [v.copy() for v in value] if isinstance(value, list) else value.copy()
                )
        if keys:
            tree.set("group", exp.Group(expressions=[k.copy() for k in keys]))
        cut = text if len(text) <= WINDOW_CHARS else text[: WINDOW_CHARS - 3] + "..."
        for alias in ("", *_ordered_tables(window, tables)):
            probe = tree.copy()
            counted = f'count(distinct "{alias}".rowid)' if alias else "count(*)"
            probe.set("having", exp.Having(this=exp.condition(f"{counted} > 1")))
            label = f"the partitions of {cut} in {place}"
            if alias:
                label = f"the orderings by {alias} of {cut} in {place}"
            sql = probe.sql(dialect="duckdb")
            found.append(PartitionProbe(label, sql, probe, tuple(keys), text, alias.casefold()))
    return found


def _ordered_tables(window: exp.Window, tables: list[str]) -> list[str]:
    """The aliases of ``tables`` (base tables) one of whose columns is, alone, an ``ORDER BY``
    key of ``window``."""
    named = {column.table.casefold() for column in _order_columns(window)}
    return [alias for alias in tables if alias.casefold() in named]


def _order_columns(window: exp.Window) -> list[exp.Column]:
    """The ``ORDER BY`` keys of ``window`` that are, alone, a qualified column."""
    order = window.args.get("order")
    keys = [ordered.this.unnest() for ordered in order.expressions] if order else []
    return [key for key in keys if isinstance(key, exp.Column) and key.table]


_IGNORING_NULLS = (exp.Sum, exp.Min, exp.Max, exp.Avg, exp.Count)
"""Aggregates that give the same value over rows whose argument is NULL, in whatever order
and partition (NULL, or a count of 0)."""


def window_gates(
    column: exp.Column,
    select: exp.Select,
    probes: t.Mapping[tuple[str, str], str],
    gated: t.Mapping[str, set[str]],
) -> set[str]:
    """The steps (by label) a mention of ``column`` in the ``PARTITION BY`` or ``ORDER BY`` of
    a window of ``select`` needs to have had rows to decide anything: the window's probe
    (``probes``: its label by the window's SQL and the alias an ordering probe counts, empty
    for the partitions' probe), its ordering probe where ``column`` alone is an ``ORDER BY``
    key, and for a ``SUM``, ``MIN``, ``MAX``, ``AVG`` or ``COUNT`` of one column, the join
    probes that column's side needs to have paired (``gated``: :func:`.oracle_joins.gates`)."""
    found: set[str] = set()
    node: exp.Expr = column
    while node.parent is not None and node is not select:
        parent = node.parent
        if isinstance(parent, exp.Window) and node is not parent.this:
            text = parent.sql(dialect="duckdb")
            alone = any(key is column for key in _order_columns(parent))
            ordered = column.table.casefold() if alone else ""
            label = probes.get((text, ordered)) or probes.get((text, ""))
            found |= {label} if label else set()
            function = parent.this
            argument = function.this if isinstance(function, _IGNORING_NULLS) else None
            if isinstance(argument, exp.Column) and argument.table and not function.expressions:
                found |= gated.get(argument.table.casefold(), set())
        node = parent
    return found
