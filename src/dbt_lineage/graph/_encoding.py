"""The nested JSON layout of ``lineage.json``, shared by the reader and the writer.

Relations nest their columns; edges nest under the key of the node they point to.
Nothing is keyed by a joined string.
"""

from __future__ import annotations

import typing as t

from dbt_lineage.graph.model import (
    EDGE_DEFAULTS,
    NODE_DEFAULTS,
    SCHEMA_VERSION,
    Diagnostic,
    EdgeType,
    GraphMetadata,
    LineageEdge,
    LineageGraph,
    LineageNode,
    NodeType,
    fast_construct,
)
from dbt_lineage.types import ColumnRef, Layer

_NODE_FIELDS = ("data_type", "description", "relation_name", "materialized", "path", "meta")


def encode(graph: LineageGraph) -> dict[str, t.Any]:
    nodes: dict[str, t.Any] = {}
    for node_id, node in graph.nodes.items():
        entry = _encode_node(node)
        entry["columns"] = {
            name: _encode_node(column) for name, column in graph.columns.get(node_id, {}).items()
        }
        nodes[node_id] = entry
    direct: dict[str, dict[str, list[dict[str, t.Any]]]] = {}
    indirect: dict[str, list[dict[str, t.Any]]] = {}
    depends: dict[str, list[dict[str, t.Any]]] = {}
    for edge in graph.edges:
        source = edge.source
        entry = (
            {"node": source.node_id, "column": source.column}
            if isinstance(source, ColumnRef)
            else {"node": source}
        )
        entry.update(layer=edge.layer.value)
        if edge.kind:
            entry["kind"] = edge.kind
        if edge.expression:
            entry["expression"] = edge.expression
        target = edge.target
        if edge.type is EdgeType.DIRECT and isinstance(target, ColumnRef):
            direct.setdefault(target.node_id, {}).setdefault(target.column, []).append(entry)
        elif edge.type is EdgeType.INDIRECT:
            indirect.setdefault(_node_id(target), []).append(entry)
        else:
            depends.setdefault(_node_id(target), []).append(entry)
    return {
        "schema_version": SCHEMA_VERSION,
        "metadata": graph.metadata.model_dump(mode="json"),
        "nodes": nodes,
        "edges": {"direct": direct, "indirect": indirect, "depends": depends},
        "diagnostics": [diagnostic.model_dump(mode="json") for diagnostic in graph.diagnostics],
    }


def decode(document: dict[str, t.Any]) -> LineageGraph:
    nodes: dict[str, LineageNode] = {}
    columns: dict[str, dict[str, LineageNode]] = {}
    for node_id, entry in document["nodes"].items():
        nodes[node_id] = _decode_node(node_id, None, entry)
        columns[node_id] = {
            name: _decode_node(node_id, name, column)
            for name, column in entry.get("columns", {}).items()
        }
    edges: list[LineageEdge] = []
    sections = document["edges"]
    for node_id, by_column in sections.get("direct", {}).items():
        for column, entries in by_column.items():
            target = ColumnRef(node_id, column)
            edges.extend(_decode_edge(entry, target, EdgeType.DIRECT) for entry in entries)
    for edge_type in (EdgeType.INDIRECT, EdgeType.DEPENDS):
        for node_id, entries in sections.get(edge_type.value, {}).items():
            edges.extend(_decode_edge(entry, node_id, edge_type) for entry in entries)
    return LineageGraph.model_construct(
        metadata=GraphMetadata.model_validate(document["metadata"]),
        nodes=nodes,
        columns=columns,
        edges=edges,
        diagnostics=[Diagnostic.model_validate(item) for item in document["diagnostics"]],
    )


def _node_id(key: str | ColumnRef) -> str:
    return key.node_id if isinstance(key, ColumnRef) else key


def _encode_node(node: LineageNode) -> dict[str, t.Any]:
    entry: dict[str, t.Any] = {"type": node.type.value, "layer": node.layer.value}
    if node.column is None:
        entry["name"] = node.name
    for field in _NODE_FIELDS:
        value = getattr(node, field)
        if value:
            entry[field] = value
    if node.tags:
        entry["tags"] = list(node.tags)
    if not node.resolved:
        entry["resolved"] = False
        entry["reason"] = node.reason
    return entry


def _decode_node(node_id: str, column: str | None, entry: dict[str, t.Any]) -> LineageNode:
    values = {field: entry[field] for field in _NODE_FIELDS if field in entry}
    return fast_construct(
        LineageNode,
        NODE_DEFAULTS,
        node_id=node_id,
        column=column,
        type=NodeType(entry["type"]),
        layer=Layer(entry.get("layer", "schema")),
        name=entry.get("name", column or node_id),
        tags=tuple(entry.get("tags", ())),
        resolved=entry.get("resolved", True),
        reason=entry.get("reason", ""),
        **values,
    )


def _decode_edge(
    entry: dict[str, t.Any], target: str | ColumnRef, edge_type: EdgeType
) -> LineageEdge:
    column = entry.get("column")
    source: str | ColumnRef = (
        ColumnRef(entry["node"], column) if column is not None else entry["node"]
    )
    return fast_construct(
        LineageEdge,
        EDGE_DEFAULTS,
        source=source,
        target=target,
        type=edge_type,
        layer=Layer(entry.get("layer", "schema")),
        kind=entry.get("kind", ""),
        expression=entry.get("expression", ""),
    )
