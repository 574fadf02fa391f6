"""The lineage graph model: nodes and edges of both layers, and the graph that holds them.

Keys are typed: a relation or exposure is keyed by its dbt unique id; a column by
``ColumnRef(node_id, column)``. In JSON the graph nests by those keys
(``{node_id: {column: ...}}``) and never joins them into strings.
"""

from __future__ import annotations

import enum
import typing as t

import pydantic

from dbt_lineage.types import ColumnRef, Layer, RunRef

SCHEMA_VERSION = 1
"""Version of the ``lineage.json`` layout; bump it when the layout changes."""

NodeKey = t.Union[str, ColumnRef, RunRef]  # noqa: UP007 - a runtime alias
"""A relation, exposure or invocation id, a column's ``ColumnRef``, or a node run's ``RunRef``."""


class NodeType(str, enum.Enum):
    SOURCE = "source"
    SEED = "seed"
    MODEL = "model"
    SNAPSHOT = "snapshot"
    EXPOSURE = "exposure"
    COLUMN = "column"
    INVOCATION = "invocation"
    NODE_RUN = "node_run"


class EdgeType(str, enum.Enum):
    DIRECT = "direct"
    INDIRECT = "indirect"
    DEPENDS = "depends"
    RAN = "ran"
    FED = "fed"


class _Frozen(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(extra="forbid", frozen=True)


class LineageNode(_Frozen):
    """A relation, exposure or column (schema layer), or an invocation or node run (instance).

    For a column, ``node_id`` is its relation's id and ``column`` its name; for a node run,
    ``node_id`` is the node's unique id and ``invocation_id`` the invocation that ran it.
    """

    node_id: str
    column: str | None = None
    invocation_id: str | None = None
    type: NodeType
    layer: Layer = Layer.SCHEMA
    name: str
    data_type: str = ""
    description: str = ""
    relation_name: str = ""
    materialized: str = ""
    path: str = ""
    meta: dict[str, t.Any] = {}
    tags: tuple[str, ...] = ()
    resolved: bool = True
    reason: str = ""

    @property
    def key(self) -> NodeKey:
        if self.column is not None:
            return ColumnRef(self.node_id, self.column)
        if self.invocation_id is not None:
            return RunRef(self.invocation_id, self.node_id)
        return self.node_id


class LineageEdge(_Frozen):
    """A directed edge ``source -> target``.

    ``kind`` is a ``DirectKind`` value for direct edges, an ``IndirectKind`` value for
    indirect ones, and empty for ``depends``.
    """

    source: NodeKey
    target: NodeKey
    type: EdgeType
    layer: Layer = Layer.SCHEMA
    kind: str = ""
    expression: str = ""


class Diagnostic(_Frozen):
    """Something that kept a node's lineage from being complete, and where."""

    node_id: str
    path: str = ""
    reason: str
    message: str
    columns: tuple[str, ...] = ()


class GraphMetadata(_Frozen):
    schema_version: int = SCHEMA_VERSION
    dbt_lineage_version: str = ""
    project_name: str = ""
    adapter_type: str = ""
    dbt_version: str = ""
    manifest_schema_version: str = ""
    manifest_checksum: str = ""
    generated_at: str = ""
    has_catalog: bool = False


class LineageGraph(pydantic.BaseModel):
    """Nodes, edges and diagnostics of one project, with networkx underneath for traversal."""

    model_config = pydantic.ConfigDict(extra="forbid")

    metadata: GraphMetadata = GraphMetadata()
    nodes: dict[str, LineageNode] = {}
    columns: dict[str, dict[str, LineageNode]] = {}
    runs: dict[str, dict[str, LineageNode]] = {}
    """Instance layer: node runs by invocation id, then unique id (not kept in lineage.json)."""
    edges: list[LineageEdge] = []
    diagnostics: list[Diagnostic] = []

    _index: t.Any = pydantic.PrivateAttr(default=None)

    def node(self, key: NodeKey) -> LineageNode | None:
        """The node for a relation id or a ``ColumnRef``."""
        if isinstance(key, ColumnRef):
            return self.columns.get(key.node_id, {}).get(key.column)
        if isinstance(key, RunRef):
            return self.runs.get(key.invocation_id, {}).get(key.unique_id)
        return self.nodes.get(key)

    def columns_of(self, node_id: str) -> list[LineageNode]:
        return list(self.columns.get(node_id, {}).values())

    def column_nodes(self) -> t.Iterator[LineageNode]:
        for by_name in self.columns.values():
            yield from by_name.values()

    def digraph(self) -> t.Any:
        """A networkx ``MultiDiGraph`` over node keys, built once and kept.

        Each edge carries ``edge`` (the ``LineageEdge``).
        """
        if self._index is None:
            import networkx

            graph = networkx.MultiDiGraph()
            graph.add_nodes_from(node.key for node in self.nodes.values())
            graph.add_nodes_from(node.key for node in self.column_nodes())
            graph.add_nodes_from(node.key for runs in self.runs.values() for node in runs.values())
            graph.add_edges_from((edge.source, edge.target, {"edge": edge}) for edge in self.edges)
            self._index = graph
        return self._index


def fast_construct(cls: type[_Model], defaults: dict[str, t.Any], **values: t.Any) -> _Model:
    """Build a trusted model without validation, far cheaper than ``model_construct``.

    For hot loops that build hundreds of thousands of nodes and edges from values the
    builder already checked. ``defaults`` must hold every field ``values`` may leave out.
    """
    template = _TEMPLATES.get(cls)
    if template is None:
        template = _TEMPLATES[cls] = {name: defaults.get(name) for name in cls.model_fields}
        _FIELDS_SET[cls] = set(template)
    fields = template.copy()
    fields.update(values)
    instance = cls.__new__(cls)
    _set = object.__setattr__
    _set(instance, "__dict__", fields)
    _set(instance, "__pydantic_fields_set__", _FIELDS_SET[cls])
    _set(instance, "__pydantic_extra__", None)
    _set(instance, "__pydantic_private__", None)
    return instance


_Model = t.TypeVar("_Model", bound=pydantic.BaseModel)
_TEMPLATES: dict[type, dict[str, t.Any]] = {}
_FIELDS_SET: dict[type, set[str]] = {}

NODE_DEFAULTS: dict[str, t.Any] = {
    name: field.default
    for name, field in LineageNode.model_fields.items()
    if not field.is_required()
}
EDGE_DEFAULTS: dict[str, t.Any] = {
    name: field.default
    for name, field in LineageEdge.model_fields.items()
    if not field.is_required()
}
