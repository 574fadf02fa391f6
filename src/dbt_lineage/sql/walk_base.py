"""The state every part of the scope walk shares, and the calls the parts make of each other.

The walk is one object assembled from parts, each in its own module: pivots
(:mod:`pivots`), table functions (:mod:`table_functions`), the clauses that decide rows
(:mod:`row_clauses`), struct fields (:mod:`fields`), references to columns
(:mod:`references`), stars (:mod:`stars`) and outputs of scopes (:mod:`scope_outputs`). They
form one chain of single inheritance in that order, from :class:`WalkerBase`, which holds the
memos and names the methods the parts provide: a part calls the others through those names
only, never through its base's module. A chain rather than mixins, because the compiled build
(mypyc; see ``setup.py``) makes single-inheritance classes native, and native method calls
and attribute reads are the walk's hot path.

The walk recurses from scope to scope and reference to reference. Every cycle of its calls
passes through a *guarded* method, which counts how deeply the calls nest (``deeper``): past
``MAX_DEPTH`` the walk stops with :class:`NestedTooDeep`, which the caller reports as
``unsupported_sql: nested too deep``, before Python's recursion limit (pure Python) or the C
stack (the compiled engine, where a stack overflow kills the process) is reached.
``tests/sql/test_depth_bounds.py`` checks that every cycle passes through a guarded method.
"""

from __future__ import annotations

import typing as t

from sqlglot import exp
from sqlglot.optimizer.scope import Scope

from dbt_lineage.sql.edges import Edges, Parts
from dbt_lineage.sql.names import NameIndex, Names
from dbt_lineage.sql.schema_index import SchemaIndex, Table
from dbt_lineage.types import EdgeKind

Source = t.Union[exp.Table, Scope]  # noqa: UP007 - a runtime alias

MAX_DEPTH = 150
"""Guarded calls the walk may nest (a chain of CTEs costs three a link: an output, the
reference its projection makes, the source that reference names; about 50 links). Python
frames per guarded call stay under six, so the walk stays within Python's default recursion
limit of 1,000, and far within the C stack of the compiled engine."""

NESTED_TOO_DEEP = "nested too deep"


class NestedTooDeep(Exception):
    """The query nests scopes or references deeper than the walk follows (``MAX_DEPTH``)."""


class Output(t.NamedTuple):
    """One output column of a SELECT scope.

    ``body`` is the projection without its alias. A column that a star passes through has
    ``body`` None and names its ``source`` (and the name it has there) instead.
    ``position`` is the projection's place in the SELECT list.
    """

    name: str
    body: exp.Expr | None
    position: int = -1
    source: Source | None = None
    source_name: str = ""
    using: tuple[Source, ...] = ()
    """For the key of a USING / NATURAL join expanded by a star: every side holding it."""
    full: bool = False
    """Whether that join is a FULL join (its key is then a real COALESCE)."""


class Star(t.NamedTuple):
    """A star over a source whose columns are unknown: the names it adds are not known."""

    node: exp.Expr
    source: Source


class Shape(t.NamedTuple):
    """What a SELECT scope outputs: named columns in order, and stars left unexpanded."""

    outputs: list[Output]
    stars: list[Star]
    name_index: NameIndex
    by_name: dict[str, Output]
    """Each output by its name (the first, when a name repeats)."""


class Owner(t.NamedTuple):
    """The one source that holds a column, or why there is none (empty: none at all)."""

    source: Source | None = None
    problem: str = ""


class WalkerBase:
    """Memoised resolution over the scopes of one query: shared state.

    Args:
        root: the root scope of the query (identifiers normalised the dialect's way).
        index: the caller's schema.
    """

    def __init__(self, root: Scope, index: SchemaIndex) -> None:
        self.root = root
        self.index = index
        self.names: Names = index.names
        self.scope_of: dict[int, Scope] = {id(s.expression): s for s in root.traverse()}
        self.inferred: dict[Parts, dict[str, None]] = {}
        """Columns read from tables whose column lists are unknown or incomplete."""
        self.known: dict[Parts, Table] = {}
        self._outputs: dict[tuple[int, str], Edges] = {}
        self._active: set[tuple[int, str]] = set()
        self._rows: dict[int, Edges] = {}
        self._tables: dict[int, tuple[Parts, Table | None]] = {}
        self._shapes: dict[int, Shape] = {}
        self._names: dict[int, list[str]] = {}
        self._name_index: dict[int, NameIndex] = {}
        self._ordered: dict[int, list[tuple[str, Source]]] = {}
        self._stars: dict[int, bool] = {}
        self._aliases: dict[int, dict[str, int]] = {}
        self._holds: dict[tuple[int, str], bool | None] = {}
        self._recursive: dict[int, Scope | None] = {}
        self._renamed: dict[int, list[str]] = {}
        self.notes: dict[str, None] = {}
        """What the caller should hear about beyond the columns, in order, each once: the
        guesses the walk made (an ``UnresolvedReason`` value, ``: detail``)."""
        self._widths: dict[int, int] = {}
        self._folded_tables: set[Parts] = set()
        self.depth = 0
        """Guarded calls now nested (``deeper``); a call that raises leaves it raised, as
        the walk it aborts is not used again."""

    def deeper(self) -> None:
        """Enter a guarded call (the caller leaves it with ``self.depth -= 1``)."""
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise NestedTooDeep(
                f"{NESTED_TOO_DEEP}: more than {MAX_DEPTH} nested steps of CTEs, subqueries "
                "and column references"
            )

    # -- provided by scope_outputs ---------------------------------------------------------

    def output_names(self, scope: Scope) -> list[str]:
        raise NotImplementedError

    def output_index(self, scope: Scope) -> NameIndex:
        raise NotImplementedError

    def shape(self, scope: Scope) -> Shape:
        raise NotImplementedError

    def resolve_output(self, scope: Scope, name: str) -> Edges:
        raise NotImplementedError

    def subquery_value(self, query: exp.Expr) -> Edges:
        raise NotImplementedError

    def projection_edges(self, scope: Scope, body: exp.Expr, position: int = -1) -> Edges:
        raise NotImplementedError

    def value_branches(self, scope: Scope) -> list[Scope]:
        raise NotImplementedError

    # -- provided by references ------------------------------------------------------------

    def resolve_ref(self, scope: Scope, column: exp.Expr, *, position: int = -1) -> Edges:
        raise NotImplementedError

    def resolve_in_source(self, source: Source, name: str, column: exp.Expr | None) -> Edges:
        raise NotImplementedError

    def unpivoted_column(self, source: Source, name: str, column: exp.Expr | None) -> Edges:
        raise NotImplementedError

    def unpivoted_names(self, source: Source) -> list[str] | None:
        raise NotImplementedError

    def using_keys(self, scope: Scope) -> list[tuple[str, list[Source], bool]]:
        raise NotImplementedError

    def owner(self, scope: Scope, name: str, before: Scope | None = None) -> Owner:
        raise NotImplementedError

    def single_lacking(self, scope: Scope) -> Source | None:
        raise NotImplementedError

    # -- provided by fields ----------------------------------------------------------------

    def field_ref(self, scope: Scope, column: exp.Expr, field: str, position: int) -> Edges:
        raise NotImplementedError

    def struct_path(self, scope: Scope, column: exp.Column, position: int) -> Edges:
        raise NotImplementedError

    def whole_row(self, scope: Scope, name: str) -> Edges:
        raise NotImplementedError

    def struct_star(self, scope: Scope, path: list[str]) -> list[str] | None:
        raise NotImplementedError

    # -- provided by stars -----------------------------------------------------------------

    def expand_star(
        self, scope: Scope, star: exp.Expr, outputs: list[Output], stars: list[Star]
    ) -> None:
        raise NotImplementedError

    def through_stars(self, scope: Scope, stars: list[Star], name: str) -> Edges:
        raise NotImplementedError

    def has_stars(self, scope: Scope) -> bool:
        raise NotImplementedError

    def base_column(self, table: exp.Table, name: str, column: exp.Expr | None) -> Edges:
        raise NotImplementedError

    def table_info(self, table: exp.Table) -> tuple[Parts, Table | None]:
        raise NotImplementedError

    def holds(self, source: Source, name: str) -> bool | None:
        raise NotImplementedError

    def source_names(self, source: Source) -> list[str] | None:
        raise NotImplementedError

    def ordered_sources(self, scope: Scope) -> list[tuple[str, Source]]:
        raise NotImplementedError

    # -- provided by row_clauses -----------------------------------------------------------

    def scope_rows(self, scope: Scope) -> Edges:
        raise NotImplementedError

    def clause(
        self, scope: Scope, node: exp.Expr, kind: EdgeKind, edges: Edges, *, scoped: bool = False
    ) -> None:
        raise NotImplementedError

    # -- provided by table_functions -------------------------------------------------------

    def udtf_column(self, scope: Scope, name: str) -> Edges:
        raise NotImplementedError

    def udtf_names(self, scope: Scope) -> list[str] | None:
        raise NotImplementedError

    def unnest_alias(self, scope: Scope, name: str) -> Scope | None:
        raise NotImplementedError

    def computed_from(self, scope: Scope, node: exp.Expr) -> Edges:
        raise NotImplementedError

    def inner_scopes(self, scope: Scope) -> list[Scope]:
        raise NotImplementedError

    # -- provided by pivots ----------------------------------------------------------------

    def find_pivot(self, scope: Scope, alias: str) -> tuple[Source, exp.Pivot] | None:
        raise NotImplementedError

    def pivot_column(
        self, source: Source, pivot: exp.Pivot, name: str, column: exp.Expr | None
    ) -> Edges:
        raise NotImplementedError

    def pivot_rows(self, source: Source, pivot: exp.Pivot) -> Edges:
        raise NotImplementedError

    def pivot_names(self, source: Source, pivot: exp.Pivot) -> list[str] | None:
        raise NotImplementedError


def pivots_of(source: Source) -> list[exp.Pivot]:
    """The PIVOT / UNPIVOT clauses applied to a source (a table, or a derived table)."""
    if isinstance(source, Scope):
        node = source.expression.parent
        if type(node) is not exp.Subquery:
            return _NONE
        return node.args.get("pivots") or _NONE
    return source.args.get("pivots") or _NONE


_NONE: list[exp.Pivot] = []


def label(source: Source) -> str:
    """How a source reads in a message (display only)."""
    if isinstance(source, Scope):
        parent = source.expression.parent
        alias = parent.alias if parent is not None and hasattr(parent, "alias") else ""
        return f"scope {alias or source.scope_type.name.lower()}"
    return ".".join(part.name for part in source.parts) or source.sql()


def find_source(scope: Scope, name: str) -> Source | None:
    """The source ``name`` visible from ``scope``: its own, else an outer query's."""
    current: Scope | None = scope
    while current is not None:
        source = current.sources.get(name)
        if source is not None:
            return source
        current = outer_scope(current)
    return None


def outer_scope(scope: Scope) -> Scope | None:
    """The scope whose columns ``scope`` may read (a correlated subquery, a LATERAL), or None.

    A CTE or a plain derived table cannot see the query that reads it; inside a correlated
    subquery it sees what that query sees (the levels outside it).
    """
    current = scope
    while True:  # a loop, not recursion: it climbs as many levels as the query nests
        if current.is_subquery or current.is_udtf or current.is_set_operation:
            return current.parent
        if not current.can_be_correlated or current.parent is None:
            return None
        current = current.parent


def alias_columns(node: exp.Expr | None) -> list[str]:
    """The column names of ``AS alias(c1, c2, ...)``, or []."""
    alias = node.args.get("alias") if node is not None else None
    if not isinstance(alias, exp.TableAlias):
        return []
    return [col.name for col in alias.columns]


def names_element(unnest: exp.Expr) -> bool:
    """Whether an UNNEST's alias names its element, not a table (BigQuery ``AS item``)."""
    alias = unnest.args.get("alias")
    return isinstance(alias, exp.TableAlias) and alias.this is None and len(alias.columns) == 1
