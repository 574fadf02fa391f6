"""Each window's partitions, probed alone: which rows its ``PARTITION BY`` keys put together.

A partition key whose windows give the same value in every partition (``max(t0.id) over
(partition by t1.k)`` over a cross join: every partition holds the same ``t0`` rows) moves no
output and no step's values, yet it decides which rows each window reads. So each window of a
``SELECT`` that does not group, with a ``PARTITION BY`` of plain expressions, becomes a step of
its own (:mod:`.oracle_steps`): its rows before any window, grouped by the partition keys,
each partition as the sorted list of its base tables' row ids::

    SELECT array_agg([<row ids>] ORDER BY <row ids>) FROM <the FROM, joins and WHERE>
    GROUP BY <the partition keys>

A perturbation that splits or merges partitions moves its rows (``rows of the partitions of
max(t0.id) OVER (...) in the query``).

>>> import sqlglot
>>> select = sqlglot.parse_one(
...     "select max(a.v) over (partition by b.k) as m from a cross join b", dialect="duckdb"
... )
>>> probe = partition_probes(select, "the query", ["a", "b"])[0]
>>> probe.label
'the partitions of MAX(a.v) OVER (PARTITION BY b.k) in the query'
>>> probe.sql.split(" AS __parts ")[1]
'FROM a CROSS JOIN b GROUP BY b.k'
"""

from __future__ import annotations

import dataclasses

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
    """

    label: str
    sql: str
    tree: exp.Select
    keys: tuple[exp.Expr, ...]


def partition_probes(
    select: exp.Select, place: str, tables: list[str], grouped: bool = False
) -> list[PartitionProbe]:
    """The probes of ``select``'s own windows with a ``PARTITION BY`` (none when it groups,
    reads no base table (``tables``: their aliases), or a key is not a plain expression)."""
    if grouped or not tables or select.args.get("from_") is None:
        return []
    found: list[PartitionProbe] = []
    seen: set[str] = set()
    for window in select.find_all(exp.Window):
        keys = window.args.get("partition_by") or []
        if window.find_ancestor(exp.Select) is not select or not keys:
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
        tree.set("group", exp.Group(expressions=[k.copy() for k in keys]))
        if len(text) > WINDOW_CHARS:
            text = text[: WINDOW_CHARS - 3] + "..."
        label = f"the partitions of {text} in {place}"
        found.append(PartitionProbe(label, tree.sql(dialect="duckdb"), tree, tuple(keys)))
    return found
