"""Lineage breaks: columns that lost upstream lineage since a base graph.

A column breaks when it is unresolved now but was resolved in the base, or when one of its
direct upstream columns disappeared although its own model's SQL did not change: a catalog
or an upstream model changed under it. This is what a CI job checks before a merge, apart
from the data changes that ``diff`` reports.
"""

from __future__ import annotations

import dataclasses
import typing as t

from dbt_lineage.graph.model import EdgeType, LineageGraph, NodeType
from dbt_lineage.types import ColumnRef

BREAK_KINDS = ("newly_unresolved", "lost_upstream")
"""What ``LineageBreak.kind`` can be."""
_LINEAGE_TYPES = (NodeType.MODEL, NodeType.SNAPSHOT, NodeType.SEED)


@dataclasses.dataclass(frozen=True, order=True)
class LineageBreak:
    """One column that lost lineage.

    ``kind`` is ``newly_unresolved`` (``detail``: the reason it is unresolved now) or
    ``lost_upstream`` (``detail``: the upstream column that no longer feeds it, as
    ``<unique id>.<column>``; ``upstream`` the same as a reference).
    """

    node_id: str
    column: str
    kind: str
    detail: str
    upstream: ColumnRef | None = None

    def to_dict(self) -> dict[str, t.Any]:
        entry: dict[str, t.Any] = {
            "node": self.node_id,
            "column": self.column,
            "kind": self.kind,
            "detail": self.detail,
        }
        if self.upstream is not None:
            entry["upstream"] = {"node": self.upstream.node_id, "column": self.upstream.column}
        return entry


def lineage_breaks(
    base: LineageGraph, head: LineageGraph, *, changed_sql: t.Collection[str] = ()
) -> list[LineageBreak]:
    """The columns of ``head`` that lost lineage since ``base``, sorted.

    Args:
        base: the graph to compare with (the main branch's, say).
        head: the graph now.
        changed_sql: models whose SQL changed between the two: their lost upstreams are
            what the change meant to do, so only their newly unresolved columns count.
    """
    breaks: list[LineageBreak] = []
    base_upstreams = _direct_upstreams(base)
    head_upstreams = _direct_upstreams(head)
    for node_id, node in head.nodes.items():
        if node.type not in _LINEAGE_TYPES or node_id not in base.nodes:
            continue
        before = {column.column: column for column in base.columns_of(node_id)}
        for column in head.columns_of(node_id):
            earlier = before.get(column.column)
            if earlier is None:
                continue
            if earlier.resolved and not column.resolved:
                why = column.reason or "unresolved"
                breaks.append(LineageBreak(node_id, column.column, "newly_unresolved", why))
                continue
            if node_id in changed_sql:
                continue
            lost = base_upstreams.get(earlier.key, set()) - head_upstreams.get(column.key, set())
            breaks.extend(
                LineageBreak(
                    node_id,
                    column.column,
                    "lost_upstream",
                    f"{upstream.node_id}.{upstream.column}",
                    upstream,
                )
                for upstream in lost
            )
    return sorted(breaks, key=lambda item: (item.node_id, item.column, item.kind, item.detail))


def _direct_upstreams(graph: LineageGraph) -> dict[ColumnRef, set[ColumnRef]]:
    upstreams: dict[ColumnRef, set[ColumnRef]] = {}
    for edge in graph.edges:
        if (
            edge.type is EdgeType.DIRECT
            and isinstance(edge.target, ColumnRef)
            and isinstance(edge.source, ColumnRef)
        ):
            upstreams.setdefault(edge.target, set()).add(edge.source)
    return upstreams
