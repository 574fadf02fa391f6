"""Completeness: how much of the project's column lineage is resolved, and what is not."""

from __future__ import annotations

import collections
import dataclasses

from dbt_lineage.graph.model import EdgeType, LineageGraph, NodeType
from dbt_lineage.types import ColumnRef

COUNTED_TYPES = (NodeType.MODEL, NodeType.SNAPSHOT, NodeType.SEED)
"""Relations whose columns count toward coverage (sources are where lineage starts)."""


@dataclasses.dataclass
class Coverage:
    relations: dict[str, int]
    columns_total: int
    columns_resolved: int
    unresolved: dict[str, list[ColumnRef]]
    """Unresolved columns grouped by reason code."""
    no_upstream: list[str]
    """Models and snapshots that read no relation of the project."""
    orphans: list[str]
    """Relations nothing reads and no exposure uses, that read nothing themselves."""

    @property
    def percent(self) -> float:
        if not self.columns_total:
            return 100.0
        return 100.0 * self.columns_resolved / self.columns_total


def coverage(graph: LineageGraph) -> Coverage:
    """Count resolved columns of models, snapshots and seeds; group the rest by reason."""
    relations: collections.Counter[str] = collections.Counter()
    total = resolved = 0
    unresolved: dict[str, list[ColumnRef]] = {}
    for node_id, node in graph.nodes.items():
        relations[node.type.value] += 1
        if node.type not in COUNTED_TYPES:
            continue
        for column in graph.columns.get(node_id, {}).values():
            total += 1
            if column.resolved:
                resolved += 1
            else:
                code = column.reason.split(":", 1)[0]
                unresolved.setdefault(code, []).append(ColumnRef(node_id, column.name))
    has_parent: set[str] = set()
    has_child: set[str] = set()
    for edge in graph.edges:
        if edge.type is EdgeType.DEPENDS:
            has_parent.add(str(edge.target))
            has_child.add(str(edge.source))
    no_upstream = sorted(
        node_id
        for node_id, node in graph.nodes.items()
        if node.type in (NodeType.MODEL, NodeType.SNAPSHOT) and node_id not in has_parent
    )
    orphans = sorted(
        node_id
        for node_id, node in graph.nodes.items()
        if node.type is not NodeType.EXPOSURE
        and node_id not in has_parent
        and node_id not in has_child
    )
    return Coverage(dict(relations), total, resolved, unresolved, no_upstream, orphans)
