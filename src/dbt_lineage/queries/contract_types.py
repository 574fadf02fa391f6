"""Enforced contracts a change breaks before the build: a declared ``data_type`` that the
column's type, inferred from the head SQL, certainly differs from.

The changed model's own contract is checked for its changed columns, and so is every
enforced contract downstream that a changed column reaches along identity edges and
type-keeping aggregates (``min``, ``max``, ``any_value``): the type travels unchanged that
way. A column's type is inferred from its SQL (``sql.column_types``: casts, literals, types
carried along), with the types of what it reads from the side's catalog for a relation no
change reaches (a catalog of the head describes the warehouse before the pull request), else
inferred from that relation's own SQL in turn. Types are compared as the dialect reads them
(``sql.type_match``). Only a certain mismatch breaks; a type that cannot be inferred, or
that is not known to equal the declared one, is said so among the change's reasons.
"""

from __future__ import annotations

import re
import typing as t

from dbt_lineage.queries.broken_references import BrokenReference
from dbt_lineage.queries.column_changes import REMOVED
from dbt_lineage.queries.diff_side import DiffSide
from dbt_lineage.queries.inferred_types import inferred_types
from dbt_lineage.queries.modified_node import NodeChange
from dbt_lineage.sql.type_match import type_match
from dbt_lineage.types import ColumnRef, EdgeKind

_TYPE_KEEPING = re.compile(r"^\s*(min|max|any_value)\s*\(", re.IGNORECASE)


def contract_types(changes: t.Sequence[NodeChange], head: DiffSide) -> list[BrokenReference]:
    """The contract columns whose declared type the head SQL certainly breaks, by node then
    column; a contract column whose type cannot be told adds a reason to the change that
    reaches it.

    Args:
        changes: from ``node_changes`` (reasons are appended to them).
        head: the head side.
    """
    changed = {c.node for c in changes if c.reads_differently or c.change == "added"}
    reached = [
        (ref, origin, change)
        for change in changes
        if change.change != "removed" and change.node in changed
        for origin in _changed_columns(change, head)
        for ref in _reached(origin, head)
        if _declared(ref, head)
    ]
    types = inferred_types(
        head, {ref.node_id for ref, _, _ in reached}, from_sql=_downstream(changed, head)
    )
    found: dict[tuple[str, str, ColumnRef], BrokenReference] = {}
    for ref, origin, change in reached:
        inferred = types.get(ref.node_id, {}).get(ref.column.casefold())
        item = _check(ref, origin, change, inferred, head)
        if item is not None:
            found.setdefault((item.node, item.column, item.reference), item)
    return sorted(found.values(), key=lambda b: (b.node, b.column, b.reference))


def _changed_columns(change: NodeChange, head: DiffSide) -> list[ColumnRef]:
    if change.change == "added":
        names: t.Iterable[str] = head.graph.columns.get(change.node, {})
    else:
        names = (name for name, what in change.columns.items() if what != REMOVED)
    return [ColumnRef(change.node, name) for name in names]


def _reached(origin: ColumnRef, head: DiffSide) -> list[ColumnRef]:
    """``origin`` and every column its type reaches unchanged, nearest first."""
    found = [origin]
    seen = {origin}
    for ref in found:
        for edge in head.index.direct_out.get(ref, ()):
            target = edge.target
            if not isinstance(target, ColumnRef) or target in seen:
                continue
            keeps = edge.kind is EdgeKind.IDENTITY or (
                edge.kind is EdgeKind.AGGREGATE and _TYPE_KEEPING.match(edge.expression)
            )
            if keeps:
                seen.add(target)
                found.append(target)
    return found


def _declared(ref: ColumnRef, head: DiffSide) -> str:
    """The type an enforced contract declares for ``ref``, or ''."""
    facts = head.nodes.get(ref.node_id)
    if facts is None or not facts.contract_enforced:
        return ""
    folded = ref.column.casefold()
    return next((kind for name, kind in facts.declared.items() if name.casefold() == folded), "")


def _check(
    ref: ColumnRef, origin: ColumnRef, change: NodeChange, inferred: str | None, head: DiffSide
) -> BrokenReference | None:
    declared = _declared(ref, head)
    where = f"the enforced contract of {ref.node_id} declares {ref.column} as {declared}"
    if inferred is None:
        _say(change, f"{where}: its type cannot be inferred from the SQL, not checked")
        return None
    same = type_match(declared, inferred, head.dialect)
    if same is None:
        _say(change, f"{where}, its SQL gives {inferred}: not known to be the same, not checked")
    if same is not False:
        return None
    carried = "" if ref == origin else f" (carried from {origin.column} of {origin.node_id})"
    return BrokenReference(
        ref.node_id,
        ref.column,
        origin,
        "contract",
        head.nodes[ref.node_id].path,
        f"the contract declares {ref.column} as {declared}, its SQL now gives {inferred}{carried}",
    )


def _say(change: NodeChange, reason: str) -> None:
    if reason not in change.reasons:
        change.reasons.append(reason)


def _downstream(changed: set[str], head: DiffSide) -> set[str]:
    """The changed nodes and every relation reading one, at any depth."""
    found = set(changed)
    stack = list(changed)
    while stack:
        for other in head.index.depends_out.get(stack.pop(), ()):
            if other not in found:
                found.add(other)
                stack.append(other)
    return found
