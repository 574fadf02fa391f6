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


class DirectKind(str, enum.Enum):
    """How an output column's value derives from an upstream column.

    Ordered by strength: when one upstream reaches an output by several paths, the
    strongest kind wins (aggregate > transform > identity).
    """

    IDENTITY = "identity"
    TRANSFORM = "transform"
    AGGREGATE = "aggregate"

    @property
    def rank(self) -> int:
        return _DIRECT_RANK[self]

    def strongest(self, other: DirectKind) -> DirectKind:
        """The stronger of two kinds.

        >>> DirectKind.IDENTITY.strongest(DirectKind.AGGREGATE).value
        'aggregate'
        """
        return self if self.rank >= other.rank else other

    @property
    def openlineage(self) -> str:
        """The OpenLineage column-lineage subtype name."""
        return _DIRECT_OPENLINEAGE[self]


_DIRECT_RANK = {DirectKind.IDENTITY: 0, DirectKind.TRANSFORM: 1, DirectKind.AGGREGATE: 2}
_DIRECT_OPENLINEAGE = {
    DirectKind.IDENTITY: "IDENTITY",
    DirectKind.TRANSFORM: "TRANSFORMATION",
    DirectKind.AGGREGATE: "AGGREGATION",
}


class IndirectKind(str, enum.Enum):
    """Why a column steers which rows appear, without feeding any value."""

    JOIN = "join"
    FILTER = "filter"
    GROUP_BY = "group_by"
    WINDOW = "window"
    SORT = "sort"
    DISTINCT = "distinct"

    @property
    def openlineage(self) -> str:
        """The OpenLineage indirect subtype name (DISTINCT has none there; we keep ours)."""
        return self.value.upper()


class ColumnRef(t.NamedTuple):
    """A column of a dbt node: the typed key used everywhere instead of joined strings."""

    node_id: str
    column: str


class RunRef(t.NamedTuple):
    """One node run of the instance layer: a dbt node executed in one invocation."""

    invocation_id: str
    unique_id: str


class UnresolvedReason(str, enum.Enum):
    """Why a column's lineage could not be resolved."""

    NO_COMPILED_SQL = "no_compiled_sql"
    PARSE_ERROR = "parse_error"
    UNKNOWN_COLUMN = "unknown_column"
    UNKNOWN_TABLE = "unknown_table"
    STAR_UNKNOWN_COLUMNS = "star_unknown_columns"
    UNSUPPORTED_SQL = "unsupported_sql"
    UPSTREAM_FAILED = "upstream_failed"
    NO_COLUMNS = "no_columns"
