"""Downstream: every column derived from one column, by distance and kind."""

from __future__ import annotations

import typing as t

from dbt_lineage.graph.model import LineageGraph
from dbt_lineage.queries.impact import ImpactReport, _report
from dbt_lineage.types import ColumnRef


def downstream(
    graph: LineageGraph,
    column: ColumnRef,
    *,
    depth: int | None = None,
    kinds: t.Iterable[str] | None = None,
    include_indirect: bool = False,
) -> ImpactReport:
    """The columns that ``column`` feeds, with the relations and exposures they reach.

    Args:
        graph: the lineage graph.
        column: where to start.
        depth: follow at most this many edges.
        kinds: follow only edges of these kinds (``identity``, ``transform``, ``aggregate``,
            or indirect subtypes such as ``window``); every kind when None.
        include_indirect: also follow row-set edges (see ``impact``).

    >>> from dbt_lineage.graph.model import (
    ...     ColumnNode, EdgeType, LineageEdge, NodeType, RelationNode)
    >>> from dbt_lineage.types import EdgeKind
    >>> def col(node, name):
    ...     return ColumnNode(node_id=node, column=name, type=NodeType.COLUMN, name=name)
    >>> a, b, c = ColumnRef("model.p.a", "x"), ColumnRef("model.p.b", "x"), ColumnRef(
    ...     "model.p.c", "n")
    >>> graph = LineageGraph(
    ...     nodes={r.node_id: RelationNode(node_id=r.node_id, type=NodeType.MODEL, name="m")
    ...            for r in (a, b, c)},
    ...     columns={r.node_id: {r.column: col(*r)} for r in (a, b, c)},
    ...     edges=[LineageEdge(a, b, EdgeType.DIRECT, EdgeKind.IDENTITY),
    ...            LineageEdge(b, c, EdgeType.DIRECT, EdgeKind.AGGREGATE)],
    ... )
    >>> for r in downstream(graph, a).columns:
    ...     print(r.ref.node_id, r.distance, r.kind, r.path_kinds)
    model.p.b 1 identity ('identity',)
    model.p.c 2 aggregate ('identity', 'aggregate')
    >>> [r.ref.node_id for r in downstream(graph, a, kinds=["identity"]).columns]
    ['model.p.b']

    Raises:
        SelectionError: the column is not in the graph, or a kind does not exist.
    """
    return _report(
        graph,
        "downstream",
        column,
        reverse=False,
        depth=depth,
        kinds=kinds,
        include_indirect=include_indirect,
    )
