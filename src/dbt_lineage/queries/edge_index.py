"""Adjacency lists over a graph's edges, for queries that walk the whole graph.

``LineageGraph.digraph()`` (networkx) is the index for walks from one column; the governance
queries (classification, documentation inheritance, coverage) visit every column, and a
plain dict of lists built in one pass over the edges is several times cheaper to build and
to walk at 100,000s of columns.
"""

from __future__ import annotations

import dataclasses

from dbt_lineage.graph.model import EdgeType, LineageEdge, LineageGraph, NodeType
from dbt_lineage.queries.gc_paused import gc_paused
from dbt_lineage.types import ColumnRef


@dataclasses.dataclass(frozen=True)
class EdgeIndex:
    """The graph's edges by endpoint.

    Attributes:
        direct_out: a column's direct edges to the columns derived from it.
        direct_in: a column's direct edges from the columns it derives from.
        indirect_out: a column's indirect edges, to a relation (row-set) or to a column
            (column-scoped: window keys).
        scoped_in: a column's column-scoped indirect edges (the keys of its window).
        depends_out: the relations and exposures reading each relation, by node id.
        depends_in: the relations each relation or exposure reads, by node id.
        exposures_of: the exposures reading each relation, by node id.
    """

    direct_out: dict[ColumnRef, list[LineageEdge]]
    direct_in: dict[ColumnRef, list[LineageEdge]]
    indirect_out: dict[ColumnRef, list[LineageEdge]]
    scoped_in: dict[ColumnRef, list[LineageEdge]]
    depends_out: dict[str, list[str]]
    depends_in: dict[str, list[str]]
    exposures_of: dict[str, list[str]]


def edge_index(graph: LineageGraph) -> EdgeIndex:
    """Index ``graph``'s schema-layer edges by endpoint, in one pass.

    >>> from dbt_lineage.graph.model import LineageEdge
    >>> from dbt_lineage.types import EdgeKind
    >>> a, b = ColumnRef("model.p.a", "x"), ColumnRef("model.p.b", "x")
    >>> index = edge_index(LineageGraph(edges=[
    ...     LineageEdge(a, b, EdgeType.DIRECT, EdgeKind.IDENTITY),
    ...     LineageEdge(a, "model.p.b", EdgeType.INDIRECT, EdgeKind.FILTER)]))
    >>> [e.target for e in index.direct_out[a]], [e.target for e in index.indirect_out[a]]
    ([ColumnRef(node_id='model.p.b', column='x')], ['model.p.b'])
    """
    with gc_paused():
        return _index(graph)


def _index(graph: LineageGraph) -> EdgeIndex:
    direct_out: dict[ColumnRef, list[LineageEdge]] = {}
    direct_in: dict[ColumnRef, list[LineageEdge]] = {}
    indirect_out: dict[ColumnRef, list[LineageEdge]] = {}
    scoped_in: dict[ColumnRef, list[LineageEdge]] = {}
    depends_out: dict[str, list[str]] = {}
    depends_in: dict[str, list[str]] = {}
    exposures_of: dict[str, list[str]] = {}
    nodes = graph.nodes
    for edge in graph.edges:
        kind = edge.type
        if kind is EdgeType.DIRECT:
            direct_out.setdefault(edge.source, []).append(edge)  # type: ignore[arg-type]
            direct_in.setdefault(edge.target, []).append(edge)  # type: ignore[arg-type]
        elif kind is EdgeType.INDIRECT:
            indirect_out.setdefault(edge.source, []).append(edge)  # type: ignore[arg-type]
            if isinstance(edge.target, ColumnRef):
                scoped_in.setdefault(edge.target, []).append(edge)
        elif kind is EdgeType.DEPENDS:
            source, target = str(edge.source), str(edge.target)
            depends_out.setdefault(source, []).append(target)
            depends_in.setdefault(target, []).append(source)
            node = nodes.get(target)
            if node is not None and node.type is NodeType.EXPOSURE:
                exposures_of.setdefault(source, []).append(target)
    return EdgeIndex(
        direct_out, direct_in, indirect_out, scoped_in, depends_out, depends_in, exposures_of
    )
