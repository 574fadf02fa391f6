"""What each step of a query reads (:mod:`.oracle_steps`): the columns a ``SELECT``'s own
clauses name, and what each mention needs to have read a value.

A mention is read from the rows of its step, and needs more to have read anything: the join
probes of its side to have paired (:func:`.oracle_joins.gates`), the rows before a grouping,
a window's partitions to have held two rows (:func:`.oracle_windows.window_gates`); and it
decides nothing on some rows when it is only a ``CASE`` branch after the first, a
``COALESCE`` argument after the first, or a term of ``x = x OR x IS NULL``.

>>> import sqlglot
>>> select = sqlglot.parse_one("select o.id from orders o where o.note > 1", dialect="duckdb")
>>> sorted((table, column) for table, column, _, _ in reads(select, set()))
[('orders', 'id'), ('orders', 'note')]
"""

from __future__ import annotations

import typing as t

from sqlglot import exp

from .oracle_joins import gates_of, in_condition, using_reads
from .oracle_sql import items
from .oracle_windows import window_gates

Read = tuple[str, str, bool, frozenset[frozenset[str]]]
"""A column a step reads: (base table, column, whether every mention is a CASE or COALESCE
branch after the first, the steps each mention needs to have had rows), case-folded."""


def _aliases(select: exp.Select, ctes: set[str]) -> dict[str, str | None]:
    """The aliases of ``select``'s FROM and joins, to the base table each names (None: a
    CTE, a derived table, a function)."""
    aliases: dict[str, str | None] = {}
    for item in items(select):
        if item.alias_or_name:
            base = isinstance(item, exp.Table) and (item.name.casefold() not in ctes or item.db)
            aliases[item.alias_or_name.casefold()] = item.name.casefold() if base else None
    return aliases


def reads(
    select: exp.Select,
    ctes: set[str],
    parts: tuple[str, ...] = (),
    gated: t.Mapping[str, set[str]] | None = None,
    within: exp.Expr | None = None,
    after: set[str] | None = None,
    windows: t.Mapping[tuple[str, str], str] | None = None,
    beside: bool = False,
) -> frozenset[Read]:
    """The columns ``select``'s own clauses (or only its ``parts``, or only ``within``) name
    (see :data:`Read`), the conditions of its probed joins left to their probes; an
    unqualified one as a column of each base table it may belong to. ``gated``: the probes
    each alias's columns need to have had rows (:func:`.oracle_joins.gates`), ``after`` the
    steps every mention needs to have had rows (a grouping's: the rows before it),
    ``windows`` the probe of each window by its SQL (:func:`.oracle_windows.window_gates`);
    ``beside``: it runs beside the rows of the ``SELECT`` around it (:mod:`.oracle_lateral`),
    and reads the columns of that one's tables it names too."""
    aliases = own = _aliases(select, ctes)
    outer = select.parent.find_ancestor(exp.Select) if beside and select.parent else None
    if outer is not None:
        aliases = {**_aliases(outer, ctes), **aliases}
    found: dict[tuple[str, str], tuple[bool, frozenset[frozenset[str]]]] = {}
    scanned = [select.args.get(part) for part in parts] if parts else [within or select]
    nodes = [n for value in scanned for n in (value if isinstance(value, list) else [value]) if n]
    stars = [exp.column(star.copy()) for star in _stars(select, nodes)]
    for column in [*(c for node in nodes for c in node.find_all(exp.Column)), *stars]:
        if column.parent is not None and column.find_ancestor(exp.Select) is not select:
            continue
        if within is None and in_condition(column, select):
            continue  # read by its join's probe
        qualifier = column.table.casefold()
        if qualifier and aliases.get(qualifier) is None:
            continue  # a derived table's or CTE's column
        covered = own if column.name == "*" else aliases  # a star: only its own tables
        named = [qualifier] if qualifier else [a for a, b in covered.items() if b]
        for alias in named:
            name = (aliases[alias] or "", column.name.casefold())
            if name[1] == "*" and _modified(column.this):
                continue  # which columns a star with EXCLUDE or REPLACE reads is not traced
            flag, needs = found.get(name, (True, frozenset()))
            gate = gates_of(column, alias, select, gated or {}) | (after or set())
            gate |= window_gates(column, select, windows or {}, gated or {})
            found[name] = (flag and _conditional(column, select), needs | {frozenset(gate)})
    return frozenset((table, name, flag, needs) for (table, name), (flag, needs) in found.items())


def _stars(select: exp.Select, nodes: list[exp.Expr]) -> list[exp.Star]:
    """The bare stars (``*``, not ``t.*``) among ``select``'s outputs in ``nodes``: each reads
    every column of every table it covers."""
    return [
        star
        for star in select.expressions
        if isinstance(star, exp.Star) and any(star is n or n is select for n in nodes)
    ]


def _modified(star: exp.Expr) -> bool:
    """Whether a star leaves columns out or replaces them (``EXCLUDE``, ``REPLACE``...)."""
    return isinstance(star, exp.Star) and any(star.args.get(k) for k in star.arg_types)


def probe_reads(select: exp.Select, ctes: set[str], probe: t.Any) -> frozenset[Read]:
    """The columns a join's condition names, read by its probe (a ``USING`` column as one of
    each base table it may belong to)."""
    on = probe.join.args.get("on")
    found = set(reads(select, ctes, within=on)) if on is not None else set()
    using = using_reads(probe, _aliases(select, ctes))
    return frozenset(
        found | {(table, name, False, frozenset([frozenset()])) for table, name in using}
    )


def _always_true(predicate: exp.Or) -> bool:
    """``x = x OR x IS NULL`` (either order), for one column ``x``."""
    left, right = (p.unnest() for p in (predicate.this, predicate.expression))
    if isinstance(left, exp.Is):
        left, right = right, left
    return (
        isinstance(left, exp.EQ)
        and isinstance(right, exp.Is)
        and isinstance(right.expression, exp.Null)
        and left.this == left.expression == right.this
    )


def _conditional(node: exp.Expr, stop: exp.Expr) -> bool:
    """Whether ``node`` can decide nothing on some rows: a THEN or ELSE of a CASE, an
    argument of COALESCE after the first, or a term of ``x = x OR x IS NULL`` (true for every
    value of ``x``)."""
    while node.parent is not None and node is not stop:
        parent = node.parent
        if isinstance(parent, exp.Or) and _always_true(parent):
            return True
        if isinstance(parent, exp.If) and node is parent.args.get("true"):
            return True
        if isinstance(parent, exp.Case) and node is parent.args.get("default"):
            return True
        if isinstance(parent, exp.Coalesce) and node in parent.expressions:
            return True
        node = parent
    return False
