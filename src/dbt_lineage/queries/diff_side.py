"""One side of a diff (the base or the head): its lineage graph and what its manifest says
about each node that lineage does not keep: compiled SQL, config, docs, contract, tests.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import typing as t

from dbt_lineage.artifacts.manifest import Manifest, ManifestNode
from dbt_lineage.graph.model import LineageGraph
from dbt_lineage.queries.edge_index import EdgeIndex, edge_index
from dbt_lineage.resolve.relations import relation_index
from dbt_lineage.sql.dialects import dialect_for

_ENVIRONMENT_KEYS = frozenset(
    ("database", "schema", "alias", "target_database", "target_schema", "catalog", "project",
     "dataset", "location")
)  # fmt: skip
"""Config keys that say where a relation lives, not what it holds: dbt renders them even in
``unrendered_config`` when a model's SQL sets them, so they differ between environments."""


@dataclasses.dataclass(frozen=True)
class NodeFacts:
    """What a diff compares of one relation, besides its lineage."""

    resource_type: str
    path: str
    sql: str | None
    checksum: str
    config: dict[str, t.Any]
    """The config as written (``unrendered_config``), without where the relation lives."""
    docs: tuple[t.Any, ...]
    """Description, meta, tags and column docs (compared whole)."""
    depends_on: tuple[str, ...]
    relation_name: str
    ephemeral: bool = False
    contract_enforced: bool = False
    declared: dict[str, str] = dataclasses.field(default_factory=dict)
    """YAML columns, name -> declared data type ('' when none)."""
    renamed_from: dict[str, str] = dataclasses.field(default_factory=dict)
    """A YAML column's ``meta: {renamed_from: old}`` hint, new name -> old name."""
    database: str = ""
    schema: str = ""
    macros: tuple[str, ...] = ()
    """The macros it calls (``depends_on.macros``)."""


@dataclasses.dataclass
class DiffSide:
    """A side's graph, its nodes' facts, and how its SQL names relations."""

    graph: LineageGraph
    dialect: str
    nodes: dict[str, NodeFacts]
    tests: dict[str, list[tuple[str, str]]]
    """Node id -> (test id, column) of the data tests on one of its columns."""
    _relations: dict[str, ManifestNode] = dataclasses.field(default_factory=dict)
    macros: dict[str, str] = dataclasses.field(default_factory=dict)
    """Macro id -> a digest of its text."""
    places: dict[tuple[str, ...], tuple[str, ...]] = dataclasses.field(default_factory=dict)
    """A database or (database, schema) of this side, folded -> the name both sides give
    it (set when two sides are compared)."""

    @functools.cached_property
    def index(self) -> EdgeIndex:
        """The graph's edges by endpoint (cheaper to build than its networkx index)."""
        return edge_index(self.graph)

    def reads(self, node_id: str) -> tuple[str, ...]:
        """The relations a node's compiled SQL names: itself, what it depends on, and what
        the ephemeral models it inlines depend on."""
        found = {node_id: None}
        stack = list(self.nodes[node_id].depends_on) if node_id in self.nodes else []
        while stack:
            other = stack.pop()
            if other in found:
                continue
            found[other] = None
            facts = self.nodes.get(other)
            if facts is not None and facts.ephemeral:
                stack.extend(facts.depends_on)
        return tuple(found)

    def schema(self, among: t.Iterable[str]) -> dict[str, dict[str, str]]:
        """Column name -> type of each relation of ``among``, as this side's graph has them."""
        return {
            node_id: {column.column: column.data_type for column in self.graph.columns_of(node_id)}
            for node_id in among
        }

    def place(self, parts: tuple[str, ...]) -> tuple[str, ...] | None:
        """A user function's qualifier under the names both sides agree on, or None."""
        folded = tuple(part.casefold() for part in parts)
        if len(folded) != 2:
            return None  # a schema alone, or a catalog too: kept as written
        if folded in self.places:
            return self.places[folded]
        if folded[:1] in self.places:
            return (*self.places[folded[:1]], folded[1])
        return None

    def relations(self, among: t.Collection[str]) -> t.Callable[[tuple[str, ...]], str | None]:
        """What a relation name (normalised parts) refers to among ``among`` (a node's
        dependencies and itself): indexing only those keeps a diff of a few nodes cheap."""
        index = relation_index(
            [self._relations[node_id] for node_id in among if node_id in self._relations],
            self.dialect,
        )
        return lambda parts: index.lookup(parts, among)


def diff_side(graph: LineageGraph, manifest: Manifest) -> DiffSide:
    """Gather a side's facts from its graph and its manifest.

    Args:
        graph: the side's lineage (``build_lineage``).
        manifest: the manifest the graph was built from.
    """
    relations = manifest.relation_nodes()
    nodes = {node_id: _facts(node) for node_id, node in relations.items()}
    tests: dict[str, list[tuple[str, str]]] = {}
    for node in manifest.nodes.values():
        if node.resource_type != "test" or not node.column_name:
            continue
        attached = node.attached_node or next(iter(node.depends_on.nodes), None)
        if attached is not None:
            tests.setdefault(attached, []).append((node.unique_id, node.column_name))
    return DiffSide(
        graph,
        dialect_for(manifest.metadata.adapter_type),
        nodes,
        tests,
        _relations=relations,
        macros={
            macro_id: hashlib.sha256(macro.macro_sql.encode()).hexdigest()
            for macro_id, macro in manifest.macros.items()
        },
    )


def _facts(node: ManifestNode) -> NodeFacts:
    docs = (
        node.description,
        node.meta,
        node.tags,
        {
            name: (column.description, column.meta, column.tags, column.data_type)
            for name, column in node.columns.items()
        },
    )
    hints = {}
    for column in node.columns.values():
        old = column.meta.get("renamed_from")
        if isinstance(old, str) and old:
            hints[column.name] = old
    return NodeFacts(
        resource_type=node.resource_type,
        path=node.original_file_path,
        sql=node.compiled_code,
        checksum=str(node.checksum.get("checksum", "")),
        config={k: v for k, v in node.unrendered_config.items() if k not in _ENVIRONMENT_KEYS},
        docs=docs,
        depends_on=tuple(node.depends_on.nodes),
        relation_name=node.relation_name or "",
        ephemeral=node.is_ephemeral,
        contract_enforced=node.contract.enforced,
        declared={column.name: column.data_type or "" for column in node.columns.values()},
        renamed_from=hints,
        database=node.database or "",
        schema=node.schema_name or "",
        macros=tuple(node.depends_on.macros),
    )
