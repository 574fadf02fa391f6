"""The partial result of resolving one column (or one scope's clauses) and how results compose.

Direct edges are keyed by ``(table_parts, column)`` and carry a rank (``EdgeKind.rank``: 1
identity, 2 transform, 3 aggregate) and the expression node that set it. Indirect edges are
keyed by ``((table_parts, column), EdgeKind)``: row-set ones (they steer which rows appear)
apart from column-scoped ones (the keys of a window that computes the value). Nodes are
rendered to SQL only at the very end, once per edge that survives.
"""

from __future__ import annotations

import typing as t

from sqlglot import exp

from dbt_lineage.types import EdgeKind

Parts = tuple[str, ...]
Key = tuple[Parts, str]

IDENTITY = EdgeKind.IDENTITY.rank
TRANSFORM = EdgeKind.TRANSFORM.rank
AGGREGATE = EdgeKind.AGGREGATE.rank


class Edges:
    """Direct and indirect upstreams found so far, plus the problems met on the way."""

    __slots__ = ("direct", "indirect", "scoped", "problems")

    def __init__(self) -> None:
        self.direct: dict[Key, tuple[int, exp.Expr | None]] = {}
        self.indirect: dict[tuple[Key, EdgeKind], exp.Expr | None] = {}
        """Row-set indirect edges: they steer which rows appear."""
        self.scoped: dict[tuple[Key, EdgeKind], exp.Expr | None] = {}
        """Column-scoped indirect edges: they steer this value only (window keys)."""
        self.problems: list[str] = []

    @classmethod
    def base(cls, key: Key, node: exp.Expr | None) -> Edges:
        """One identity edge to a base table column."""
        edges = cls()
        edges.direct[key] = (IDENTITY, node)
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
        new: tuple[int, exp.Expr | None]
        for key, (inner_rank, inner_node) in other.direct.items():
            if rank > IDENTITY and rank >= inner_rank and node is not None:
                new = (rank, node)
            else:
                new = (inner_rank, inner_node)
            current = direct.get(key)
            if current is None or current[0] < new[0]:
                direct[key] = new
        if other.scoped:
            scoped = self.scoped
            for ikey, inner_node in other.scoped.items():
                scoped.setdefault(ikey, inner_node)
        self.merge_side(other)

    def absorb_scoped(self, other: Edges, kind: EdgeKind, node: exp.Expr | None) -> None:
        """Add ``other``'s upstreams as column-scoped indirect edges of ``kind``."""
        scoped = self.scoped
        for key in other.direct:
            scoped.setdefault((key, kind), node)
        for ikey, inner_node in other.scoped.items():
            scoped.setdefault(ikey, inner_node)
        self.merge_problems(other)

    def absorb_as(self, other: Edges, kind: EdgeKind, node: exp.Expr | None) -> None:
        """Add ``other``'s upstreams as row-set indirect edges of ``kind``.

        A value computed over a window (``row_number() ... as rn``) also depends on the
        window's keys; a clause on it (``where rn = 1``) is a clause on those keys too.
        """
        indirect = self.indirect
        for key in other.direct:
            indirect.setdefault((key, kind), node)
        for (key, _), _node in other.scoped.items():
            indirect.setdefault((key, kind), node)
        self.merge_side(other)

    def merge_side(self, other: Edges) -> None:
        """Add ``other``'s row-set indirect edges and problems (not its direct ones)."""
        if other.indirect:
            indirect = self.indirect
            for ikey, node in other.indirect.items():
                indirect.setdefault(ikey, node)
        self.merge_problems(other)

    def merge_problems(self, other: Edges) -> None:
        for problem in other.problems:
            if problem not in self.problems:
                self.problems.append(problem)

    def rows_as_scoped(self) -> Edges:
        """A copy whose row-set edges steer only the value they are attached to."""
        edges = Edges()
        edges.direct = self.direct
        edges.scoped = dict(self.scoped)
        for ikey, node in self.indirect.items():
            edges.scoped.setdefault(ikey, node)
        edges.problems = self.problems
        return edges

    def raised(self, rank: int) -> Edges:
        """A copy whose direct ranks are at least ``rank``."""
        edges = Edges()
        for key, (inner_rank, inner_node) in self.direct.items():
            edges.direct[key] = (max(rank, inner_rank), inner_node)
        edges.scoped = self.scoped
        edges.merge_side(self)
        return edges


def dotted(parts: t.Sequence[str]) -> str:
    """A table's display name from its parts (display only, never used as a key)."""
    return ".".join(parts)


def is_star(node: exp.Expr) -> bool:
    """Whether a projection is ``*``, ``t.*`` or ``expr.*``."""
    return (
        isinstance(node, exp.Star)
        or (isinstance(node, (exp.Column, exp.Dot)) and isinstance(node.args.get("this"), exp.Star))
        or (isinstance(node, exp.Dot) and isinstance(node.expression, exp.Star))
    )
