"""The column lineage of every relation, with ephemeral models seen through.

An ephemeral model is inlined into its readers: it is no dataset of its own, so an edge
from one of its columns is replaced by the edges into that column (the strongest direct
kind of the two hops wins, as in the graph), and its own row-set edges steer the rows of
every relation that reads it.
"""

from __future__ import annotations

import collections
import dataclasses
import functools
import typing as t

from dbt_lineage.graph.model import EdgeType, LineageGraph
from dbt_lineage.outputs.openlineage.masking import masking
from dbt_lineage.types import ColumnRef, EdgeKind


@dataclasses.dataclass(frozen=True)
class Hop:
    """One input of a column (direct or column-scoped) or of a relation's rows (row-set)."""

    source: ColumnRef
    kind: EdgeKind
    expression: str = ""
    masking: bool = False


class LineageIndex:
    """Lookups of resolved inputs by output column or relation; built once per export."""

    def __init__(self, graph: LineageGraph, ephemeral: t.AbstractSet[str]) -> None:
        self.ephemeral = ephemeral
        self._direct: dict[ColumnRef, list[Hop]] = collections.defaultdict(list)
        self._columns: dict[ColumnRef, list[Hop]] = collections.defaultdict(list)
        self._rows: dict[str, list[Hop]] = collections.defaultdict(list)
        self._reads: dict[str, set[str]] = collections.defaultdict(set)
        for edge in graph.edges:
            source, target, kind = edge.source, edge.target, edge.kind
            if not isinstance(source, ColumnRef) or kind is None:
                continue
            if edge.type is EdgeType.DIRECT and isinstance(target, ColumnRef):
                hop = Hop(source, kind, edge.expression, masking(edge.expression, source.column))
                self._direct[target].append(hop)
            elif edge.type is EdgeType.INDIRECT and isinstance(target, ColumnRef):
                self._columns[target].append(Hop(source, kind, edge.expression))
            elif edge.type is EdgeType.INDIRECT and isinstance(target, str):
                self._rows[target].append(Hop(source, kind, edge.expression))
            else:
                continue
            owner = target.node_id if isinstance(target, ColumnRef) else target
            self._reads[owner].add(source.node_id)

    @functools.cache  # noqa: B019 - one index per export, dropped with it
    def direct(self, column: ColumnRef) -> tuple[Hop, ...]:
        """The columns ``column``'s value derives from, strongest kind per input."""
        found: dict[ColumnRef, Hop] = {}
        for hop in self._direct.get(column, ()):
            for resolved in self._through(hop):
                known = found.get(resolved.source)
                if known is None or resolved.kind.rank > known.kind.rank:
                    found[resolved.source] = resolved
                elif resolved.masking and not known.masking:
                    found[resolved.source] = dataclasses.replace(known, masking=True)
        return tuple(found.values())

    @functools.cache  # noqa: B019
    def column_indirect(self, column: ColumnRef) -> tuple[Hop, ...]:
        """The columns that steer ``column``'s values without feeding them (window keys)."""
        found = [
            resolved
            for hop in self._columns.get(column, ())
            for resolved in self._indirect_through(hop)
        ]
        for hop in self._direct.get(column, ()):
            if hop.source.node_id in self.ephemeral:
                found.extend(self.column_indirect(hop.source))
        return _unique(found)

    @functools.cache  # noqa: B019
    def rows(self, node_id: str) -> tuple[Hop, ...]:
        """The columns that decide which rows ``node_id`` has (joins, filters, ...)."""
        found = [
            resolved
            for hop in self._rows.get(node_id, ())
            for resolved in self._indirect_through(hop)
        ]
        for upstream in sorted(self._reads.get(node_id, ())):
            if upstream in self.ephemeral:
                found.extend(self.rows(upstream))
        return _unique(found)

    def _through(self, hop: Hop) -> t.Iterator[Hop]:
        if hop.source.node_id not in self.ephemeral:
            yield hop
            return
        for inner in self.direct(hop.source):
            yield Hop(
                inner.source,
                hop.kind.strongest(inner.kind),
                hop.expression,
                hop.masking or inner.masking,
            )

    def _indirect_through(self, hop: Hop) -> t.Iterator[Hop]:
        if hop.source.node_id not in self.ephemeral:
            yield hop
            return
        for inner in (*self.direct(hop.source), *self.column_indirect(hop.source)):
            yield Hop(inner.source, hop.kind, hop.expression)


def lineage_index(graph: LineageGraph, ephemeral: t.AbstractSet[str]) -> LineageIndex:
    """An index of ``graph``'s edges that sees through the ``ephemeral`` models."""
    return LineageIndex(graph, frozenset(ephemeral))


def _unique(hops: t.Iterable[Hop]) -> tuple[Hop, ...]:
    return tuple(dict.fromkeys(hops))
