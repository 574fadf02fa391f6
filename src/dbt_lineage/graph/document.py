"""The layout of ``lineage.json``, checked by pydantic at the boundary, and its writer
(``decode`` reads it back).

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
from typing_extensions import Required, TypedDict

from dbt_lineage.graph.model import (
    EMPTY,
    EXPOSURE_FIELDS,
    RELATION_FIELDS,
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

_CONFIG = pydantic.ConfigDict(extra="forbid")


class ColumnEntry(TypedDict, total=False):
    __pydantic_config__ = _CONFIG  # type: ignore[misc]
    data_type: str
    description: str
    meta: dict[str, t.Any]
    tags: list[str]
    resolved: bool
    reason: str
    inferred: bool


class NodeEntry(TypedDict, total=False):
    __pydantic_config__ = _CONFIG  # type: ignore[misc]
    type: Required[NodeType]
    layer: Layer
    name: Required[str]
    description: str
    path: str
    meta: dict[str, t.Any]
    tags: list[str]
    relation_name: str
    materialized: str
    package_name: str
    columns_from: str
    exposure_type: str
    label: str
    url: str
    maturity: str
    owner_name: str
    owner_email: str
    columns: dict[str, ColumnEntry]


class EdgeEntry(TypedDict, total=False):
    __pydantic_config__ = _CONFIG  # type: ignore[misc]
    node: Required[str]
    column: str | None
    layer: t.Literal["schema"]
    kind: EdgeKind
    expression: str


class IndirectEntries(TypedDict, total=False):
    __pydantic_config__ = _CONFIG  # type: ignore[misc]
    rows: list[EdgeEntry]
    columns: dict[str, list[EdgeEntry]]


class Edges(TypedDict, total=False):
    __pydantic_config__ = _CONFIG  # type: ignore[misc]
    direct: dict[str, dict[str, list[EdgeEntry]]]
    indirect: dict[str, IndirectEntries]
    depends: dict[str, list[EdgeEntry]]


class DiagnosticEntry(TypedDict, total=False):
    __pydantic_config__ = _CONFIG  # type: ignore[misc]
    node_id: Required[str]
    reason: Required[str]
    message: Required[str]
    path: str
    columns: list[str]


class MetadataEntry(TypedDict, total=False):
    __pydantic_config__ = _CONFIG  # type: ignore[misc]
    schema_version: int
    dbt_lineage_version: str
    project_name: str
    adapter_type: str
    dbt_version: str
    manifest_schema_version: str
    manifest_checksum: str
    catalog_checksum: str
    generated_at: str
    has_catalog: bool
    selected: list[str]


class Document(TypedDict, total=False):
    """``lineage.json`` as a whole (plain dicts, checked by pydantic: far cheaper to check
    than a model instance per entry)."""

    __pydantic_config__ = _CONFIG  # type: ignore[misc]
    schema_version: Required[t.Literal[2]]
    metadata: Required[MetadataEntry]
    nodes: Required[dict[str, NodeEntry]]
    edges: Required[Edges]
    diagnostics: list[DiagnosticEntry]


DOCUMENT = pydantic.TypeAdapter(Document)
"""Checks a ``lineage.json`` document: ``DOCUMENT.validate_json(raw)``."""


_RELATION_FIELDS = RELATION_FIELDS
_EXPOSURE_FIELDS = EXPOSURE_FIELDS
_COMMON_FIELDS = ("description", "path", "meta")


# Edges by target node: direct ones then by target column; indirect ones under ``rows`` (a
# list) and ``columns`` (by target column); dependencies in a list.
Direct = dict[str, dict[str, list[LineageEdge]]]
Indirect = dict[str, dict[str, t.Any]]
Depends = dict[str, list[LineageEdge]]


class Observer(t.Protocol):
    """What ``encode`` tells as it goes, for a writer of the same graph in another form (the
    query index), so that the work is not done twice."""

    def node(self, node: LineageNode, entry: bytes) -> None:
        """A node and its entry, columns included, as the JSON lineage.json holds."""

    def edges(self, direct: Direct, indirect: Indirect, depends: Depends) -> None:
        """The schema-layer edges grouped as lineage.json lists them: by the node they
        point to, then (direct, and column-scoped indirect) by target column in the order
        of each column's first edge; an indirect group's ``rows`` and ``columns`` in the
        order of their first edge."""


def encode(graph: LineageGraph, observer: Observer | None = None) -> t.Iterator[bytes]:
    """The graph's schema layer as the ``lineage.json`` document, in pieces of JSON.

    Piece by piece (a node's entry, a node's edges) so that a large graph is never held
    twice more in memory, as a document and as its text. ``observer`` is told each node's
    entry and the grouped edges as they are written.
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
        text = to_json(entry)
        if observer is not None:
            observer.node(node, text)
        yield separator + to_json(node_id) + b":" + text
        separator = b","
    direct, indirect, depends = _grouped(graph.edges)
    if observer is not None:
        observer.edges(direct, indirect, depends)
    yield b'},"edges":{"direct":{'
    yield from _sections(direct, _direct_entry)
    yield b'},"indirect":{'
    yield from _sections(indirect, _indirect_entry)
    yield b'},"depends":{'
    yield from _sections(depends, _edge_entries)
    yield b'}},"diagnostics":' + to_json([_encode_diagnostic(item) for item in graph.diagnostics])
    yield b"}"


def _grouped(edges: list[LineageEdge]) -> tuple[Direct, Indirect, Depends]:
    """The schema-layer edges grouped as lineage.json lists them (see ``Observer.edges``).
    A run of edges with the same target object and type (a column's edges, as built) goes
    to the group of its first edge (GitLab: 0.064 s -> 0.034 s for 112,000 edges)."""
    direct: Direct = {}
    indirect: Indirect = {}
    depends: Depends = {}
    last_target: object = None
    last_type: object = None
    last_group: list[LineageEdge] = []
    schema, direct_type = Layer.SCHEMA, EdgeType.DIRECT
    indirect_type, depends_type = EdgeType.INDIRECT, EdgeType.DEPENDS
    for edge in edges:
        if edge.layer is not schema:
            continue
        target, edge_type = edge.target, edge.type
        if target is last_target and edge_type is last_type:
            last_group.append(edge)
            continue
        if isinstance(target, ColumnRef):
            if edge_type is direct_type:
                group = direct.setdefault(target.node_id, {}).setdefault(target.column, [])
            elif edge_type is indirect_type:
                columns = indirect.setdefault(target.node_id, {}).setdefault("columns", {})
                group = columns.setdefault(target.column, [])
            elif edge_type is depends_type:
                group = depends.setdefault(target.node_id, [])
            else:
                continue
        elif edge_type is indirect_type:
            group = indirect.setdefault(str(target), {}).setdefault("rows", [])
        elif edge_type is depends_type:
            group = depends.setdefault(str(target), [])
        else:
            continue
        group.append(edge)
        last_target, last_type, last_group = target, edge_type, group
    return direct, indirect, depends


def _sections(grouped: dict[str, t.Any], entry: t.Callable[[t.Any], t.Any]) -> t.Iterator[bytes]:
    separator = b""
    for node_id, edges in grouped.items():
        yield (
            separator + pydantic_core.to_json(node_id) + b":" + pydantic_core.to_json(entry(edges))
        )
        separator = b","


def _direct_entry(by_column: dict[str, list[LineageEdge]]) -> dict[str, list[dict[str, t.Any]]]:
    return {column: _edge_entries(edges) for column, edges in by_column.items()}


def _indirect_entry(grouped: dict[str, t.Any]) -> dict[str, t.Any]:
    return {
        key: _edge_entries(value) if key == "rows" else _direct_entry(value)
        for key, value in grouped.items()
    }


def _edge_entries(edges: list[LineageEdge]) -> list[dict[str, t.Any]]:
    entries = []
    values = _VALUES
    for edge in edges:
        source = edge.source
        entry: dict[str, t.Any] = (
            {"node": source.node_id, "column": source.column, "layer": values[edge.layer]}
            if isinstance(source, ColumnRef)
            else {"node": source, "layer": values[edge.layer]}
        )
        if edge.kind is not None:
            entry["kind"] = values[edge.kind]
        if edge.expression:
            entry["expression"] = edge.expression
        entries.append(entry)
    return entries


_VALUES: dict[Layer | EdgeKind, str] = {
    **{layer: layer.value for layer in Layer},
    **{kind: kind.value for kind in EdgeKind},
}
"""Each layer's and kind's value: a dict lookup costs less than an enum's ``value``."""


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
    if column.meta is not EMPTY and column.meta:  # the shared EMPTY's len is Python code
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
