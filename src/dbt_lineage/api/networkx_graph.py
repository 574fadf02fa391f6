"""A lineage graph as a plain networkx ``MultiDiGraph``, for users' own graph algorithms."""

from __future__ import annotations

import typing as t

from dbt_lineage.graph.model import LineageGraph
from dbt_lineage.types import ColumnRef

if t.TYPE_CHECKING:
    import networkx


def networkx_graph(graph: LineageGraph) -> networkx.MultiDiGraph:
    """``graph`` as a new ``MultiDiGraph``, independent of it.

    Nodes: each relation and exposure by its unique id (``"model.shop.orders"``), with
    ``type`` (``model``, ``source``, ``seed``, ``snapshot``, ``exposure``), ``name``,
    ``layer`` and ``description``; each column by its ``ColumnRef`` (a named tuple
    ``(node_id, column)``), with ``type`` ``"column"``, ``relation`` (its node's id),
    ``name``, ``layer``, ``data_type``, ``resolved`` and ``description``.

    Edges, one per lineage edge: ``type`` (``direct``: column to column; ``indirect``: a
    column that steers the rows of a relation, or a window key of a column; ``depends``:
    relation to relation or exposure), ``kind`` (``identity``, ``transform``, ``aggregate``,
    or the indirect subtype ``join``, ``filter``, ``group_by``, ``window``, ``sort``,
    ``distinct``; None for ``depends``), ``layer`` and ``expression`` (the SQL).

    >>> from dbt_lineage.graph.model import (
    ...     ColumnNode, EdgeType, LineageEdge, NodeType, RelationNode)
    >>> from dbt_lineage.types import EdgeKind
    >>> a, b = ColumnRef("model.p.a", "x"), ColumnRef("model.p.b", "total")
    >>> lineage = LineageGraph(
    ...     nodes={r.node_id: RelationNode(node_id=r.node_id, type=NodeType.MODEL, name="m")
    ...            for r in (a, b)},
    ...     columns={r.node_id: {r.column: ColumnNode(node_id=r.node_id, column=r.column,
    ...                                               type=NodeType.COLUMN, name=r.column)}
    ...              for r in (a, b)},
    ...     edges=[LineageEdge(a, b, EdgeType.DIRECT, EdgeKind.AGGREGATE, "sum(x)")])
    >>> g = networkx_graph(lineage)
    >>> [(t.column, d["kind"], d["expression"]) for _, t, d in g.edges(a, data=True)]
    [('total', 'aggregate', 'sum(x)')]
    >>> g.nodes[b]["relation"], g.nodes["model.p.b"]["type"]
    ('model.p.b', 'model')
    """
    import networkx

    result = networkx.MultiDiGraph(
        project=graph.metadata.project_name, manifest_checksum=graph.metadata.manifest_checksum
    )
    result.add_nodes_from(
        (
            node_id,
            {
                "type": node.type.value,
                "name": node.name,
                "layer": node.layer.value,
                "description": node.description,
            },
        )
        for node_id, node in graph.nodes.items()
    )
    result.add_nodes_from(
        (
            ColumnRef(node_id, name),
            {
                "type": "column",
                "relation": node_id,
                "name": name,
                "layer": column.layer.value,
                "data_type": column.data_type,
                "resolved": column.resolved,
                "description": column.description,
            },
        )
        for node_id, by_name in graph.columns.items()
        for name, column in by_name.items()
    )
    result.add_edges_from(
        (
            edge.source,
            edge.target,
            {
                "type": edge.type.value,
                "kind": edge.kind.value if edge.kind is not None else None,
                "layer": edge.layer.value,
                "expression": edge.expression,
            },
        )
        for edge in graph.edges
    )
    return result
