"""Per-node results of column resolution: plain dataclasses, cheap in hot loops."""

from __future__ import annotations

import dataclasses
import typing as t

from dbt_lineage.types import ColumnRef, EdgeKind

if t.TYPE_CHECKING:
    from dbt_lineage.resolve.relations import RelationIndex


class UpstreamEdge(t.NamedTuple):
    """An upstream column of a node: direct (feeds a value) or indirect (steers rows)."""

    upstream: ColumnRef
    kind: EdgeKind
    expression: str = ""


@dataclasses.dataclass(slots=True)
class ColumnLineage:
    """One output column: its upstreams, or why they are not (all) known.

    ``indirect`` holds the column-scoped indirect upstreams (the keys of the windows that
    compute it); the row-set ones are the node's. ``inferred`` marks a column known only from
    how SQL reads it.
    """

    name: str
    data_type: str = ""
    upstreams: list[UpstreamEdge] = dataclasses.field(default_factory=list)
    reason: str = ""
    """Empty when resolved; otherwise an ``UnresolvedReason`` value, maybe with ``: detail``."""
    indirect: list[UpstreamEdge] = dataclasses.field(default_factory=list)
    inferred: bool = False

    @property
    def resolved(self) -> bool:
        return not self.reason


@dataclasses.dataclass(slots=True)
class NodeDiagnostic:
    node_id: str
    path: str
    reason: str
    message: str
    columns: tuple[str, ...] = ()


@dataclasses.dataclass
class NodeLineage:
    """Everything resolution learned about one model, snapshot, seed or source."""

    node_id: str
    columns: dict[str, ColumnLineage] = dataclasses.field(default_factory=dict)
    indirect: list[UpstreamEdge] = dataclasses.field(default_factory=list)
    """Row-set indirect upstreams: they decide which rows the node has."""
    diagnostics: list[NodeDiagnostic] = dataclasses.field(default_factory=list)
    inferred: dict[str, dict[str, str]] = dataclasses.field(default_factory=dict)
    """Columns of upstream relations with no declared columns, inferred from this SQL."""
    star_sources: list[str] = dataclasses.field(default_factory=list)
    """Upstream nodes a ``SELECT *`` over unknown columns passes through."""
    star_through: list[str] = dataclasses.field(default_factory=list)
    """The upstream nodes a column readers use that the node does not list comes from,
    unchanged: every one of them (a UNION's branches). Empty, with ``star_sources`` set,
    when it could come from any one of them: ``ambiguous_star``."""
    columns_from: str = ""
    cached: bool = False
    text: str | None = dataclasses.field(default=None, repr=False, compare=False)
    """This result as ``to_json`` writes it, as compact JSON text, when it arrived in that
    form (from a worker)."""

    def to_json(self) -> dict[str, t.Any]:
        return {
            "node_id": self.node_id,
            "columns": [
                [
                    column.name,
                    column.data_type,
                    column.reason,
                    [_edge_json(edge) for edge in column.upstreams],
                    [_edge_json(edge) for edge in column.indirect],
                    column.inferred,
                ]
                for column in self.columns.values()
            ],
            "indirect": [_edge_json(edge) for edge in self.indirect],
            "diagnostics": [dataclasses.astuple(item) for item in self.diagnostics],
            "inferred": self.inferred,
            "star_sources": self.star_sources,
            "star_through": self.star_through,
            "columns_from": self.columns_from,
        }

    @classmethod
    def from_json(cls, data: dict[str, t.Any]) -> NodeLineage:
        columns = {}
        for name, data_type, reason, direct, indirect, inferred in data["columns"]:
            columns[name] = ColumnLineage(
                name,
                data_type,
                _edges(direct) if direct else [],  # most lists are empty: no call for them
                reason,
                _edges(indirect) if indirect else [],
                inferred,
            )
        return cls(
            node_id=data["node_id"],
            columns=columns,
            indirect=_edges(data["indirect"]),
            diagnostics=[
                NodeDiagnostic(node_id, path, reason, message, tuple(columns_))
                for node_id, path, reason, message, columns_ in data["diagnostics"]
            ],
            inferred=data["inferred"],
            star_sources=data["star_sources"],
            star_through=data["star_through"],
            columns_from=data["columns_from"],
            cached=True,
        )


def _edge_json(edge: UpstreamEdge) -> list[str]:
    return [edge.upstream.node_id, edge.upstream.column, edge.kind.value, edge.expression]


def _edges(items: list[t.Sequence[str]]) -> list[UpstreamEdge]:
    """Edges as ``to_json`` writes them, built inline (a build reads 100,000 of them: no call
    per edge)."""
    kinds, new, edge, ref = _KINDS, _new, UpstreamEdge, ColumnRef
    return [new(edge, (new(ref, (n, c)), kinds[k], e)) for n, c, k, e in items]


_new = tuple.__new__


_KINDS = {kind.value: kind for kind in EdgeKind}


class SnapshotConfig(t.NamedTuple):
    """What a snapshot's added columns derive from, as its manifest config says."""

    unique_key: tuple[str, ...]
    """The key's columns or expressions."""
    strategy: str
    updated_at: str
    check_cols: tuple[str, ...] | None
    """A check snapshot's compared columns; None for ``all``."""
    meta_names: tuple[tuple[str, str], ...] = ()
    """dbt's added column (``dbt_scd_id``...) to the name the project gives it, if renamed."""


class SqlNode(t.NamedTuple):
    """The parts of a manifest node that resolution reads (cheap to send to a worker)."""

    unique_id: str
    resource_type: str
    original_file_path: str
    compiled_code: str | None


@dataclasses.dataclass(frozen=True)
class NodeInputs:
    """What resolving one node needs to know about the project around it."""

    dialect: str
    schema: dict[str, dict[str, str]]
    """Upstream relation name (as the SQL writes it) -> {column: type}."""
    partial: frozenset[str]
    """Names in ``schema`` whose columns may be only some (YAML, SQL with a star over unknown
    columns): a column the SQL reads that they lack is inferred, not an error."""
    index: RelationIndex | None
    """Set in the process that resolves (workers receive it once, not with every task)."""
    declared: dict[str, str]
    """The node's own declared columns (catalog or YAML), for types and as a fallback."""
    upstream_ids: frozenset[str] = frozenset()
    """The node's dependencies, which decide between relations that share a name."""
    declared_complete: bool = False
    """Whether ``declared`` is the warehouse's own list (catalog.json): its names win."""
    lenient: frozenset[str] = frozenset()
    """Names in ``schema`` whose columns come from a catalog that may be older than the SQL."""
    snapshot: SnapshotConfig | None = None
    """A snapshot's configuration, from which the columns dbt adds to it derive."""

    def without_schema(self) -> NodeInputs:
        """These inputs with an empty ``schema`` (a worker gets the column lists apart, each
        once): built field by field, at a fifth of ``dataclasses.replace``'s cost."""
        return NodeInputs(
            self.dialect,
            {},
            self.partial,
            self.index,
            self.declared,
            self.upstream_ids,
            self.declared_complete,
            self.lenient,
            self.snapshot,
        )
