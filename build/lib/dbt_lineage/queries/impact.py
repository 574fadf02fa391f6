"""Impact: what changes if a column or a whole node changes, how, and how far away.

One breadth-first walk over the graph's cached networkx index (``LineageGraph.digraph()``,
built once per graph), so a query costs what it reaches, not the size of the graph.
``upstream`` and ``downstream`` are the same walk, through ``_report`` here.
"""

from __future__ import annotations

import collections
import dataclasses
import difflib
import typing as t

from dbt_lineage.errors import SelectionError
from dbt_lineage.graph.model import EdgeType, LineageGraph, NodeType
from dbt_lineage.types import ColumnRef, EdgeKind

DIRECT_KINDS = tuple(kind.value for kind in EdgeKind.direct())
INDIRECT_KINDS = tuple(kind.value for kind in EdgeKind.indirect())
_RANK = {kind.value: kind.rank for kind in EdgeKind.direct()}
"""Direct kinds by strength; an indirect subtype ranks 0, below any direct kind."""


@dataclasses.dataclass(frozen=True)
class ReachedColumn:
    """A column a query reached.

    Attributes:
        ref: the column.
        distance: edges on the shortest path from the target.
        kind: how the target reaches it, the strongest over every path found (aggregate >
            transform > identity > an indirect subtype). Along one path: identity only if
            every hop is identity, aggregate if any hop aggregates, else transform; a path
            that crosses an indirect edge takes that edge's subtype (``join``, ``filter``...).
        path_kinds: the kind of each edge along one shortest path, walking from the target
            (the strongest such path when several are shortest).
        via: the column before this one on that path.
    """

    ref: ColumnRef
    distance: int
    kind: str
    path_kinds: tuple[str, ...]
    via: ColumnRef


@dataclasses.dataclass(frozen=True)
class ReachedRelation:
    """A model, snapshot, seed or source with a reached column (or, for a whole node, a
    dependent), at the distance of its nearest reached column."""

    node_id: str
    type: str
    name: str
    distance: int


@dataclasses.dataclass(frozen=True)
class ReachedExposure:
    """An exposure that reads the target's relation or a reached relation.

    ``distance`` is one more than the nearest relation it reads; ``via`` lists the reached
    relations it reads, nearest first.
    """

    node_id: str
    name: str
    type: str
    distance: int
    via: tuple[str, ...]


@dataclasses.dataclass(frozen=True)
class ImpactReport:
    """What ``impact``, ``upstream`` or ``downstream`` found, each list nearest first."""

    query: str
    target: str | ColumnRef
    columns: tuple[ReachedColumn, ...]
    relations: tuple[ReachedRelation, ...]
    exposures: tuple[ReachedExposure, ...]
    kinds: tuple[str, ...]
    """The edge kinds the walk followed."""
    depth: int | None = None
    include_indirect: bool = False
    """Whether the walk also followed row-set edges (joins, filters... of whole relations)."""

    def by_distance(self) -> dict[int, list[ReachedColumn]]:
        """Reached columns grouped by distance, in increasing order."""
        groups: dict[int, list[ReachedColumn]] = {}
        for column in self.columns:
            groups.setdefault(column.distance, []).append(column)
        return groups


def impact(
    graph: LineageGraph,
    target: str | ColumnRef,
    *,
    include_indirect: bool = False,
    depth: int | None = None,
) -> ImpactReport:
    """What changes downstream if ``target`` (a column, or a whole relation) changes.

    The impact of a whole relation is the impact of all its columns plus its dependents
    (relations that read it, through dependency edges). Exposures are listed when they read
    the target's relation or any reached relation, even one edge past ``depth``: an exposure
    ends the line, and a reached relation's readers are what a depth-limited view is for.

    Args:
        graph: the lineage graph.
        target: a ``ColumnRef`` or a node id (see ``lookup`` for names users type).
        include_indirect: also follow row-set edges: a column that joins or filters a
            relation affects every column of it (with the subtype as kind), and on from there.
            Column-scoped indirect edges (the keys of a window that computes a column) are
            always followed: they change that column's values.
        depth: follow at most this many edges from the target.

    >>> from dbt_lineage.graph.model import (
    ...     ColumnNode, EdgeType, LineageEdge, NodeType, RelationNode)
    >>> a, b = ColumnRef("model.p.a", "x"), ColumnRef("model.p.b", "total")
    >>> graph = LineageGraph(
    ...     nodes={r.node_id: RelationNode(node_id=r.node_id, type=NodeType.MODEL, name="m")
    ...            for r in (a, b)},
    ...     columns={r.node_id: {r.column: ColumnNode(node_id=r.node_id, column=r.column,
    ...                                               type=NodeType.COLUMN, name=r.column)}
    ...              for r in (a, b)},
    ...     edges=[LineageEdge(a, b, EdgeType.DIRECT, EdgeKind.AGGREGATE)])
    >>> report = impact(graph, a)
    >>> [(c.ref.column, c.distance, c.kind) for c in report.columns], report.relations[0].node_id
    ([('total', 1, 'aggregate')], 'model.p.b')

    Raises:
        SelectionError: the target is not in the graph.
    """
    return _report(graph, "impact", target, depth=depth, include_indirect=include_indirect)


def _follow(kinds: t.Iterable[str] | None) -> frozenset[str]:
    """The edge kinds a walk follows: ``kinds``, or every kind when None.

    Raises:
        SelectionError: a kind that does not exist.
    """
    known = DIRECT_KINDS + INDIRECT_KINDS
    chosen = set(known if kinds is None else kinds)
    for kind in sorted(chosen):
        if kind not in known:
            close = difflib.get_close_matches(kind, known, n=3, cutoff=0.5)
            raise SelectionError(f"no edge kind '{kind}'", suggestions=close)
    return frozenset(chosen)


def _report(
    graph: LineageGraph,
    query: str,
    target: str | ColumnRef,
    *,
    reverse: bool = False,
    depth: int | None = None,
    kinds: t.Iterable[str] | None = None,
    include_indirect: bool = False,
) -> ImpactReport:
    """Walk from ``target`` and collect columns, relations and (downstream) exposures.

    Raises:
        SelectionError: the target is not in the graph, or a kind does not exist.
    """
    follow = _follow(kinds)
    if graph.node(target) is None:
        raise SelectionError(f"no node named '{_label(target)}' in the lineage graph")
    if isinstance(target, ColumnRef):
        starts = [target]
        relations: dict[str, int] = {}
    else:
        starts = [ColumnRef(target, name) for name in graph.columns.get(target, {})]
        relations = {} if reverse else _dependents(graph, target, depth)
    walk = _Walk(graph, reverse=reverse, follow=follow, rows=include_indirect)
    walk.run(starts, depth)
    columns = []
    start_set = set(starts)
    for ref, distance in walk.distance.items():
        if ref in start_set:
            continue
        columns.append(ReachedColumn(ref, distance, walk.kind[ref], walk.path(ref), walk.via[ref]))
        if distance < relations.get(ref.node_id, distance + 1):
            relations[ref.node_id] = distance
    for node_id, distance in walk.relations.items():
        if distance < relations.get(node_id, distance + 1):
            relations[node_id] = distance
    columns.sort(key=lambda c: (c.distance, c.ref.node_id, c.ref.column))
    reached = sorted(
        (
            ReachedRelation(node_id, node.type.value, node.name, distance)
            for node_id, distance in relations.items()
            if (node := graph.nodes.get(node_id)) is not None
        ),
        key=lambda r: (r.distance, r.node_id),
    )
    own = target.node_id if isinstance(target, ColumnRef) else target
    exposures = [] if reverse else _exposures(graph, {**relations, own: 0})
    return ImpactReport(
        query=query,
        target=target,
        columns=tuple(columns),
        relations=tuple(reached),
        exposures=tuple(exposures),
        kinds=tuple(sorted(follow, key=_kind_order)),
        depth=depth,
        include_indirect=include_indirect,
    )


class _Walk:
    """Breadth-first walk over columns, keeping distance, one shortest path and kinds."""

    def __init__(
        self, graph: LineageGraph, *, reverse: bool, follow: frozenset[str], rows: bool
    ) -> None:
        self.graph = graph
        index = graph.digraph()
        self.adjacency = index.pred if reverse else index.succ
        self.reverse = reverse
        self.follow = follow
        self.rows = rows
        self.distance: dict[ColumnRef, int] = {}
        self.via: dict[ColumnRef, ColumnRef] = {}
        self.hop: dict[ColumnRef, str] = {}
        self.path_kind: dict[ColumnRef, str] = {}
        self.kind: dict[ColumnRef, str] = {}
        self.relations: dict[str, int] = {}
        self._steering: dict[str, list[tuple[ColumnRef, str]]] = {}

    def run(self, starts: t.Sequence[ColumnRef], depth: int | None) -> None:
        for ref in starts:
            self.distance[ref] = 0
            self.path_kind[ref] = self.kind[ref] = EdgeKind.IDENTITY.value
        steps: dict[ColumnRef, list[tuple[ColumnRef, str]]] = {}
        layer = list(starts)
        level = 0
        while layer and (depth is None or level < depth):
            following = []
            for ref in layer:
                steps[ref] = self._steps(ref, level)
                base = self.path_kind[ref]
                for nxt, hop in steps[ref]:
                    composed = _compose(base, hop)
                    seen = self.distance.get(nxt)
                    if seen is None:
                        self.distance[nxt] = level + 1
                        following.append(nxt)
                    elif seen != level + 1 or not self._better(nxt, composed, hop):
                        continue
                    self.via[nxt], self.hop[nxt], self.path_kind[nxt] = ref, hop, composed
                    self.kind[nxt] = composed
            layer = following
            level += 1
        self._strongest(steps, set(starts))

    def _better(self, ref: ColumnRef, composed: str, hop: str) -> bool:
        """Whether a path of kind ``composed``, ending in ``hop``, beats the one ``ref`` has
        (of the same length): a stronger kind, or the same kind ending in a direct edge."""
        kept = self.path_kind[ref]
        if _stronger(composed, kept):
            return True
        return composed == kept and hop in _RANK and self.hop[ref] not in _RANK

    def _strongest(
        self, steps: dict[ColumnRef, list[tuple[ColumnRef, str]]], starts: set[ColumnRef]
    ) -> None:
        """Raise each kind to the strongest over every path among reached columns."""
        pending = collections.deque(steps)
        while pending:
            ref = pending.popleft()
            base = self.kind[ref]
            for nxt, hop in steps.get(ref, ()):
                if nxt in starts:
                    continue
                composed = _compose(base, hop)
                if _stronger(composed, self.kind[nxt]):
                    self.kind[nxt] = composed
                    pending.append(nxt)

    def path(self, ref: ColumnRef) -> tuple[str, ...]:
        kinds = []
        while ref in self.hop:
            kinds.append(self.hop[ref])
            ref = self.via[ref]
        return tuple(reversed(kinds))

    def _steps(self, ref: ColumnRef, level: int) -> list[tuple[ColumnRef, str]]:
        """The columns one edge away, with the edge's kind."""
        found: list[tuple[ColumnRef, str]] = []
        for other, keyed in self.adjacency.get(ref, {}).items():
            for data in keyed.values():
                edge = data["edge"]
                if edge.kind not in self.follow:
                    continue
                if edge.changes_values:
                    found.append((other, edge.kind.value))
                elif edge.type is EdgeType.INDIRECT and self.rows and not self.reverse:
                    if level + 1 < self.relations.get(other, level + 2):
                        self.relations[other] = level + 1
                    found.extend(
                        (ColumnRef(other, name), edge.kind.value)
                        for name in self.graph.columns.get(other, {})
                    )
        if self.reverse and self.rows:
            found.extend(self._steered_by(ref.node_id))
        return found

    def _steered_by(self, node_id: str) -> list[tuple[ColumnRef, str]]:
        """Upstream: the columns that decide which rows ``node_id`` has."""
        if node_id not in self._steering:
            self._steering[node_id] = [
                (other, data["edge"].kind.value)
                for other, keyed in self.adjacency.get(node_id, {}).items()
                for data in keyed.values()
                if data["edge"].type is EdgeType.INDIRECT
                and data["edge"].kind in self.follow
                and isinstance(other, ColumnRef)
            ]
        return self._steering[node_id]


def _compose(base: str, hop: str) -> str:
    """The kind of a path ``base`` extended by one edge of kind ``hop``.

    >>> _compose("identity", "aggregate"), _compose("filter", "identity")
    ('aggregate', 'filter')
    """
    if base not in _RANK:
        return base
    if hop not in _RANK:
        return hop
    return base if _RANK[base] >= _RANK[hop] else hop


def _stronger(kind: str, than: str) -> bool:
    return _RANK.get(kind, 0) > _RANK.get(than, 0)


def _kind_order(kind: str) -> int:
    order = DIRECT_KINDS + INDIRECT_KINDS
    return order.index(kind) if kind in order else len(order)


def _dependents(graph: LineageGraph, node_id: str, depth: int | None) -> dict[str, int]:
    """Relations that read ``node_id``, directly or not, by dependency edges."""
    successors = graph.digraph().succ
    found: dict[str, int] = {}
    layer, level = [node_id], 0
    while layer and (depth is None or level < depth):
        following = []
        for parent in layer:
            for child, keyed in successors.get(parent, {}).items():
                if child in found or child == node_id or not _depends(keyed):
                    continue
                node = graph.nodes.get(child)
                if node is None or node.type is NodeType.EXPOSURE:
                    continue
                found[child] = level + 1
                following.append(child)
        layer, level = following, level + 1
    return found


def _exposures(graph: LineageGraph, readers: dict[str, int]) -> list[ReachedExposure]:
    """Exposures that read any of ``readers`` (relation id -> distance)."""
    successors = graph.digraph().succ
    reading: dict[str, list[tuple[int, str]]] = {}
    for node_id, distance in readers.items():
        for child, keyed in successors.get(node_id, {}).items():
            node = graph.nodes.get(child) if isinstance(child, str) else None
            if node is not None and node.type is NodeType.EXPOSURE and _depends(keyed):
                reading.setdefault(child, []).append((distance, node_id))
    exposures = []
    for node_id, via in reading.items():
        via.sort()
        node = graph.nodes[node_id]
        exposures.append(
            ReachedExposure(
                node_id, node.name, node.exposure_type, via[0][0] + 1, tuple(r for _, r in via)
            )
        )
    return sorted(exposures, key=lambda e: (e.distance, e.node_id))


def _depends(keyed: dict[t.Any, dict[str, t.Any]]) -> bool:
    return any(data["edge"].type is EdgeType.DEPENDS for data in keyed.values())


def _label(target: str | ColumnRef) -> str:
    """How a target reads in a message (display only, never a key)."""
    return f"{target.node_id}.{target.column}" if isinstance(target, ColumnRef) else target
