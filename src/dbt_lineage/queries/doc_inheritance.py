"""Documentation inheritance: a description for every undocumented column whose value is an
identity copy (renames included) of a documented one.

A column inherits when all its direct upstream edges are ``identity`` and every upstream
column has, or itself inherits, the same description: a pass-through, a rename, a column of
a ``select *``, each branch of a ``union all`` of equally documented columns. Anything
computed (a cast, a function, an aggregate) inherits nothing: its meaning changed. A
description that ``--write-yaml`` wrote (``meta.dbt_lineage.description_from``) counts as
inherited, not as the column's own.
"""

from __future__ import annotations

import dataclasses

from dbt_lineage.graph.model import ColumnNode, EdgeType, LineageEdge, LineageGraph
from dbt_lineage.queries.edge_index import EdgeIndex
from dbt_lineage.queries.gc_paused import gc_paused
from dbt_lineage.types import ColumnRef, EdgeKind

OURS = "dbt_lineage"
"""The ``meta`` key under which ``--write-yaml`` records where a value came from."""


@dataclasses.dataclass(frozen=True)
class ColumnDescription:
    """A column's description, its own or inherited.

    ``source`` is the documented column it was copied from (None for the column's own) and
    ``hops`` the identity edges between them.
    """

    text: str
    source: ColumnRef | None = None
    hops: int = 0

    @property
    def inherited(self) -> bool:
        return self.source is not None


class DocInheritance:
    """Descriptions of a graph's columns, own or inherited, resolved on demand and kept."""

    def __init__(self, graph: LineageGraph, index: EdgeIndex | None = None) -> None:
        self.graph = graph
        self._index = index
        self._found: dict[ColumnRef, ColumnDescription | None] = {}

    def describe(self, ref: ColumnRef) -> ColumnDescription | None:
        """The column's own description, else the one it inherits, else None."""
        found = self._found
        if ref in found:
            return found[ref]
        # Depth-first over identity upstreams, without recursion: chains can be long. An
        # upstream still on the stack closes a cycle (a model reading itself): no description.
        stack, on_stack = [ref], {ref}
        while stack:
            current = stack[-1]
            if current in found:
                on_stack.discard(stack.pop())
                continue
            own = self._own(current)
            edges = self._incoming(current)
            if own is None and edges and all(e.kind is EdgeKind.IDENTITY for e in edges):
                pending = [e.source for e in edges if e.source not in found]
                pending = [p for p in dict.fromkeys(pending) if p not in on_stack]
                if pending:
                    stack.extend(pending)  # type: ignore[arg-type]
                    on_stack.update(pending)  # type: ignore[arg-type]
                    continue
                own = _agree([(e.source, found.get(e.source)) for e in edges])  # type: ignore[misc]
            found[current] = own or self._recorded(current)
            on_stack.discard(stack.pop())
        return found[ref]

    def inherited(self) -> dict[ColumnRef, ColumnDescription]:
        """Every column of a relation that has no description of its own but inherits one,
        by node and column."""
        proposals = {}
        with gc_paused():
            for node_id in sorted(self.graph.columns):
                by_name = self.graph.columns[node_id]
                for name in sorted(by_name):
                    column = by_name[name]
                    if column.description and OURS not in column.meta:
                        continue  # documented by the project: nothing to inherit
                    ref = ColumnRef(node_id, name)
                    found = self.describe(ref)
                    if found is not None and found.inherited:
                        proposals[ref] = found
        return proposals

    def _incoming(self, ref: ColumnRef) -> list[LineageEdge]:
        """The direct edges into ``ref``: from the edge index when there is one, else from
        the graph's networkx index (which ``impact`` has already built)."""
        if self._index is not None:
            return self._index.direct_in.get(ref, [])
        found = self.graph.digraph().pred.get(ref, {})
        return [
            data["edge"]
            for keyed in found.values()
            for data in keyed.values()
            if data["edge"].type is EdgeType.DIRECT
        ]

    def _own(self, ref: ColumnRef) -> ColumnDescription | None:
        """The description the project wrote for the column (not one we wrote)."""
        column: ColumnNode | None = self.graph.columns.get(ref.node_id, {}).get(ref.column)
        if column is None or not column.description.strip():
            return None
        ours = column.meta.get(OURS)
        if isinstance(ours, dict) and "description_from" in ours:
            return None
        return ColumnDescription(column.description)

    def _recorded(self, ref: ColumnRef) -> ColumnDescription | None:
        """A description ``--write-yaml`` wrote, with the source it recorded, when the lineage
        no longer gives one."""
        column = self.graph.columns.get(ref.node_id, {}).get(ref.column)
        ours = column.meta.get(OURS) if column is not None else None
        if column is None or not isinstance(ours, dict) or not column.description.strip():
            return None
        source = ours.get("description_from")
        if not isinstance(source, dict) or not {"node", "column"} <= source.keys():
            return None
        hops = ours.get("description_hops")
        return ColumnDescription(
            column.description,
            ColumnRef(str(source["node"]), str(source["column"])),
            hops if isinstance(hops, int) else 0,
        )


def _agree(upstream: list[tuple[ColumnRef, ColumnDescription | None]]) -> ColumnDescription | None:
    """The description every upstream gives, from the nearest documented column; None when
    one has none or they differ."""
    if any(found is None for _, found in upstream):
        return None
    texts = {found.text for _, found in upstream if found is not None}
    if len(texts) != 1:
        return None
    options = [
        (found.source or ref, found.hops + 1) for ref, found in upstream if found is not None
    ]
    source, hops = min(options, key=lambda option: (option[1], option[0]))
    return ColumnDescription(texts.pop(), source, hops)


def doc_inheritance(graph: LineageGraph, *, index: EdgeIndex | None = None) -> DocInheritance:
    """The descriptions of ``graph``'s columns, own or inherited through identity copies.

    ``describe(ref)`` answers for one column (walking only what it needs);
    ``inherited()`` lists every inherited description. With ``index`` (``edge_index``) a
    pass over every column is faster; without, the graph's networkx index is used.

    >>> from dbt_lineage.graph.model import (
    ...     ColumnNode, EdgeType, LineageEdge, NodeType, RelationNode)
    >>> def col(ref, text=""):
    ...     return ColumnNode(node_id=ref.node_id, column=ref.column, type=NodeType.COLUMN,
    ...                       name=ref.column, description=text)
    >>> stg, mart = ColumnRef("model.p.stg", "id"), ColumnRef("model.p.mart", "customer_id")
    >>> graph = LineageGraph(
    ...     nodes={r.node_id: RelationNode(node_id=r.node_id, type=NodeType.MODEL, name="x")
    ...            for r in (stg, mart)},
    ...     columns={stg.node_id: {"id": col(stg, "Customer id.")},
    ...              mart.node_id: {"customer_id": col(mart)}},
    ...     edges=[LineageEdge(stg, mart, EdgeType.DIRECT, EdgeKind.IDENTITY)])
    >>> found = doc_inheritance(graph).describe(mart)
    >>> found.text, found.source, found.hops
    ('Customer id.', ColumnRef(node_id='model.p.stg', column='id'), 1)
    """
    return DocInheritance(graph, index)
