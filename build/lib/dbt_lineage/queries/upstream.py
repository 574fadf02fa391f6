"""Upstream: every column one column derives from, by distance and kind."""

from __future__ import annotations

import typing as t

from dbt_lineage.graph.model import LineageGraph
from dbt_lineage.queries.impact import ImpactReport, _report
from dbt_lineage.types import ColumnRef


def upstream(
    graph: LineageGraph,
    column: ColumnRef,
    *,
    depth: int | None = None,
    kinds: t.Iterable[str] | None = None,
    include_indirect: bool = True,
) -> ImpactReport:
    """The columns ``column`` derives from, back to sources, with their relations.

    A reached column's ``kind`` says how ``column`` derives from it (``aggregate`` if any
    edge between them aggregates; an indirect subtype such as ``join`` when the path crosses
    a column that only steers rows); ``path_kinds`` walks from ``column`` upstream. By
    default the columns that join or filter a relation count as upstream of each of its
    columns, marked by their subtype. The report has no exposures (nothing is upstream of a
    relation's readers).

    Args:
        graph: the lineage graph.
        column: where to start.
        depth: follow at most this many edges.
        kinds: follow only edges of these kinds; every kind when None.
        include_indirect: also follow row-set edges (joins, filters, group-by...).

    >>> from dbt_lineage.graph.model import (
    ...     ColumnNode, EdgeType, LineageEdge, NodeType, RelationNode)
    >>> from dbt_lineage.types import EdgeKind
    >>> def col(node, name):
    ...     return ColumnNode(node_id=node, column=name, type=NodeType.COLUMN, name=name)
    >>> a, b = ColumnRef("source.p.raw.t", "x"), ColumnRef("model.p.b", "total")
    >>> graph = LineageGraph(
    ...     nodes={"source.p.raw.t": RelationNode(
    ...                node_id="source.p.raw.t", type=NodeType.SOURCE, name="raw.t"),
    ...            "model.p.b": RelationNode(node_id="model.p.b", type=NodeType.MODEL, name="b")},
    ...     columns={r.node_id: {r.column: col(*r)} for r in (a, b)},
    ...     edges=[LineageEdge(a, b, EdgeType.DIRECT, EdgeKind.AGGREGATE)],
    ... )
    >>> report = upstream(graph, b, include_indirect=False)
    >>> [(r.ref.column, r.distance, r.kind) for r in report.columns]
    [('x', 1, 'aggregate')]
    >>> [(r.node_id, r.type) for r in report.relations]
    [('source.p.raw.t', 'source')]

    Raises:
        SelectionError: the column is not in the graph, or a kind does not exist.
    """
    return _report(
        graph,
        "upstream",
        column,
        reverse=True,
        depth=depth,
        kinds=kinds,
        include_indirect=include_indirect,
    )
