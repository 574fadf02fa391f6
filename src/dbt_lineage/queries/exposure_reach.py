"""Which columns and relations have a path to an exposure (a dashboard, an application...)."""

from __future__ import annotations

import dataclasses

from dbt_lineage.graph.model import LineageGraph, NodeType
from dbt_lineage.queries.edge_index import EdgeIndex, edge_index
from dbt_lineage.types import ColumnRef


@dataclasses.dataclass(frozen=True)
class Reach:
    """Columns whose values reach an exposure, and relations with a path to one."""

    columns: frozenset[ColumnRef]
    relations: frozenset[str]


def exposure_reach(graph: LineageGraph, *, index: EdgeIndex | None = None) -> Reach:
    """The columns and relations upstream of an exposure.

    A column reaches an exposure when its relation is read by one, or when a column derived
    from it does: along direct edges and column-scoped indirect edges (the keys of a window),
    the edges that change values. A relation reaches one along dependency edges.

    >>> from dbt_lineage.graph.model import (
    ...     ColumnNode, EdgeType, ExposureNode, LineageEdge, RelationNode)
    >>> from dbt_lineage.types import EdgeKind
    >>> a, b = ColumnRef("model.p.a", "x"), ColumnRef("model.p.b", "y")
    >>> graph = LineageGraph(
    ...     nodes={"model.p.a": RelationNode(node_id="model.p.a", type=NodeType.MODEL, name="a"),
    ...            "model.p.b": RelationNode(node_id="model.p.b", type=NodeType.MODEL, name="b"),
    ...            "exposure.p.e": ExposureNode(node_id="exposure.p.e", type=NodeType.EXPOSURE,
    ...                                         name="e")},
    ...     columns={r.node_id: {r.column: ColumnNode(node_id=r.node_id, column=r.column,
    ...                                               type=NodeType.COLUMN, name=r.column)}
    ...              for r in (a, b)},
    ...     edges=[LineageEdge(a, b, EdgeType.DIRECT, EdgeKind.IDENTITY),
    ...            LineageEdge("model.p.a", "model.p.b", EdgeType.DEPENDS),
    ...            LineageEdge("model.p.b", "exposure.p.e", EdgeType.DEPENDS)])
    >>> reach = exposure_reach(graph)
    >>> sorted(reach.columns) == [a, b], sorted(reach.relations)
    (True, ['model.p.a', 'model.p.b'])
    """
    index = index or edge_index(graph)
    read = [node_id for node_id in index.exposures_of if node_id in graph.nodes]
    relations = set(read)
    pending = list(read)
    while pending:
        node_id = pending.pop()
        for parent in index.depends_in.get(node_id, ()):
            node = graph.nodes.get(parent)
            if parent not in relations and node is not None and node.type is not NodeType.EXPOSURE:
                relations.add(parent)
                pending.append(parent)
    columns = {
        ColumnRef(node_id, name) for node_id in read for name in graph.columns.get(node_id, {})
    }
    stack = list(columns)
    while stack:
        ref = stack.pop()
        for edges in (index.direct_in.get(ref, ()), index.scoped_in.get(ref, ())):
            for edge in edges:
                source = edge.source
                if isinstance(source, ColumnRef) and source not in columns:
                    columns.add(source)
                    stack.append(source)
    return Reach(frozenset(columns), frozenset(relations))
