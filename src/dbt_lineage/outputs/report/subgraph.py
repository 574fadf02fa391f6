"""The part of a graph a ``--select`` report shows: the chosen nodes and their lineage."""

from __future__ import annotations

import collections
import typing as t

from dbt_lineage.graph.model import EdgeType, LineageGraph
from dbt_lineage.types import ColumnRef


def subgraph(graph: LineageGraph, node_ids: t.Iterable[str]) -> LineageGraph:
    """The chosen nodes, every node upstream and downstream of them, and the edges between.

    Upstream and downstream follow dependency edges (relation to relation, relation to
    exposure), so a selected model keeps its sources and the exposures that read it.

    >>> from dbt_lineage.graph.model import LineageEdge, NodeType, RelationNode
    >>> nodes = {i: RelationNode(node_id=i, type=NodeType.MODEL, name=i) for i in "abcd"}
    >>> edges = [LineageEdge("a", "b", EdgeType.DEPENDS), LineageEdge("b", "c", EdgeType.DEPENDS)]
    >>> sorted(subgraph(LineageGraph(nodes=nodes, edges=edges), ["b"]).nodes)
    ['a', 'b', 'c']
    """
    parents: dict[str, list[str]] = collections.defaultdict(list)
    children: dict[str, list[str]] = collections.defaultdict(list)
    for edge in graph.edges:
        if edge.type is EdgeType.DEPENDS:
            parents[str(edge.target)].append(str(edge.source))
            children[str(edge.source)].append(str(edge.target))
    chosen = set(node_ids)
    keep = set(chosen)
    for neighbours in (parents, children):
        pending = collections.deque(chosen)
        seen = set(chosen)
        while pending:
            for other in neighbours.get(pending.popleft(), ()):
                if other not in seen:
                    seen.add(other)
                    keep.add(other)
                    pending.append(other)
    return LineageGraph(
        metadata=graph.metadata,
        nodes={node_id: node for node_id, node in graph.nodes.items() if node_id in keep},
        columns={node_id: cols for node_id, cols in graph.columns.items() if node_id in keep},
        edges=[
            edge
            for edge in graph.edges
            if _owner(edge.source) in keep and _owner(edge.target) in keep
        ],
        diagnostics=[item for item in graph.diagnostics if item.node_id in keep],
    )


def _owner(key: t.Any) -> str:
    return key.node_id if isinstance(key, ColumnRef) else str(key)
