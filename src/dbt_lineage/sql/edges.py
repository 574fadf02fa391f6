"""The partial result of resolving one column (or one scope's clauses) and how results compose.

Direct edges are keyed by ``(table_parts, column)`` and carry a rank (0 identity, 1
transform, 2 aggregate) and the expression node that set it; indirect edges are keyed by
``((table_parts, column), kind)``. Nodes are rendered to SQL only at the very end, once
per edge that survives, because rendering is the expensive part.
"""

from __future__ import annotations

import typing as t

from sqlglot import exp

from dbt_lineage.types import EdgeKind

Parts = tuple[str, ...]
Key = tuple[Parts, str]

JOIN = EdgeKind.JOIN.value
FILTER = EdgeKind.FILTER.value
GROUP_BY = EdgeKind.GROUP_BY.value
WINDOW = EdgeKind.WINDOW.value
SORT = EdgeKind.SORT.value
DISTINCT = EdgeKind.DISTINCT.value


class Edges:
    """Direct and indirect upstreams found so far, plus the problems met on the way."""

    __slots__ = ("direct", "indirect", "scoped", "problems")

    def __init__(self) -> None:
        self.direct: dict[Key, tuple[int, exp.Expr | None]] = {}
        self.indirect: dict[tuple[Key, str], exp.Expr | None] = {}
        """Row-set indirect edges: they steer which rows appear."""
        self.scoped: dict[tuple[Key, str], exp.Expr | None] = {}
        """Column-scoped indirect edges: the keys of the windows that compute the value."""
        self.problems: list[str] = []

    @classmethod
    def base(cls, key: Key, node: exp.Expr) -> Edges:
        """One identity edge to a base table column."""
        edges = cls()
        edges.direct[key] = (0, node)
        return edges

    @classmethod
    def problem(cls, reason: str) -> Edges:
        """No edges, one problem (an ``UnresolvedReason`` value with ``: detail``)."""
        edges = cls()
        edges.problems.append(reason)
        return edges

    def absorb(self, other: Edges, rank: int, node: exp.Expr | None) -> None:
        """Add ``other`` seen through a step of strength ``rank`` made by ``node``.

        The composed kind is the strongest along the path; the expression kept is the one
        of the step that set it (the outer one on ties, unless the step is a bare copy).
        When a key arrives by several paths the strongest wins.
        """
        direct = self.direct
        for key, (inner_rank, inner_node) in other.direct.items():
            if rank > 0 and rank >= inner_rank and node is not None:
                new = (rank, node)
            else:
                new = (inner_rank, inner_node)
            current = direct.get(key)
            if current is None or current[0] < new[0]:
                direct[key] = new
        for ikey, inner_node in other.scoped.items():
            self.scoped.setdefault(ikey, inner_node)
        self.merge_side(other)

    def absorb_scoped(self, other: Edges, kind: str, node: exp.Expr | None) -> None:
        """Add ``other``'s direct upstreams as column-scoped indirect edges of ``kind``."""
        scoped = self.scoped
        for key in other.direct:
            scoped.setdefault((key, kind), node)
        for ikey, inner_node in other.scoped.items():
            scoped.setdefault(ikey, inner_node)
        self.merge_side(other)

    def absorb_as(self, other: Edges, kind: str, node: exp.Expr | None) -> None:
        """Add ``other``'s direct upstreams as indirect edges of ``kind``.

        A value computed over a window (``row_number() ... as rn``) also depends on the
        window's keys; a clause on it (``where rn = 1``) is a clause on those keys too.
        """
        indirect = self.indirect
        for key in other.direct:
            indirect.setdefault((key, kind), node)
        for key, _ in other.scoped:
            indirect.setdefault((key, kind), node)
        self.merge_side(other)

    def merge_side(self, other: Edges) -> None:
        """Add ``other``'s indirect edges and problems (not its direct ones)."""
        indirect = self.indirect
        for ikey, node in other.indirect.items():
            indirect.setdefault(ikey, node)
        if other.problems:
            for problem in other.problems:
                if problem not in self.problems:
                    self.problems.append(problem)

    def raised(self, rank: int) -> Edges:
        """A copy whose direct ranks are at least ``rank``."""
        edges = Edges()
        for key, (inner_rank, inner_node) in self.direct.items():
            edges.direct[key] = (max(rank, inner_rank), inner_node)
        edges.scoped.update(self.scoped)
        edges.merge_side(self)
        return edges


def dotted(parts: t.Sequence[str]) -> str:
    """A table's display name from its parts (display only, never used as a key)."""
    return ".".join(parts)


def is_star(node: exp.Expr) -> bool:
    """Whether a projection is ``*``, ``t.*`` or ``expr.*`` (left unexpanded by qualify)."""
    return (
        isinstance(node, exp.Star)
        or (isinstance(node, (exp.Column, exp.Dot)) and isinstance(node.args.get("this"), exp.Star))
        or (isinstance(node, exp.Dot) and isinstance(node.expression, exp.Star))
    )
