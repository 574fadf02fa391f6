"""The lineage graph model: nodes and edges of both layers, and the graph that holds them.

Plain slotted dataclasses, cheap to build by the hundred thousand (treat them as values:
nothing in the package changes one after it is built); pydantic checks the JSON
at the boundary (:mod:`dbt_lineage.graph.document`). Keys are typed: a relation or exposure
is keyed by its dbt unique id, a column by ``ColumnRef(node_id, column)``, a node run by
``RunRef(invocation_id, unique_id)``. In JSON the graph nests by those keys and never joins
them into strings.

Each kind of node has its own fields: relations (sources, seeds, models, snapshots) their
relation name and materialization, columns their type and resolution, exposures their type
and owner, invocations their command, node runs their status and times.
"""

from __future__ import annotations

import dataclasses
import enum
import typing as t

from dbt_lineage.types import ColumnRef, EdgeKind, Layer, RunRef

SCHEMA_VERSION = 2
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


RELATION_TYPES = (NodeType.SOURCE, NodeType.SEED, NodeType.MODEL, NodeType.SNAPSHOT)

RELATION_FIELDS = ("relation_name", "materialized", "package_name", "columns_from")
"""The fields a ``RelationNode`` adds to ``LineageNode`` (all strings)."""
EXPOSURE_FIELDS = ("exposure_type", "label", "url", "maturity", "owner_name", "owner_email")
"""The fields an ``ExposureNode`` adds to ``LineageNode`` (all strings)."""


class EdgeType(str, enum.Enum):
    DIRECT = "direct"
    INDIRECT = "indirect"
    DEPENDS = "depends"
    RAN = "ran"
    FED = "fed"


class _Empty(t.Mapping[str, t.Any]):
    """An empty, read-only, hashable mapping: one instance for every node without meta."""

    __slots__ = ()

    def __getitem__(self, key: str) -> t.Any:
        raise KeyError(key)

    def __iter__(self) -> t.Iterator[str]:
        return iter(())

    def __len__(self) -> int:
        return 0

    def __eq__(self, other: object) -> bool:
        return isinstance(other, t.Mapping) and not other

    def __hash__(self) -> int:
        return 0

    def __repr__(self) -> str:
        return "{}"


EMPTY: t.Mapping[str, t.Any] = _Empty()
"""The ``meta`` of a node that has none (shared, read-only)."""

_node = dataclasses.dataclass(slots=True, kw_only=True)


@_node
class LineageNode:
    """What every node has: its id, type, layer and display name.

    ``meta`` is the node's dbt ``meta`` as the project wrote it (never our own values).
    """

    node_id: str
    type: NodeType
    name: str
    layer: Layer = Layer.SCHEMA
    description: str = ""
    path: str = ""
    meta: t.Mapping[str, t.Any] = EMPTY
    tags: tuple[str, ...] = ()

    @property
    def key(self) -> NodeKey:
        return self.node_id


@_node
class RelationNode(LineageNode):
    """A source, seed, model or snapshot.

    ``columns_from`` says where its column list came from: ``catalog``, ``seed_csv``,
    ``yaml``, ``sql`` (its own resolved SQL) or ``inferred`` (from how readers use it).
    """

    relation_name: str = ""
    materialized: str = ""
    package_name: str = ""
    columns_from: str = ""


@_node
class ColumnNode(LineageNode):
    """One output column of a relation.

    ``inferred`` marks a column known only from how SQL reads it (no catalog, YAML or SQL
    of its own lists it). ``reason`` is empty when resolved, else an ``UnresolvedReason``
    value, maybe with ``: detail``.
    """

    column: str
    data_type: str = ""
    resolved: bool = True
    reason: str = ""
    inferred: bool = False

    @property
    def key(self) -> ColumnRef:
        return ColumnRef(self.node_id, self.column)


@_node
class ExposureNode(LineageNode):
    """A dashboard, notebook, analysis, ML model or application that reads relations."""

    exposure_type: str = ""
    label: str = ""
    url: str = ""
    maturity: str = ""
    owner_name: str = ""
    owner_email: str = ""


@_node
class InvocationNode(LineageNode):
    """One dbt invocation (instance layer); ``node_id`` is its invocation id."""

    command: str = ""
    dbt_version: str = ""
    target_name: str = ""
    started_at: t.Any = None
    ended_at: t.Any = None


@_node
class NodeRunNode(LineageNode):
    """One node executed in one invocation (instance layer)."""

    invocation_id: str
    status: str = ""
    relation_name: str = ""
    materialized: str = ""
    rows_affected: int | None = None
    started_at: t.Any = None
    ended_at: t.Any = None
    execution_time: float | None = None
    message: str | None = None
    checksum: str | None = None

    @property
    def key(self) -> RunRef:
        return RunRef(self.invocation_id, self.node_id)


def short_name(node: LineageNode) -> str:
    """The name dbt matches a bare name against: a source's table, an exposure's name (its
    label is for display), a model's, seed's or snapshot's name.

    >>> short_name(RelationNode(node_id="source.shop.ecom.raw_orders", type=NodeType.SOURCE,
    ...                         name="ecom.raw_orders"))
    'raw_orders'
    """
    if node.type is NodeType.SOURCE:
        return node.node_id.split(".", 3)[-1]
    if node.type is NodeType.EXPOSURE:
        return node.node_id.split(".", 2)[-1]
    return node.name or node.node_id.split(".", 2)[-1]


@dataclasses.dataclass(slots=True)
class LineageEdge:
    """A directed edge ``source -> target``.

    Direct edges go column to column. Indirect edges go from a column to the relation whose
    rows it steers (row-set scope: joins, filters, group-by, distinct, sort with limit) or to
    the columns a window computes (column scope). ``kind`` is None for the others.
    """

    source: NodeKey
    target: NodeKey
    type: EdgeType
    kind: EdgeKind | None = None
    expression: str = ""
    layer: Layer = Layer.SCHEMA

    @property
    def column_scoped(self) -> bool:
        """An indirect edge that steers only some columns' values, not the whole row set."""
        return self.type is EdgeType.INDIRECT and isinstance(self.target, ColumnRef)

    @property
    def changes_values(self) -> bool:
        """Whether a change upstream changes the target's values: direct or column-scoped."""
        return self.type is EdgeType.DIRECT or self.column_scoped


@dataclasses.dataclass(frozen=True, slots=True)
class Diagnostic:
    """Something that kept a node's lineage from being complete, and where."""

    node_id: str
    reason: str
    message: str
    path: str = ""
    columns: tuple[str, ...] = ()


@dataclasses.dataclass(frozen=True, slots=True)
class GraphMetadata:
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
    selected: tuple[str, ...] = ()
    """Node ids a selected build last updated (empty after a full build)."""


@dataclasses.dataclass
class LineageGraph:
    """Nodes, edges and diagnostics of one project, with networkx underneath for traversal.

    ``runs`` holds the instance layer's node runs by invocation id, then unique id; it is
    not kept in lineage.json.
    """

    metadata: GraphMetadata = dataclasses.field(default_factory=GraphMetadata)
    nodes: dict[str, LineageNode] = dataclasses.field(default_factory=dict)
    columns: dict[str, dict[str, ColumnNode]] = dataclasses.field(default_factory=dict)
    runs: dict[str, dict[str, NodeRunNode]] = dataclasses.field(default_factory=dict)
    edges: list[LineageEdge] = dataclasses.field(default_factory=list)
    diagnostics: list[Diagnostic] = dataclasses.field(default_factory=list)
    _index: t.Any = dataclasses.field(default=None, repr=False, compare=False)

    def node(self, key: NodeKey) -> LineageNode | None:
        """The node for a relation id, a ``ColumnRef`` or a ``RunRef``."""
        if isinstance(key, ColumnRef):
            return self.columns.get(key.node_id, {}).get(key.column)
        if isinstance(key, RunRef):
            return self.runs.get(key.invocation_id, {}).get(key.unique_id)
        return self.nodes.get(key)

    def nodes_named(self, names: t.Collection[str]) -> list[LineageNode]:
        """The nodes whose ``short_name`` is one of ``names``, in the graph's order."""
        return [node for node in self.nodes.values() if short_name(node) in names]

    def short_names(self) -> list[tuple[str, str]]:
        """Every relation's and exposure's id with its ``short_name``, in the graph's order
        (what "did you mean" matches against, without reading the nodes themselves)."""
        return [(node_id, short_name(node)) for node_id, node in self.nodes.items()]

    def columns_of(self, node_id: str) -> list[ColumnNode]:
        return list(self.columns.get(node_id, {}).values())

    def column_nodes(self) -> t.Iterator[ColumnNode]:
        for by_name in self.columns.values():
            yield from by_name.values()

    def digraph(self) -> t.Any:
        """A networkx ``MultiDiGraph`` over node keys, built once and kept.

        Each edge carries ``edge`` (the ``LineageEdge``).
        """
        if self._index is None:
            import networkx

            graph = networkx.MultiDiGraph()
            graph.add_nodes_from(self.nodes)
            graph.add_nodes_from(node.key for node in self.column_nodes())
            graph.add_nodes_from(node.key for runs in self.runs.values() for node in runs.values())
            graph.add_edges_from((edge.source, edge.target, {"edge": edge}) for edge in self.edges)
            self._index = graph
        return self._index

    def invalidate(self) -> None:
        """Forget the traversal index after nodes or edges changed."""
        self._index = None
