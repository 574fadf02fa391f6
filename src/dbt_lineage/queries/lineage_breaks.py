"""Lineage breaks: columns that lost upstream lineage since a base graph.

A column breaks when it is unresolved now but was resolved in the base, or when one of its
direct upstream columns disappeared although its own model's SQL did not change: a catalog
or an upstream model changed under it. This is what a CI job checks before a merge, apart
from the data changes that ``diff`` reports.
"""

from __future__ import annotations

import dataclasses
import typing as t

from dbt_lineage.graph.model import LineageEdge, LineageGraph, NodeType
from dbt_lineage.queries.edge_index import EdgeIndex, edge_index
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
    base: LineageGraph,
    head: LineageGraph,
    *,
    changed_sql: t.Collection[str] = (),
    base_index: EdgeIndex | None = None,
    head_index: EdgeIndex | None = None,
) -> list[LineageBreak]:
    """The columns of ``head`` that lost lineage since ``base``, sorted.

    Args:
        base: the graph to compare with (the main branch's, say).
        head: the graph now.
        changed_sql: models whose SQL changed between the two: their lost upstreams are
            what the change meant to do, so only their newly unresolved columns count.
        base_index: ``edge_index(base)`` when the caller has it already.
        head_index: ``edge_index(head)`` when the caller has it already.
    """
    breaks: list[LineageBreak] = []
    base_in = (base_index or edge_index(base)).direct_in
    head_in = (head_index or edge_index(head)).direct_in
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
            lost = _upstreams(base_in, earlier.key) - _upstreams(head_in, column.key)
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


def _upstreams(
    direct_in: t.Mapping[ColumnRef, list[LineageEdge]], ref: ColumnRef
) -> set[ColumnRef]:
    return {edge.source for edge in direct_in.get(ref, ()) if isinstance(edge.source, ColumnRef)}
