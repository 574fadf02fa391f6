"""Per-node results of column resolution: plain dataclasses, cheap in hot loops."""

from __future__ import annotations

import dataclasses
import typing as t

from dbt_lineage.types import ColumnRef, DirectKind, IndirectKind

if t.TYPE_CHECKING:
    from dbt_lineage.sql.relations import RelationIndex


@dataclasses.dataclass(frozen=True)
class DirectEdge:
    upstream: ColumnRef
    kind: DirectKind
    expression: str = ""


@dataclasses.dataclass(frozen=True)
class IndirectEdge:
    upstream: ColumnRef
    kind: IndirectKind
    expression: str = ""


@dataclasses.dataclass
class ColumnLineage:
    """One output column: its upstreams, or why they are not (all) known."""

    name: str
    data_type: str = ""
    upstreams: list[DirectEdge] = dataclasses.field(default_factory=list)
    reason: str = ""
    """Empty when resolved; otherwise an ``UnresolvedReason`` value, maybe with ``: detail``."""

    @property
    def resolved(self) -> bool:
        return not self.reason


@dataclasses.dataclass(frozen=True)
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
    indirect: list[IndirectEdge] = dataclasses.field(default_factory=list)
    diagnostics: list[NodeDiagnostic] = dataclasses.field(default_factory=list)
    inferred: dict[str, dict[str, str]] = dataclasses.field(default_factory=dict)
    """Columns of upstream relations with no declared columns, inferred from this SQL."""
    cached: bool = False
    document: dict[str, t.Any] | None = dataclasses.field(default=None, repr=False, compare=False)
    """This result as ``to_json`` writes it, when it arrived in that form (from a worker)."""

    def to_json(self) -> dict[str, t.Any]:
        return {
            "node_id": self.node_id,
            "columns": [
                [
                    column.name,
                    column.data_type,
                    column.reason,
                    [
                        [*edge.upstream, edge.kind.value, edge.expression]
                        for edge in column.upstreams
                    ],
                ]
                for column in self.columns.values()
            ],
            "indirect": [
                [*edge.upstream, edge.kind.value, edge.expression] for edge in self.indirect
            ],
            "diagnostics": [dataclasses.astuple(item) for item in self.diagnostics],
            "inferred": self.inferred,
        }

    @classmethod
    def from_json(cls, data: dict[str, t.Any]) -> NodeLineage:
        columns = {}
        for name, data_type, reason, edges in data["columns"]:
            upstreams = [
                DirectEdge(ColumnRef(node, column), DirectKind(kind), expression)
                for node, column, kind, expression in edges
            ]
            columns[name] = ColumnLineage(name, data_type, upstreams, reason)
        return cls(
            node_id=data["node_id"],
            columns=columns,
            indirect=[
                IndirectEdge(ColumnRef(node, column), IndirectKind(kind), expression)
                for node, column, kind, expression in data["indirect"]
            ],
            diagnostics=[
                NodeDiagnostic(node_id, path, reason, message, tuple(columns_))
                for node_id, path, reason, message, columns_ in data["diagnostics"]
            ],
            inferred=data["inferred"],
            cached=True,
        )


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
    """Names in ``schema`` whose columns came from YAML and may be incomplete."""
    index: RelationIndex | None
    """Set in the process that resolves (workers receive it once, not with every task)."""
    declared: dict[str, str]
    """The node's own declared columns (catalog or YAML), for types and as a fallback."""
    upstream_ids: frozenset[str] = frozenset()
    """The node's dependencies, which decide between relations that share a name."""
