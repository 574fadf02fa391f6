"""Each join of a query, probed alone: which rows its condition pairs, and which columns of
a side that never paired reach nothing.

A join key folded away by a later step (a CTE's ``count(*)`` compared with a small key no
random row holds, an outer join whose right side never matches) moves neither the query's
result nor the rows of the ``SELECT`` that holds the join: under a ``LEFT JOIN`` every left row
stays, matched or not. So each join with an ``ON`` (or ``USING``) condition becomes a step of
its own (:mod:`.oracle_steps`), run as an inner join of what is left of it (the ``FROM`` and
the joins before it, as written) with its right side::

    SELECT <row ids of the base tables left of it and of its right side>
    FROM <the FROM and the joins before it> INNER JOIN <right side> ON <condition>

with the CTEs its ``SELECT`` sees. Its rows are the pairs the condition held for; a source
column whose perturbation changes them moved the join (``rows of the join on ... in CTE
c``). The columns the condition names are read by the probe, not by the whole ``SELECT``:
when the probe had no rows on any data set, the condition held for no pair and decided
nothing, whatever those columns held.

A probe with no rows also *gates* the columns of the sides it would have kept: the right side
of a ``LEFT JOIN`` (the left side of a ``RIGHT JOIN``, both sides of an inner join) is all
NULL in every row of the ``SELECT`` when its condition held for no pair, so a column of that
side the ``SELECT`` names elsewhere read nothing either (:func:`gates`), nor does a column
met in arithmetic with such a side's (``s.n * t.id``: NULL), nor one a grouping aggregates
when the rows before the grouping were none. :func:`reach` says so for an edge no step
showed.

>>> import sqlglot
>>> select = sqlglot.parse_one("select b.v from a left join b on a.k = b.k", dialect="duckdb")
>>> [probe.label for probe in probes(select, "the query", set())]
['the join on a.k = b.k in the query']
>>> probes(select, "the query", set())[0].sql
'SELECT "a".rowid AS __rid0, "b".rowid AS __rid1 FROM a JOIN b ON a.k = b.k'
>>> gates(select, probes(select, "the query", set()))
{'b': {'the join on a.k = b.k in the query'}}
"""

from __future__ import annotations

import dataclasses
import typing as t

from sqlglot import exp

from .oracle_sql import is_base, rowid

CONDITION_CHARS = 60
"""A condition longer than this is cut in its probe's label."""


@dataclasses.dataclass(frozen=True)
class Probe:
    """One join run alone as an inner join (see the module's docstring).

    Attributes:
        label: ``the join on <condition> in <place>``.
        sql: its DuckDB SQL, without the CTEs its ``SELECT`` sees (the caller adds them).
        tree: the same, as a tree.
        rids: how many row-id columns it selects (0: neither side is a base table).
        join: the join it probes, in the original tree.
        left: the aliases of the items left of the join (the ``FROM`` and earlier joins).
        right: the alias of its right side.
    """

    label: str
    sql: str
    tree: exp.Select
    rids: int
    join: exp.Join
    left: tuple[str, ...]
    right: str


def probed(join: exp.Join) -> bool:
    """Whether ``join`` gets a probe: it has a condition and means an equi- or theta-join
    (not an ``ASOF`` or ``POSITIONAL`` one, whose pairing an inner join does not repeat)."""
    has_condition = join.args.get("on") is not None or bool(join.args.get("using"))
    return has_condition and not join.args.get("method")


def probes(select: exp.Select, place: str, ctes: set[str]) -> list[Probe]:
    """The probes of ``select``'s own joins, in order (see the module's docstring)."""
    from_ = select.args.get("from_")
    joins = select.args.get("joins") or []
    if from_ is None or not isinstance(from_.this, exp.Expr):
        return []
    found: list[Probe] = []
    for index, join in enumerate(joins):
        if not probed(join) or not isinstance(join.this, exp.Expr):
            continue
        earlier = joins[:index]
        inner = join.copy()
        inner.set("side", None)
        inner.set("kind", None)
        items = [(from_.this, None), *((j.this, j) for j in earlier), (join.this, None)]
        rids = [
            item.alias_or_name
            for item, via in items
            if is_base(item, ctes) and not (via is not None and via.args.get("kind") in _HIDING)
        ]
        tree = exp.select(*(rowid(name, f"__rid{i}") for i, name in enumerate(rids)))
        tree.set("from_", from_.copy())
        tree.set("joins", [*(j.copy() for j in earlier), inner])
        condition = _condition(join)
        if len(condition) > CONDITION_CHARS:
            condition = condition[: CONDITION_CHARS - 3] + "..."
        label = f"the join {condition} in {place}"
        left = tuple(item.alias_or_name.casefold() for item, _ in items[:-1])
        right = join.this.alias_or_name.casefold()
        found.append(Probe(label, tree.sql(dialect="duckdb"), tree, len(rids), join, left, right))
    return found


def in_condition(column: exp.Column, select: exp.Select) -> bool:
    """Whether ``column`` is in the condition of one of ``select``'s own probed joins (read by
    that join's probe, not by ``select``)."""
    node: exp.Expr | None = column
    while node is not None and node is not select:
        parent = node.parent
        if isinstance(parent, exp.Join) and parent.parent is select:
            return node is parent.args.get("on") and probed(parent)
        node = parent
    return False


def using_reads(probe: Probe, aliases: dict[str, str | None]) -> set[tuple[str, str]]:
    """``(base table, column)`` for each column the ``USING`` of ``probe``'s join names: of
    its right side and of each base table left of it (which one holds it is not known here)."""
    return {
        (aliases[side], ident.name.casefold())
        for ident in probe.join.args.get("using") or ()
        for side in (*probe.left, probe.right)
        if aliases.get(side)
    }


def gates(select: exp.Select, found: list[Probe]) -> dict[str, set[str]]:
    """For each alias of ``select``'s FROM and joins, the probes (by label) that must have had
    rows for its columns to hold a value in ``select``'s rows: the right side of a LEFT join,
    the left of a RIGHT join, both sides of an inner one, the left of a SEMI join (a FULL or
    an ANTI join keeps its rows when its condition never holds)."""
    gated: dict[str, set[str]] = {}
    for probe in found:
        side = probe.join.args.get("side") or ""
        kind = probe.join.args.get("kind") or ""
        if kind == "SEMI":
            kept = list(probe.left)
        elif kind == "ANTI" or side == "FULL":
            kept = []  # an anti join keeps every left row when its condition never holds
        else:
            kept = [probe.right] if side == "LEFT" else [*probe.left, probe.right]
            kept = list(probe.left) if side == "RIGHT" else kept
        for alias in kept:
            gated.setdefault(alias, set()).add(probe.label)
    return gated


def gates_of(
    column: exp.Column, alias: str, select: exp.Select, gated: dict[str, set[str]]
) -> set[str]:
    """The probes a mention of ``column`` (of ``alias``) in ``select`` needs to have had rows
    to hold a value: its alias's, and those of any column of ``select`` it meets in an
    arithmetic operation (NULL when that column's side never paired: ``s.n * t.id``)."""
    found = set(gated.get(alias, ()))
    node: exp.Expr = column
    while isinstance(node.parent, _STRICT):
        for operand in node.parent.iter_expressions():
            if operand is node:
                continue
            for other in operand.find_all(exp.Column):
                if other.find_ancestor(exp.Select) is select and other.table:
                    found |= gated.get(other.table.casefold(), set())
        node = node.parent
    return found


_STRICT = (exp.Add, exp.Sub, exp.Mul, exp.Div, exp.Mod, exp.Paren, exp.Neg)
"""Operations that are NULL when an operand is."""

_HIDING = ("SEMI", "ANTI")
"""Join kinds whose right side's columns the SELECT cannot name."""


def reach(
    key: tuple[tuple[str, ...], str],
    found: t.Sequence[t.Any],
    had_rows: set[str],
    names: t.Mapping[tuple[str, ...], set[str]],
    live: t.Mapping[str, set[str]] | None = None,
) -> str:
    """Why no data set reached a source column no step (``found``, :mod:`.oracle_steps`)
    showed: every step that names it had no rows on any data set (every join condition that
    names it: held for no row), or each mention needs a step that had none (a join that
    paired no row, :func:`gates`; the rows before a grouping; a side met in arithmetic), or
    it is named only in a CASE or COALESCE branch after the first (a branch the query's own
    joins and filters may rule out); else empty. A step DuckDB refused counts as having had
    rows (``had_rows``): that it had none is not known. ``live``: by step, the tables whose
    row id some row of it had (a step that names a table whose row id it had in no row read
    no value of it: the side of an outer join that paired none)."""
    table, column = key
    columns = next((c for k, c in names.items() if tuple(p.casefold() for p in k) == table), set())
    mentions = [
        (step, conditional, any(needs <= had_rows for needs in gates) and _live(step, name, live))
        for step in found
        for (name, read, conditional, gates) in step.reads
        if read in (column, "*") and name == table[-1] and column in columns
    ]
    if not mentions:
        return ""
    ran = [(conditional, open_) for step, conditional, open_ in mentions if step.label in had_rows]
    if not ran:
        if all(step.label.startswith("the join ") for step, _, _ in mentions):
            return "the join conditions that name it held for no row on any data set"
        return "the steps that name it had no rows on any data set"
    if not any(open_ for _, open_ in ran):
        return (
            "its steps read it only from rows no data set had (a join's side that paired"
            " none, a CTE or derived table with none, an aggregate over none, arithmetic with"
            " such a side's NULL, a window's partitions of one row or one table row's copies)"
        )
    if all(conditional for conditional, open_ in ran if open_):
        return "named only in a branch no data set took (CASE, COALESCE) or in x = x OR x IS NULL"
    return ""


def _live(step: t.Any, table: str, live: t.Mapping[str, set[str]] | None) -> bool:
    """Whether ``step`` may have read a value of ``table``: not when the table's row id was
    NULL in every row it gave on every data set (or, for a step whose row ids do not tell,
    every row of the step it reads them from: ``step.live_from``)."""
    label = step.live_from or step.label
    if live is None or table not in step.rid_names or label not in live:
        return True
    return table in live[label]


def _condition(join: exp.Join) -> str:
    on = join.args.get("on")
    if on is not None:
        return "on " + on.sql(dialect="duckdb")
    return "using (" + ", ".join(i.sql(dialect="duckdb") for i in join.args["using"]) + ")"
