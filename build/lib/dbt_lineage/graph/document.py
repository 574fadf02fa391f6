"""The layout of ``lineage.json``, checked by pydantic at the boundary.

Relations nest their columns; edges nest under the key of the node they point to: direct
edges under the target column, indirect edges under the relation (``rows``: they steer its
row set) or under the column they steer (``columns``: window keys of a computed column).
Nothing is keyed by a joined string. Every node and edge in the file says its layer, which is
always ``schema``: the instance layer lives in the warehouse.
"""

from __future__ import annotations

import typing as t

import pydantic
import pydantic_core

from dbt_lineage.graph.model import (
    SCHEMA_VERSION,
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


class _Strict(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(extra="forbid", frozen=True)


class ColumnEntry(_Strict):
    data_type: str = ""
    description: str = ""
    meta: dict[str, t.Any] = {}
    tags: list[str] = []
    resolved: bool = True
    reason: str = ""
    inferred: bool = False


class NodeEntry(_Strict):
    type: NodeType
    layer: Layer = Layer.SCHEMA
    name: str
    description: str = ""
    path: str = ""
    meta: dict[str, t.Any] = {}
    tags: list[str] = []
    relation_name: str = ""
    materialized: str = ""
    package_name: str = ""
    columns_from: str = ""
    exposure_type: str = ""
    label: str = ""
    url: str = ""
    maturity: str = ""
    owner_name: str = ""
    owner_email: str = ""
    columns: dict[str, ColumnEntry] = {}


class EdgeEntry(_Strict):
    node: str
    column: str | None = None
    layer: t.Literal[Layer.SCHEMA] = Layer.SCHEMA
    kind: EdgeKind | None = None
    expression: str = ""


class IndirectEntries(_Strict):
    rows: list[EdgeEntry] = []
    columns: dict[str, list[EdgeEntry]] = {}


class Edges(_Strict):
    direct: dict[str, dict[str, list[EdgeEntry]]] = {}
    indirect: dict[str, IndirectEntries] = {}
    depends: dict[str, list[EdgeEntry]] = {}


class DiagnosticEntry(_Strict):
    node_id: str
    reason: str
    message: str
    path: str = ""
    columns: list[str] = []


class MetadataEntry(_Strict):
    schema_version: int = SCHEMA_VERSION
    dbt_lineage_version: str = ""
    project_name: str = ""
    adapter_type: str = ""
    dbt_version: str = ""
    manifest_schema_version: str = ""
    manifest_checksum: str = ""
    catalog_checksum: str = ""
    generated_at: str = ""
    has_catalog: bool = False
    selected: list[str] = []


class Document(_Strict):
    """``lineage.json`` as a whole."""

    schema_version: t.Literal[2]
    metadata: MetadataEntry
    nodes: dict[str, NodeEntry]
    edges: Edges
    diagnostics: list[DiagnosticEntry] = []


_RELATION_FIELDS = ("relation_name", "materialized", "package_name", "columns_from")
_EXPOSURE_FIELDS = ("exposure_type", "label", "url", "maturity", "owner_name", "owner_email")
_COMMON_FIELDS = ("description", "path", "meta")


def encode(graph: LineageGraph) -> t.Iterator[bytes]:
    """The graph's schema layer as the ``lineage.json`` document, in pieces of JSON.

    Piece by piece (a node's entry, a node's edges) so that a large graph is never held
    twice more in memory, as a document and as its text.
    """
    to_json = pydantic_core.to_json
    yield b'{"schema_version":' + to_json(SCHEMA_VERSION)
    yield b',"metadata":' + to_json(_encode_metadata(graph.metadata))
    yield b',"nodes":{'
    separator = b""
    for node_id, node in graph.nodes.items():
        if node.layer is not Layer.SCHEMA:
            continue
        entry = _encode_node(node)
        entry["columns"] = {
            name: _encode_column(column) for name, column in graph.columns.get(node_id, {}).items()
        }
        yield separator + to_json(node_id) + b":" + to_json(entry)
        separator = b","
    direct: dict[str, list[LineageEdge]] = {}
    indirect: dict[str, list[LineageEdge]] = {}
    depends: dict[str, list[LineageEdge]] = {}
    for edge in graph.edges:
        if edge.layer is not Layer.SCHEMA:
            continue
        target = edge.target
        node_id = target.node_id if isinstance(target, ColumnRef) else str(target)
        if edge.type is EdgeType.DIRECT and isinstance(target, ColumnRef):
            direct.setdefault(node_id, []).append(edge)
        elif edge.type is EdgeType.INDIRECT:
            indirect.setdefault(node_id, []).append(edge)
        elif edge.type is EdgeType.DEPENDS:
            depends.setdefault(node_id, []).append(edge)
    yield b'},"edges":{"direct":{'
    yield from _sections(direct, _direct_entry)
    yield b'},"indirect":{'
    yield from _sections(indirect, _indirect_entry)
    yield b'},"depends":{'
    yield from _sections(depends, lambda edges: [_edge_entry(edge) for edge in edges])
    yield b'}},"diagnostics":' + to_json([_encode_diagnostic(item) for item in graph.diagnostics])
    yield b"}"


def _sections(
    grouped: dict[str, list[LineageEdge]], entry: t.Callable[[list[LineageEdge]], t.Any]
) -> t.Iterator[bytes]:
    separator = b""
    for node_id, edges in grouped.items():
        yield (
            separator + pydantic_core.to_json(node_id) + b":" + pydantic_core.to_json(entry(edges))
        )
        separator = b","


def _direct_entry(edges: list[LineageEdge]) -> dict[str, list[dict[str, t.Any]]]:
    by_column: dict[str, list[dict[str, t.Any]]] = {}
    for edge in edges:
        by_column.setdefault(t.cast(ColumnRef, edge.target).column, []).append(_edge_entry(edge))
    return by_column


def _indirect_entry(edges: list[LineageEdge]) -> dict[str, t.Any]:
    entry: dict[str, t.Any] = {}
    for edge in edges:
        if isinstance(edge.target, ColumnRef):
            columns = entry.setdefault("columns", {})
            columns.setdefault(edge.target.column, []).append(_edge_entry(edge))
        else:
            entry.setdefault("rows", []).append(_edge_entry(edge))
    return entry


def _edge_entry(edge: LineageEdge) -> dict[str, t.Any]:
    source = edge.source
    entry: dict[str, t.Any] = (
        {"node": source.node_id, "column": source.column}
        if isinstance(source, ColumnRef)
        else {"node": source}
    )
    entry["layer"] = edge.layer.value
    if edge.kind is not None:
        entry["kind"] = edge.kind.value
    if edge.expression:
        entry["expression"] = edge.expression
    return entry


def decode(document: Document) -> LineageGraph:
    """A graph from a validated document."""
    nodes: dict[str, LineageNode] = {}
    columns: dict[str, dict[str, ColumnNode]] = {}
    for node_id, entry in document.nodes.items():
        nodes[node_id] = _decode_node(node_id, entry)
        columns[node_id] = {
            name: ColumnNode(
                node_id=node_id,
                type=NodeType.COLUMN,
                name=name,
                column=name,
                description=column.description,
                meta=column.meta,
                tags=tuple(column.tags),
                data_type=column.data_type,
                resolved=column.resolved,
                reason=column.reason,
                inferred=column.inferred,
            )
            for name, column in entry.columns.items()
        }
    edges: list[LineageEdge] = []
    sections = document.edges
    for node_id, by_column in sections.direct.items():
        for column, entries in by_column.items():
            target = ColumnRef(node_id, column)
            edges.extend(_decode_edge(item, target, EdgeType.DIRECT) for item in entries)
    for node_id, indirect in sections.indirect.items():
        edges.extend(_decode_edge(item, node_id, EdgeType.INDIRECT) for item in indirect.rows)
        for column, entries in indirect.columns.items():
            target = ColumnRef(node_id, column)
            edges.extend(_decode_edge(item, target, EdgeType.INDIRECT) for item in entries)
    for node_id, entries in sections.depends.items():
        edges.extend(_decode_edge(item, node_id, EdgeType.DEPENDS) for item in entries)
    metadata = document.metadata.model_dump()
    metadata["selected"] = tuple(metadata["selected"])
    return LineageGraph(
        metadata=GraphMetadata(**metadata),
        nodes=nodes,
        columns=columns,
        edges=edges,
        diagnostics=[
            Diagnostic(item.node_id, item.reason, item.message, item.path, tuple(item.columns))
            for item in document.diagnostics
        ],
    )


def _encode_node(node: LineageNode) -> dict[str, t.Any]:
    entry: dict[str, t.Any] = {"type": node.type.value, "layer": node.layer.value}
    entry["name"] = node.name
    fields = _COMMON_FIELDS
    if isinstance(node, RelationNode):
        fields += _RELATION_FIELDS
    elif isinstance(node, ExposureNode):
        fields += _EXPOSURE_FIELDS
    for field in fields:
        value = getattr(node, field)
        if value:
            entry[field] = dict(value) if field == "meta" else value
    if node.tags:
        entry["tags"] = list(node.tags)
    return entry


def _encode_column(column: ColumnNode) -> dict[str, t.Any]:
    entry: dict[str, t.Any] = {}
    if column.data_type:
        entry["data_type"] = column.data_type
    if column.description:
        entry["description"] = column.description
    if column.meta:
        entry["meta"] = dict(column.meta)
    if column.tags:
        entry["tags"] = list(column.tags)
    if not column.resolved:
        entry["resolved"] = False
        entry["reason"] = column.reason
    if column.inferred:
        entry["inferred"] = True
    return entry


def _encode_metadata(metadata: GraphMetadata) -> dict[str, t.Any]:
    return {
        field: list(value) if isinstance(value, tuple) else value
        for field, value in (
            (name, getattr(metadata, name)) for name in GraphMetadata.__dataclass_fields__
        )
    }


def _encode_diagnostic(item: Diagnostic) -> dict[str, t.Any]:
    entry: dict[str, t.Any] = {"node_id": item.node_id, "reason": item.reason}
    entry["message"] = item.message
    if item.path:
        entry["path"] = item.path
    if item.columns:
        entry["columns"] = list(item.columns)
    return entry


def _decode_node(node_id: str, entry: NodeEntry) -> LineageNode:
    common: dict[str, t.Any] = {
        "node_id": node_id,
        "type": entry.type,
        "name": entry.name,
        "layer": entry.layer,
        "description": entry.description,
        "path": entry.path,
        "meta": entry.meta,
        "tags": tuple(entry.tags),
    }
    if entry.type is NodeType.EXPOSURE:
        return ExposureNode(
            **common, **{field: getattr(entry, field) for field in _EXPOSURE_FIELDS}
        )
    return RelationNode(**common, **{field: getattr(entry, field) for field in _RELATION_FIELDS})


def _decode_edge(entry: EdgeEntry, target: str | ColumnRef, edge_type: EdgeType) -> LineageEdge:
    column = entry.column
    source: str | ColumnRef = ColumnRef(entry.node, column) if column is not None else entry.node
    return LineageEdge(source, target, edge_type, entry.kind, entry.expression)
