"""A ``LineageGraph`` from a ``lineage.json`` document (see ``document`` for its layout)."""

from __future__ import annotations

import typing as t

from dbt_lineage.graph.column_entries import column_entries
from dbt_lineage.graph.document import EdgeEntry, NodeEntry
from dbt_lineage.graph.model import (
    EMPTY,
    EXPOSURE_FIELDS,
    RELATION_FIELDS,
    ColumnNode,
    Diagnostic,
    EdgeType,
    ExposureNode,
    GraphMetadata,
    LineageEdge,
    LineageGraph,
    LineageNode,
    NodeType,
    RelationNode,
)
from dbt_lineage.types import ColumnRef, EdgeKind, Layer


def decode(document: dict[str, t.Any]) -> LineageGraph:
    """A graph from a checked document, or from one our own build wrote, as parsed (enum
    fields as their values: ``load_graph`` skips the check for those).

    The document is emptied as it is read, so that each section's entries are freed as
    soon as the graph holds them (at 10,000 models the entries and the graph are some
    150 MB each).
    """
    nodes: dict[str, LineageNode] = {}
    columns: dict[str, dict[str, ColumnNode]] = {}
    entries = document.pop("nodes")
    while entries:
        node_id, entry = entries.popitem()
        nodes[node_id] = _decode_node(node_id, entry)
        columns[node_id] = column_entries(node_id, entry.get("columns", {}))
    # popitem took them last first: the file's order back, as the graph was written
    nodes = dict(reversed(nodes.items()))
    columns = dict(reversed(columns.items()))
    edges: list[LineageEdge] = []
    sections = document.pop("edges")
    direct, indirect = EdgeType.DIRECT, EdgeType.INDIRECT
    for node_id, by_column in sections.pop("direct", {}).items():
        for column, group in by_column.items():
            _decode_edges(group, ColumnRef(node_id, column), direct, edges)
        by_column.clear()  # the entries, as soon as their edges are made
    for node_id, section in sections.pop("indirect", {}).items():
        _decode_edges(section.get("rows", ()), node_id, indirect, edges)
        for column, group in section.get("columns", {}).items():
            _decode_edges(group, ColumnRef(node_id, column), indirect, edges)
    for node_id, group in sections.pop("depends", {}).items():
        _decode_edges(group, node_id, EdgeType.DEPENDS, edges)
    metadata = dict(document["metadata"])
    metadata["selected"] = tuple(metadata.get("selected", ()))
    return LineageGraph(
        metadata=GraphMetadata(**metadata),
        nodes=nodes,
        columns=columns,
        edges=edges,
        diagnostics=[
            Diagnostic(
                item["node_id"],
                item["reason"],
                item["message"],
                item.get("path", ""),
                tuple(item.get("columns", ())),
            )
            for item in document.get("diagnostics", [])
        ],
    )


def _decode_node(node_id: str, entry: NodeEntry) -> LineageNode:
    common: dict[str, t.Any] = {
        "node_id": node_id,
        "type": _NODE_TYPES[entry["type"]],
        "name": entry["name"],
        "layer": _LAYERS[entry.get("layer", Layer.SCHEMA)],
        "description": entry.get("description", ""),
        "path": entry.get("path", ""),
        "meta": entry.get("meta") or EMPTY,
        "tags": tuple(entry.get("tags", ())),
    }
    if common["type"] is NodeType.EXPOSURE:
        exposure = {field: entry.get(field, "") for field in EXPOSURE_FIELDS}
        return ExposureNode(**common, **exposure)
    relation = {field: entry.get(field, "") for field in RELATION_FIELDS}
    return RelationNode(**common, **relation)


def _decode_edges(
    entries: t.Iterable[EdgeEntry],
    target: str | ColumnRef,
    edge_type: EdgeType,
    edges: list[LineageEdge],
) -> None:
    """Append the edges of ``entries``, which all point to ``target``, to ``edges``.

    One call per target, not per edge: at 300,000 edges the calls were a third of decoding.
    """
    kinds, new, append = _KINDS, tuple.__new__, edges.append
    for entry in entries:
        column = entry.get("column")
        node = entry["node"]
        kind = entry.get("kind")
        append(
            LineageEdge(
                # ColumnRef(node, column) without the named tuple's __new__ in Python
                new(ColumnRef, (node, column)) if column is not None else node,
                target,
                edge_type,
                kinds[kind] if kind else None,
                entry.get("expression", ""),
            )
        )


# Each member by its value; a member finds itself too (they are ``str`` enums).
_NODE_TYPES = {member.value: member for member in NodeType}
_LAYERS = {member.value: member for member in Layer}
_KINDS = {member.value: member for member in EdgeKind}
