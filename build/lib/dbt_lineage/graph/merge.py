"""Put the nodes of a selected build into the graph of an earlier full build."""

from __future__ import annotations

import dataclasses

from dbt_lineage.graph.model import RELATION_TYPES, LineageGraph
from dbt_lineage.types import ColumnRef


def merge(earlier: LineageGraph, update: LineageGraph) -> LineageGraph:
    """``earlier`` with every relation of ``update`` (and its columns, the edges into them
    and its diagnostics) replaced by ``update``'s; everything else kept as it was.

    >>> from dbt_lineage.graph.model import RelationNode, NodeType
    >>> a = RelationNode(node_id="model.p.a", type=NodeType.MODEL, name="a")
    >>> b = RelationNode(node_id="model.p.b", type=NodeType.MODEL, name="b", description="new")
    >>> merged = merge(LineageGraph(nodes={"model.p.a": a, "model.p.b": a}),
    ...                LineageGraph(nodes={"model.p.b": b}))
    >>> [(n, node.description) for n, node in merged.nodes.items()]
    [('model.p.a', ''), ('model.p.b', 'new')]
    """
    replaced = {node_id for node_id, node in update.nodes.items() if node.type in RELATION_TYPES}

    def kept(key: object) -> bool:
        node_id = key.node_id if isinstance(key, ColumnRef) else key
        return node_id not in replaced

    nodes = dict(earlier.nodes)
    columns = dict(earlier.columns)
    for node_id in replaced:
        nodes[node_id] = update.nodes[node_id]
        columns[node_id] = update.columns.get(node_id, {})
    for node_id, node in update.nodes.items():
        nodes.setdefault(node_id, node)
        columns.setdefault(node_id, update.columns.get(node_id, {}))
    edges = [edge for edge in earlier.edges if kept(edge.target)]
    edges += [edge for edge in update.edges if not kept(edge.target)]
    diagnostics = [item for item in earlier.diagnostics if item.node_id not in replaced]
    diagnostics += [item for item in update.diagnostics if item.node_id in replaced]
    metadata = dataclasses.replace(update.metadata, selected=tuple(sorted(replaced)))
    return LineageGraph(
        metadata=metadata, nodes=nodes, columns=columns, edges=edges, diagnostics=diagnostics
    )
