"""Completeness: how much of the project's column lineage is resolved, and what is not; by
group, how many columns are documented, tested, classified, and reach an exposure."""

from __future__ import annotations

import collections
import dataclasses
import posixpath
import typing as t

from dbt_lineage.graph.model import EdgeType, LineageGraph, LineageNode, NodeType
from dbt_lineage.queries.doc_inheritance import doc_inheritance
from dbt_lineage.queries.edge_index import EdgeIndex, edge_index
from dbt_lineage.queries.exposure_reach import exposure_reach
from dbt_lineage.queries.gc_paused import gc_paused
from dbt_lineage.types import ColumnRef, Layer

COUNTED_TYPES = (NodeType.MODEL, NodeType.SNAPSHOT, NodeType.SEED)
"""Relations whose columns count toward resolution (sources are where lineage starts)."""
GROUPINGS = ("folder", "layer", "resource_type", "owner")
"""What ``coverage(by=...)`` groups relations by."""
NO_OWNER = "(no owner)"
_PREFIX_LAYERS = (
    ("stg_", "staging"),
    ("base_", "staging"),
    ("int_", "intermediate"),
    ("fct_", "marts"),
    ("dim_", "marts"),
    ("mart_", "marts"),
)
_TYPE_LAYERS = {NodeType.SOURCE: "sources", NodeType.SEED: "seeds", NodeType.SNAPSHOT: "snapshots"}


@dataclasses.dataclass(frozen=True)
class GroupCoverage:
    """The figures of one group of relations (sources, seeds, models, snapshots).

    ``lineage_columns`` are the columns of models, snapshots and seeds, of which ``resolved``
    have complete lineage; every other figure counts among all ``columns``. ``documented``
    includes ``inherited_docs``, the columns documented only by an inherited description.
    ``orphans`` are columns nothing reads (no edge leaves them) in a relation no exposure
    reads. ``no_exposure`` lists the models with no path to any exposure.
    """

    group: str
    relations: int = 0
    models: int = 0
    columns: int = 0
    lineage_columns: int = 0
    resolved: int = 0
    documented: int = 0
    inherited_docs: int = 0
    tested: int = 0
    classified: int = 0
    reach_exposure: int = 0
    orphans: int = 0
    no_exposure: tuple[str, ...] = ()

    def percent(self, figure: str) -> float | None:
        """``figure`` as a percentage of its total (resolved: of ``lineage_columns``); None
        when the total is 0."""
        total = self.lineage_columns if figure == "resolved" else self.columns
        return round(100.0 * getattr(self, figure) / total, 1) if total else None


@dataclasses.dataclass(frozen=True)
class Threshold:
    """A minimum percentage a figure of the whole project must reach (``--min-...``)."""

    figure: str
    minimum: float
    actual: float | None

    @property
    def passed(self) -> bool:
        return self.actual is None or self.actual >= self.minimum


@dataclasses.dataclass
class Coverage:
    relations: dict[str, int]
    columns_total: int
    columns_resolved: int
    unresolved: dict[str, list[ColumnRef]]
    """Unresolved columns grouped by reason code."""
    no_upstream: list[str]
    """Models and snapshots that read no relation of the project."""
    orphans: list[str]
    """Relations nothing reads and no exposure uses, that read nothing themselves."""
    by: str = ""
    """What ``groups`` are grouped by (empty: not asked for)."""
    groups: tuple[GroupCoverage, ...] = ()
    total: GroupCoverage | None = None
    """The figures of every group together."""

    @property
    def percent(self) -> float:
        if not self.columns_total:
            return 100.0
        return 100.0 * self.columns_resolved / self.columns_total

    def check(self, minimums: t.Mapping[str, float | None]) -> list[Threshold]:
        """The thresholds given (``{"resolved": 95.0, "documented": None}``) against the
        project's totals; a figure with nothing to count passes."""
        total = self.total or GroupCoverage("total")
        return [
            Threshold(figure, minimum, total.percent(figure))
            for figure, minimum in minimums.items()
            if minimum is not None
        ]


def coverage(
    graph: LineageGraph,
    *,
    by: str | None = None,
    tests: t.Collection[ColumnRef] = (),
    classified: t.Collection[ColumnRef] = (),
    owners: t.Mapping[str, str] | None = None,
    index: EdgeIndex | None = None,
) -> Coverage:
    """Count resolved columns of models, snapshots and seeds; group the rest by reason.

    With ``by`` (one of ``GROUPINGS``), also the figures of each group of relations.

    Args:
        graph: the lineage graph.
        by: ``folder`` (of the file that defines a relation), ``layer`` (``meta.layer``,
            else a model's first folder under its model path, else its name's prefix:
            ``stg_`` staging, ``int_`` intermediate, ``fct_``/``dim_`` marts; sources,
            seeds and snapshots each their own), ``resource_type`` or ``owner``
            (``meta.owner``, else ``owners``, e.g. its dbt group's owner).
        tests: the columns a data test is attached to (names matched ignoring case).
        classified: the columns that carry a class (see ``classification``).
        owners: an owner for some relations, by node id.
        index: the graph's edge index, when the caller has one.

    Raises:
        ValueError: ``by`` is not one of ``GROUPINGS``.
    """
    relations: collections.Counter[str] = collections.Counter()
    total = resolved = 0
    unresolved: dict[str, list[ColumnRef]] = {}
    for node_id, node in graph.nodes.items():
        relations[node.type.value] += 1
        if node.type not in COUNTED_TYPES:
            continue
        for column in graph.columns.get(node_id, {}).values():
            total += 1
            if column.resolved:
                resolved += 1
            else:
                code = column.reason.split(":", 1)[0]
                unresolved.setdefault(code, []).append(ColumnRef(node_id, column.name))
    has_parent: set[str] = set()
    has_child: set[str] = set()
    for edge in graph.edges:
        if edge.type is EdgeType.DEPENDS:
            has_parent.add(str(edge.target))
            has_child.add(str(edge.source))
    no_upstream = sorted(
        node_id
        for node_id, node in graph.nodes.items()
        if node.type in (NodeType.MODEL, NodeType.SNAPSHOT) and node_id not in has_parent
    )
    orphans = sorted(
        node_id
        for node_id, node in graph.nodes.items()
        if node.type is not NodeType.EXPOSURE
        and node_id not in has_parent
        and node_id not in has_child
    )
    report = Coverage(dict(relations), total, resolved, unresolved, no_upstream, orphans)
    if by is None:
        return report
    if by not in GROUPINGS:
        raise ValueError(f"by must be one of {', '.join(GROUPINGS)}, not {by!r}")
    with gc_paused():
        groups = _Groups(graph, index or edge_index(graph), tests, classified, owners or {})
        report.by = by
        report.groups = groups.figures(by)
    report.total = _sum("total", report.groups)
    return report


class _Groups:
    """Per-relation figures, summed by group."""

    def __init__(
        self,
        graph: LineageGraph,
        index: EdgeIndex,
        tests: t.Collection[ColumnRef],
        classified: t.Collection[ColumnRef],
        owners: t.Mapping[str, str],
    ) -> None:
        self.graph = graph
        self.index = index
        self.tests = {(ref.node_id, ref.column.casefold()) for ref in tests}
        self.classified = set(classified)
        self.owners = owners
        self.docs = doc_inheritance(graph, index=index)
        self.reach = exposure_reach(graph, index=index)

    def figures(self, by: str) -> tuple[GroupCoverage, ...]:
        grouped: dict[str, list[GroupCoverage]] = {}
        for node_id, node in self.graph.nodes.items():
            if node.type is NodeType.EXPOSURE or node.layer is not Layer.SCHEMA:
                continue
            grouped.setdefault(self._group(node, by), []).append(self._relation(node_id, node))
        return tuple(_sum(name, grouped[name]) for name in sorted(grouped))

    def _relation(self, node_id: str, node: LineageNode) -> GroupCoverage:
        index, reach = self.index, self.reach
        read_by_exposure = node_id in index.exposures_of
        counted = node.type in COUNTED_TYPES
        figures = collections.Counter[str]()
        for name, column in self.graph.columns.get(node_id, {}).items():
            ref = ColumnRef(node_id, name)
            figures["columns"] += 1
            if counted:
                figures["lineage_columns"] += 1
                figures["resolved"] += column.resolved
            described = self.docs.describe(ref)
            if column.description.strip() or described is not None:
                figures["documented"] += 1
                if not column.description.strip():
                    figures["inherited_docs"] += 1
            figures["tested"] += (node_id, name.casefold()) in self.tests
            figures["classified"] += ref in self.classified
            figures["reach_exposure"] += ref in reach.columns
            if not read_by_exposure and ref not in index.direct_out:
                figures["orphans"] += ref not in index.indirect_out
        is_model = node.type is NodeType.MODEL
        return GroupCoverage(
            "",
            relations=1,
            models=int(is_model),
            no_exposure=(node_id,) if is_model and node_id not in reach.relations else (),
            **figures,
        )

    def _group(self, node: LineageNode, by: str) -> str:
        if by == "resource_type":
            return node.type.value
        if by == "folder":
            return posixpath.dirname(node.path.replace("\\", "/")) or "."
        if by == "owner":
            return _owner(node.meta.get("owner")) or self.owners.get(node.node_id) or NO_OWNER
        return _layer(node)


def _owner(value: t.Any) -> str:
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, dict):
        return str(value.get("name") or value.get("email") or "").strip()
    return ""


def _layer(node: LineageNode) -> str:
    """A relation's layer: ``meta.layer``; a model's first folder under its model path, else
    the prefix of its name; sources, seeds and snapshots each a layer of their own."""
    declared = node.meta.get("layer")
    if isinstance(declared, str) and declared.strip():
        return declared.strip()
    if node.type in _TYPE_LAYERS:
        return _TYPE_LAYERS[node.type]
    folders = posixpath.dirname(node.path.replace("\\", "/")).split("/")
    if len(folders) > 1 and folders[1]:
        return folders[1]
    for prefix, layer in _PREFIX_LAYERS:
        if node.name.startswith(prefix):
            return layer
    return "models"


def _sum(name: str, parts: t.Iterable[GroupCoverage]) -> GroupCoverage:
    counts: collections.Counter[str] = collections.Counter()
    no_exposure: list[str] = []
    for part in parts:
        for field in dataclasses.fields(GroupCoverage):
            value = getattr(part, field.name)
            if isinstance(value, int):
                counts[field.name] += value
        no_exposure.extend(part.no_exposure)
    return GroupCoverage(name, no_exposure=tuple(sorted(no_exposure)), **counts)
