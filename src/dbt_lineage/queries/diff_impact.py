"""What a set of node changes impacts downstream, at column precision.

From each changed column (logic, retyped) the walk follows, on the head graph, direct edges
and column-scoped indirect edges (window keys) to the columns they feed. Where a changed
column is a downstream model's join key, filter, group-by or distinct column (a row-set
edge), every column of that model is impacted, and the walk goes on from each. Removed and
renamed columns are walked on the base graph, where their readers still read them. A
breaking (or unknown) node impacts every column of every relation downstream of it.
Exposures reading an impacted relation are impacted.
"""

from __future__ import annotations

import collections
import dataclasses
import typing as t

from dbt_lineage.graph.model import ExposureNode, NodeType
from dbt_lineage.queries.column_changes import ADDED, LOGIC, REMOVED, RENAMED_PREFIX, RETYPED
from dbt_lineage.queries.diff_side import DiffSide
from dbt_lineage.queries.modified_node import NodeChange
from dbt_lineage.types import ColumnRef, EdgeKind

WHOLE = ("breaking", "unknown")
"""Classes whose node changes (or may change) every column and every row."""


@dataclasses.dataclass(frozen=True)
class ImpactedColumn:
    """A downstream column a change reaches: ``via`` is the column (or, for a whole node's
    change, the node) one step before it, with the kind of that step."""

    ref: ColumnRef
    distance: int
    via: ColumnRef | str
    kind: str


@dataclasses.dataclass(frozen=True)
class ImpactedExposure:
    node: str
    name: str
    type: str
    owner_name: str
    owner_email: str


@dataclasses.dataclass(frozen=True)
class Impacted:
    """Impacted columns (nearest first), relations (nearest first) and exposures; and the
    columns an addition adds downstream, passed on as they are (``select *``)."""

    columns: tuple[ImpactedColumn, ...]
    models: tuple[str, ...]
    exposures: tuple[ImpactedExposure, ...]
    added: tuple[ImpactedColumn, ...] = ()


def diff_impact(
    changes: t.Sequence[NodeChange],
    base: DiffSide,
    head: DiffSide,
    *,
    starting: t.Collection[str] | None = None,
) -> Impacted:
    """Walk downstream from every changed column and every wholly changed node.

    Args:
        changes: from ``node_changes``.
        base: the base side (removed and renamed columns are walked on its graph).
        head: the head side.
        starting: walk only from the changes of these nodes (what one change impacts);
            None walks from every change.
    """
    reached: dict[ColumnRef, ImpactedColumn] = {}
    relations: dict[str, int] = {}
    head_starts: list[ColumnRef] = []
    base_starts: list[ColumnRef] = []
    whole_head: list[str] = []
    whole_base: list[str] = []
    renamed: list[ColumnRef] = []
    added: list[ColumnRef] = []
    for change in changes:
        node = change.node
        if starting is not None and node not in starting:
            continue
        if change.change == "removed":
            whole_base.append(node)
            continue
        if change.change == "modified" and change.klass in WHOLE:
            whole_head.append(node)
            whole_base.append(node)
        for name, what in change.columns.items():
            if what in (LOGIC, RETYPED):
                head_starts.append(ColumnRef(node, name))
            elif what == REMOVED:
                base_starts.append(ColumnRef(node, name))
            elif what.startswith(RENAMED_PREFIX):
                renamed.append(ColumnRef(node, what[len(RENAMED_PREFIX) :]))
            elif what == ADDED and change.change == "modified":
                added.append(ColumnRef(node, name))
    changed = {change.node for change in changes}
    for side, starts, whole in ((head, head_starts, whole_head), (base, base_starts, whole_base)):
        _downstream_of(side, whole, reached, relations)
        for node_id in whole:
            starts.extend(ColumnRef(node_id, name) for name in side.graph.columns.get(node_id, {}))
        _walk(side, starts, reached, relations)
    # A renamed column keeps its values: it impacts the readers of its old name, except
    # those that follow the rename (their SQL changed to read the new name, same data).
    followers = {c.node for c in changes if c.klass == "none" and c.reads_differently}
    _walk(base, renamed, reached, relations, stop=followers)
    for ref in list(reached):
        if ref.node_id in changed and reached[ref].distance == 0:
            del reached[ref]
    columns = sorted(reached.values(), key=lambda c: (c.distance, c.ref.node_id, c.ref.column))
    models = sorted(
        (node_id for node_id in relations if node_id not in changed or relations[node_id] > 0),
        key=lambda node_id: (relations[node_id], node_id),
    )
    readers = set(models) | {
        change.node
        for change in changes
        if (change.klass in (*WHOLE, "partial") or change.change == "removed")
        and (starting is None or change.node in starting)
    }
    return Impacted(
        tuple(columns), tuple(models), _exposures(readers, base, head), _passed_on(head, added)
    )


def _passed_on(side: DiffSide, starts: list[ColumnRef]) -> tuple[ImpactedColumn, ...]:
    """The columns downstream that pass ``starts`` on unchanged (identity edges), through
    any chain of ``select *`` models: their schema grows, their data does not change."""
    distance: dict[ColumnRef, int] = {ref: 0 for ref in starts}
    found: list[ImpactedColumn] = []
    queue = collections.deque(starts)
    while queue:
        ref = queue.popleft()
        for edge in side.index.direct_out.get(ref, ()):
            other = edge.target
            if edge.kind is not EdgeKind.IDENTITY or not isinstance(other, ColumnRef):
                continue
            if other in distance or other.node_id == ref.node_id:
                continue
            distance[other] = distance[ref] + 1
            queue.append(other)
            found.append(ImpactedColumn(other, distance[other], ref, ADDED))
    return tuple(sorted(found, key=lambda c: (c.distance, c.ref.node_id, c.ref.column)))


def _walk(
    side: DiffSide,
    starts: t.Iterable[ColumnRef],
    reached: dict[ColumnRef, ImpactedColumn],
    relations: dict[str, int],
    stop: t.Collection[str] = (),
) -> None:
    """Breadth-first from ``starts`` along value-changing and row-set edges, into no node
    of ``stop``."""
    columns = side.graph.columns
    direct, indirect = side.index.direct_out, side.index.indirect_out
    distance: dict[ColumnRef, int] = {ref: 0 for ref in starts}
    queue = collections.deque(distance)
    while queue:
        ref = queue.popleft()
        level = distance[ref] + 1
        for edge in (*direct.get(ref, ()), *indirect.get(ref, ())):
            kind = edge.kind.value if edge.kind is not None else edge.type.value
            other = edge.target
            if isinstance(other, ColumnRef):
                targets = [other]
            else:
                targets = [ColumnRef(other, name) for name in columns.get(other, {})]
            for target in targets:
                if target in distance or target.node_id in stop:
                    continue
                distance[target] = level
                queue.append(target)
                _keep(reached, relations, ImpactedColumn(target, level, ref, kind))


def _downstream_of(
    side: DiffSide,
    nodes: t.Iterable[str],
    reached: dict[ColumnRef, ImpactedColumn],
    relations: dict[str, int],
) -> None:
    """Every column of every relation downstream of ``nodes`` (by dependency edges)."""
    graph, readers = side.graph, side.index.depends_out
    for start in nodes:
        seen = {start: 0}
        queue = collections.deque([start])
        while queue:
            parent = queue.popleft()
            for child in readers.get(parent, ()):
                node = graph.nodes.get(child)
                if child in seen or node is None or node.type is NodeType.EXPOSURE:
                    continue
                seen[child] = seen[parent] + 1
                queue.append(child)
                relations[child] = min(relations.get(child, seen[child]), seen[child])
                for name in graph.columns.get(child, {}):
                    impacted = ImpactedColumn(ColumnRef(child, name), seen[child], parent, "rows")
                    _keep(reached, relations, impacted)


def _keep(
    reached: dict[ColumnRef, ImpactedColumn],
    relations: dict[str, int],
    impacted: ImpactedColumn,
) -> None:
    kept = reached.get(impacted.ref)
    if kept is None or impacted.distance < kept.distance:
        reached[impacted.ref] = impacted
    node_id = impacted.ref.node_id
    relations[node_id] = min(relations.get(node_id, impacted.distance), impacted.distance)


def _exposures(readers: set[str], base: DiffSide, head: DiffSide) -> tuple[ImpactedExposure, ...]:
    found: dict[str, ImpactedExposure] = {}
    for side in (head, base):
        for node_id in readers:
            for child in side.index.exposures_of.get(node_id, ()):
                node = side.graph.nodes.get(child)
                if isinstance(node, ExposureNode) and child not in found:
                    found[child] = ImpactedExposure(
                        child, node.name, node.exposure_type, node.owner_name, node.owner_email
                    )
    return tuple(found[key] for key in sorted(found))
