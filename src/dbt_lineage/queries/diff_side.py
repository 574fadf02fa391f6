"""One side of a diff (the base or the head): its lineage graph and what its manifest says
about each node that lineage does not keep: compiled SQL, config, docs, contract, tests.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import typing as t

from dbt_lineage.artifacts.catalog import Catalog
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
    checksum_scheme: str = ""
    """How dbt computed ``checksum`` (``checksum_scheme``): checksums of two schemes are not
    comparable."""
    code: str | None = None
    """The node's code as written (``raw_code``), when the diff compares code rather than
    checksums (the two sides come from dbt versions that checksum differently)."""
    database: str = ""
    schema: str = ""
    macros: tuple[str, ...] = ()
    """The macros it calls (``depends_on.macros``)."""


def checksum_scheme(dbt_version: str) -> str:
    """How a dbt version checksums a node's file: dbt 1.12 hashes its whitespace-normalized
    text (``" ".join(text.split())``), earlier versions the text itself.

    >>> checksum_scheme("1.11.16"), checksum_scheme("1.12.0"), checksum_scheme("2.0.0b1")
    ('text', 'normalized', 'normalized')
    """
    try:
        major, minor = (int(part) for part in dbt_version.split(".")[:2])
    except ValueError:
        return "text" if not dbt_version else dbt_version
    return "normalized" if (major, minor) >= (1, 12) else "text"


def code_checksums(code: str) -> frozenset[str]:
    """The checksums dbt gives a model whose code is ``code``, under either scheme (see
    ``checksum_scheme``): a checksum recorded by one dbt version matches the code now when
    it is one of these.

    >>> sorted(c[:8] for c in code_checksums("select\\n  1"))
    ['822ae07d', '956a17fe']
    """
    texts = {code, " ".join(code.split())}
    return frozenset(hashlib.sha256(text.encode("utf-8")).hexdigest() for text in texts)


def seed_code(data: bytes, checksum: str, scheme: str) -> str:
    """A seed's data as ``same_code`` compares it across checksum schemes: ``data`` (its
    CSV file in the project) when ``checksum`` is that file's under ``scheme`` (dbt 1.12
    reads the file with its line ends translated, earlier versions as bytes: a file with
    CRLF line ends has two checksums), else the checksum itself (other data).

    >>> csv = b"id,name\\r\\n1,a\\r\\n"
    >>> seed_code(csv, hashlib.sha256(csv.strip()).hexdigest(), "text") == seed_code(
    ...     csv, hashlib.sha256(b"id,name\\n1,a").hexdigest(), "normalized")
    True
    """
    text = data.decode("utf-8", errors="replace")
    if scheme == "normalized":
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    expected = hashlib.sha256(text.strip().encode("utf-8")).hexdigest()
    canonical = hashlib.sha256(data.replace(b"\r\n", b"\n").strip()).hexdigest()
    return f"data {canonical}" if checksum == expected else f"checksum {checksum}"


def same_code(old: NodeFacts, new: NodeFacts) -> bool | None:
    """Whether a node's code is the same on both sides: its code compared when both sides
    carry it, else its checksums when dbt computed both alike; None when neither can tell
    (a seed's data across dbt 1.11 and 1.12)."""
    if old.code is not None and new.code is not None:
        return old.code == new.code
    if old.checksum_scheme == new.checksum_scheme or old.checksum == new.checksum:
        return old.checksum == new.checksum
    return None


def changed_macros(node_id: str, base: DiffSide, head: DiffSide) -> str:
    """'macro(s) a, b' whose text differs between the sides among those the node calls."""
    called = dict.fromkeys((*base.nodes[node_id].macros, *head.nodes[node_id].macros))
    changed = [m for m in called if base.macros.get(m) != head.macros.get(m)]
    return f"macro(s) {', '.join(changed)}" if changed else ""


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
    catalog: dict[str, dict[str, str]] = dataclasses.field(default_factory=dict)
    """Node id -> {column: type} as this side's catalog.json lists them (none: empty)."""

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


def diff_side(
    graph: LineageGraph,
    manifest: Manifest,
    *,
    code: t.Mapping[str, str] | None = None,
    catalog: Catalog | None = None,
) -> DiffSide:
    """Gather a side's facts from its graph and its manifest.

    Args:
        graph: the side's lineage (``build_lineage``).
        manifest: the manifest the graph was built from.
        code: each model's and snapshot's ``raw_code`` (``artifacts.raw_code``) and each
            seed's ``seed_code``, to compare code instead of checksums (see ``same_code``).
        catalog: the side's catalog.json, when it has one (the warehouse's column types).
    """
    relations = manifest.relation_nodes()
    scheme = checksum_scheme(manifest.metadata.dbt_version)
    nodes = {
        node_id: _facts(node, scheme, None if code is None else code.get(node_id, ""))
        for node_id, node in relations.items()
    }
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
        catalog=_catalog_types(catalog),
    )


def _catalog_types(catalog: Catalog | None) -> dict[str, dict[str, str]]:
    if catalog is None:
        return {}
    return {
        node_id: {column.name: column.type or "" for column in table.columns.values()}
        for tables in (catalog.nodes, catalog.sources)
        for node_id, table in tables.items()
    }


def _facts(node: ManifestNode, scheme: str, code: str | None) -> NodeFacts:
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
        config={
            key: value
            for key, value in node.unrendered_config.items()
            if key not in _ENVIRONMENT_KEYS and value not in (None, {}, [])  # empty: unset
        },
        docs=docs,
        depends_on=tuple(node.depends_on.nodes),
        relation_name=node.relation_name or "",
        ephemeral=node.is_ephemeral,
        contract_enforced=node.contract.enforced,
        declared={column.name: column.data_type or "" for column in node.columns.values()},
        renamed_from=hints,
        checksum_scheme=scheme,
        code=code if code or node.resource_type in ("model", "snapshot") else None,
        # a seed without its file in ``code`` (or a source) compares checksums
        database=node.database or "",
        schema=node.schema_name or "",
        macros=tuple(node.depends_on.macros),
    )
