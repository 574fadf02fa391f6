"""Small shared types: layers, edge kinds and typed keys.

Everything else in the package speaks in these terms, so they sit at the bottom of the
layering and import nothing from the project.
"""

from __future__ import annotations

import enum
import typing as t


class Layer(str, enum.Enum):
    """Which layer of the lineage model a node or edge belongs to."""

    SCHEMA = "schema"
    INSTANCE = "instance"


class EdgeKind(str, enum.Enum):
    """How an upstream column feeds a column (direct) or steers which rows appear (indirect).

    The one ordered kind type: direct kinds rank by strength (aggregate > transform >
    identity), every indirect subtype ranks below any direct kind. When one upstream reaches
    a column by several paths, the strongest kind wins.

    >>> EdgeKind.IDENTITY.strongest(EdgeKind.AGGREGATE).value
    'aggregate'
    >>> EdgeKind("window").is_direct, EdgeKind.WINDOW.rank < EdgeKind.IDENTITY.rank
    (False, True)
    """

    rank: int
    openlineage: tuple[str, str]
    """OpenLineage's transformation ``type`` and ``subtype`` for the kind."""

    def __new__(cls, value: str, rank: int, subtype: str) -> EdgeKind:
        member = str.__new__(cls, value)
        member._value_ = value
        member.rank = rank
        member.openlineage = ("DIRECT" if rank else "INDIRECT", subtype)
        return member

    IDENTITY = ("identity", 1, "IDENTITY")
    TRANSFORM = ("transform", 2, "TRANSFORMATION")
    AGGREGATE = ("aggregate", 3, "AGGREGATION")
    JOIN = ("join", 0, "JOIN")
    FILTER = ("filter", 0, "FILTER")
    GROUP_BY = ("group_by", 0, "GROUP_BY")
    WINDOW = ("window", 0, "WINDOW")
    SORT = ("sort", 0, "SORT")
    DISTINCT = ("distinct", 0, "DISTINCT")

    @property
    def is_direct(self) -> bool:
        return self.rank > 0

    def strongest(self, other: EdgeKind) -> EdgeKind:
        """The stronger of two kinds (``self`` on ties)."""
        return self if self.rank >= other.rank else other

    @classmethod
    def direct(cls) -> tuple[EdgeKind, ...]:
        """The direct kinds, weakest first."""
        return _DIRECT

    @classmethod
    def indirect(cls) -> tuple[EdgeKind, ...]:
        """The indirect subtypes, in declaration order."""
        return _INDIRECT

    @classmethod
    def by_rank(cls, rank: int) -> EdgeKind:
        """The direct kind of ``rank`` (1 identity, 2 transform, 3 aggregate)."""
        return _DIRECT[rank - 1]


_DIRECT = (EdgeKind.IDENTITY, EdgeKind.TRANSFORM, EdgeKind.AGGREGATE)
_INDIRECT = tuple(kind for kind in EdgeKind if not kind.is_direct)


class ColumnRef(t.NamedTuple):
    """A column of a dbt node: the typed key used everywhere instead of joined strings."""

    node_id: str
    column: str


class RunRef(t.NamedTuple):
    """One node run of the instance layer: a dbt node executed in one invocation."""

    invocation_id: str
    unique_id: str


class UnresolvedReason(str, enum.Enum):
    """Why a column's lineage could not be resolved (the README lists what to do for each)."""

    NO_COMPILED_SQL = "no_compiled_sql"
    PARSE_ERROR = "parse_error"
    UNKNOWN_COLUMN = "unknown_column"
    AMBIGUOUS_COLUMN = "ambiguous_column"
    AMBIGUOUS_STAR = "ambiguous_star"
    UNKNOWN_TABLE = "unknown_table"
    STAR_UNKNOWN_COLUMNS = "star_unknown_columns"
    UNSUPPORTED_SQL = "unsupported_sql"
    UNSUPPORTED_STATEMENT = "unsupported_statement"
    UPSTREAM_FAILED = "upstream_failed"
    NO_COLUMNS = "no_columns"
    UNNAMED_COLUMN = "unnamed_column"
    INTERNAL_ERROR = "internal_error"
    TIMEOUT = "timeout"
    SET_OPERATION_WIDTH_MISMATCH = "set_operation_width_mismatch"
    """The branches of a UNION (INTERSECT, EXCEPT) have different widths as known here."""
    NOTE = "note"
    """Not a column's reason: something to know about a node (other statements left out)."""


DEFAULT_NODE_TIMEOUT = 60.0
"""Seconds one node may take to resolve in a worker before it becomes a ``timeout``
diagnostic (``dbt-lineage build --node-timeout``)."""
