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

from dbt_lineage.graph.model import EdgeType, ExposureNode, LineageGraph, NodeType
from dbt_lineage.queries.column_changes import LOGIC, REMOVED, RENAMED_PREFIX, RETYPED
from dbt_lineage.queries.node_changes import NodeChange
from dbt_lineage.types import ColumnRef

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
    """Impacted columns (nearest first), relations (nearest first) and exposures."""

    columns: tuple[ImpactedColumn, ...]
    models: tuple[str, ...]
    exposures: tuple[ImpactedExposure, ...]


def diff_impact(
    changes: t.Sequence[NodeChange], base: LineageGraph, head: LineageGraph
) -> Impacted:
    """Walk downstream from every changed column and every wholly changed node.

    Args:
        changes: from ``node_changes``.
        base: the base side's graph (removed and renamed columns are walked there).
        head: the head side's graph.
    """
    reached: dict[ColumnRef, ImpactedColumn] = {}
    relations: dict[str, int] = {}
    head_starts: list[ColumnRef] = []
    base_starts: list[ColumnRef] = []
    whole_head: list[str] = []
    whole_base: list[str] = []
    for change in changes:
        node = change.node
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
                base_starts.append(ColumnRef(node, what[len(RENAMED_PREFIX) :]))
    changed = {change.node for change in changes}
    for graph, starts, whole in ((head, head_starts, whole_head), (base, base_starts, whole_base)):
        _downstream_of(graph, whole, reached, relations)
        for node_id in whole:
            starts.extend(ColumnRef(node_id, name) for name in graph.columns.get(node_id, {}))
        _walk(graph, starts, reached, relations)
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
        if change.klass in (*WHOLE, "partial") or change.change == "removed"
    }
    return Impacted(tuple(columns), tuple(models), _exposures(readers, base, head))


def _walk(
    graph: LineageGraph,
    starts: t.Iterable[ColumnRef],
    reached: dict[ColumnRef, ImpactedColumn],
    relations: dict[str, int],
) -> None:
    """Breadth-first from ``starts`` along value-changing and row-set edges."""
    successors = graph.digraph().succ
    distance: dict[ColumnRef, int] = {ref: 0 for ref in starts}
    queue = collections.deque(distance)
    while queue:
        ref = queue.popleft()
        level = distance[ref] + 1
        for other, keyed in successors.get(ref, {}).items():
            for data in keyed.values():
                edge = data["edge"]
                kind = edge.kind.value if edge.kind is not None else edge.type.value
                if edge.changes_values:
                    targets = [other]
                elif edge.type is EdgeType.INDIRECT and isinstance(other, str):
                    targets = [ColumnRef(other, name) for name in graph.columns.get(other, {})]
                else:
                    continue
                for target in targets:
                    if target in distance:
                        continue
                    distance[target] = level
                    queue.append(target)
                    _keep(reached, relations, ImpactedColumn(target, level, ref, kind))


def _downstream_of(
    graph: LineageGraph,
    nodes: t.Iterable[str],
    reached: dict[ColumnRef, ImpactedColumn],
    relations: dict[str, int],
) -> None:
    """Every column of every relation downstream of ``nodes`` (by dependency edges)."""
    successors = graph.digraph().succ
    for start in nodes:
        seen = {start: 0}
        queue = collections.deque([start])
        while queue:
            parent = queue.popleft()
            for child, keyed in successors.get(parent, {}).items():
                if not isinstance(child, str) or child in seen:
                    continue
                if not any(d["edge"].type is EdgeType.DEPENDS for d in keyed.values()):
                    continue
                node = graph.nodes.get(child)
                if node is None or node.type is NodeType.EXPOSURE:
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


def _exposures(
    readers: set[str], base: LineageGraph, head: LineageGraph
) -> tuple[ImpactedExposure, ...]:
    found: dict[str, ImpactedExposure] = {}
    for graph in (head, base):
        successors = graph.digraph().succ
        for node_id in readers:
            for child in successors.get(node_id, {}):
                node = graph.nodes.get(child) if isinstance(child, str) else None
                if isinstance(node, ExposureNode) and child not in found:
                    found[child] = ImpactedExposure(
                        child, node.name, node.exposure_type, node.owner_name, node.owner_email
                    )
    return tuple(found[key] for key in sorted(found))
