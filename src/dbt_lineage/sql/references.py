"""Column references resolved to the source that holds them, down to base-table columns.

A qualified reference names its source (own scope first, then an outer query's). An
unqualified one belongs to the one source that holds it: a source whose columns are known
and list it; else, when none lists it, the one source whose columns are unknown (its column
is then inferred). Two sources listing it is an ambiguous column; two unknown sources that
may hold it, and none listing it, is ambiguous too, never guessed. A name that the sources of
its own query list their columns without is taken from an outer query (a correlated
reference), with a note: the guess is right when those lists are. ``a.b`` where ``a`` is no
source reads field ``b`` of column ``a`` (a struct), down to the deepest field the catalog
lists.
"""

from __future__ import annotations

from sqlglot import exp
from sqlglot.optimizer.scope import Scope

from dbt_lineage.sql.edges import IDENTITY, TRANSFORM, Edges
from dbt_lineage.sql.source_columns import SourceColumns
from dbt_lineage.sql.walk_base import (
    Owner,
    Source,
    find_source,
    label,
    outer_scope,
)
from dbt_lineage.types import UnresolvedReason

_UNKNOWN = UnresolvedReason.UNKNOWN_COLUMN.value
_AMBIGUOUS = UnresolvedReason.AMBIGUOUS_COLUMN.value
_AMBIGUOUS_STAR = UnresolvedReason.AMBIGUOUS_STAR.value
NOTE = UnresolvedReason.NOTE.value


class References(SourceColumns):
    """The references part of the walk."""

    def resolve_ref(self, scope: Scope, column: exp.Expr, *, position: int = -1) -> Edges:
        """Resolve one column reference met in ``scope``.

        ``position`` is the projection the reference sits in (-1 in a clause): a name no
        source lists may be an earlier projection's alias (a lateral column alias).
        """
        self.deeper()
        edges = self._resolve_ref(scope, column, position)
        self.depth -= 1
        return edges

    def _resolve_ref(self, scope: Scope, column: exp.Expr, position: int) -> Edges:
        if isinstance(column, exp.TableColumn):
            return self.whole_row(scope, column.name)
        if isinstance(column, exp.Columns):
            detail = f"{column.sql(comments=False)} selects columns by pattern"
            return Edges.problem(f"{UnresolvedReason.UNSUPPORTED_SQL.value}: {detail}")
        if not isinstance(column, exp.Column):
            return Edges()
        name = column.name
        table = column.table
        if table:
            source = find_source(scope, table)
            if source is not None:
                return self.resolve_in_source(source, name, column)
            pivoted = self.find_pivot(scope, table)
            if pivoted is not None:
                return self.pivot_column(pivoted[0], pivoted[1], name, column)
            return self.struct_path(scope, column, position)
        using = self._using_sides(scope, name)
        if using is not None:
            sides, full = using
            edges = Edges()
            for side in sides:
                edges.absorb(self.resolve_in_source(side, name, column), IDENTITY, None)
            return edges.raised(TRANSFORM) if full else edges
        return self._unqualified(scope, column, position)

    def _unqualified(self, scope: Scope, column: exp.Column, position: int) -> Edges:
        name = column.name
        current: Scope | None = scope
        inner: Scope | None = None
        fallback: Source | None = None
        while current is not None:
            # A table function's arguments see only the sources to its left, never itself
            # (BigQuery's ``unnest(tags) tags`` reads column ``tags`` of the table before it).
            left_of = inner if inner is not None and inner.is_udtf else None
            owner = self.owner(current, name, left_of)
            if owner.problem:
                return Edges.problem(owner.problem)
            if owner.source is not None:
                definite = self.holds(owner.source, name) is True
                if not definite and self._is_alias(
                    current, name, position if current is scope else -2
                ):
                    self.notes[
                        f"{NOTE}: {name} is taken as the alias of an earlier projection, not "
                        f"as a column of {label(owner.source)}, whose columns are unknown"
                    ] = None
                    return self._alias(current, name)
                if current is not scope:
                    self._correlated(scope, name, owner.source)
                return self.resolve_in_source(owner.source, name, column)
            here = position if current is scope else -2
            if self._is_alias(current, name, here):
                # A projection's alias; from a table function in FROM (Snowflake's FLATTEN
                # over an alias of the same SELECT), any of the outer SELECT's aliases.
                return self._alias(current, name)
            fallback = fallback or self.single_lacking(current)
            inner, current = current, outer_scope(current)
        unnest = self.unnest_alias(scope, name) if not scope.is_udtf else None
        if unnest is not None:
            return self.udtf_column(unnest, name)
        whole = find_source(scope, name)
        if whole is not None and whole is not scope:
            return self.whole_row(scope, name)
        if fallback is not None:
            return self.resolve_in_source(fallback, name, column)
        return Edges.problem(f"{_UNKNOWN}: column {name} is not a column of any source")

    def _correlated(self, scope: Scope, name: str, outer: Source) -> None:
        """Note that ``name``, lacking from the listed sources of ``scope``, is read from
        ``outer`` (a source of an outer query)."""
        inner = [label(source) for _, source in self.ordered_sources(scope)]
        if inner:
            self.notes[
                f"{NOTE}: column {name} is not in {', '.join(inner)}, whose columns are known: "
                f"taken from {label(outer)}, of an outer query (a correlated reference)"
            ] = None

    def _is_alias(self, scope: Scope, name: str, position: int) -> bool:
        """Whether ``name`` is the alias of a projection before ``position`` (any when -2)."""
        if position == -1 or not isinstance(scope.expression, exp.Select):
            return False
        aliases = self._aliases.get(id(scope))
        if aliases is None:
            aliases = self._aliases[id(scope)] = {}
            for index, projection in enumerate(scope.expression.selects):
                if isinstance(projection, exp.Alias):
                    aliases.setdefault(projection.alias, index)
        first = aliases.get(name)
        return first is not None and (position < 0 or first < position)

    def _alias(self, scope: Scope, name: str) -> Edges:
        return self.resolve_output(scope, name)

    def owner(self, scope: Scope, name: str, before: Scope | None = None) -> Owner:
        """The one source of ``scope`` (this level only) that holds unqualified ``name``;
        only those left of source ``before`` when given."""
        definite: list[Source] = []
        possible: list[Source] = []
        sources = self.ordered_sources(scope)
        if before is not None:
            positions = [i for i, (_, source) in enumerate(sources) if source is before]
            sources = sources[: positions[0]] if positions else sources
        for _, source in sources:
            holds = self.holds(source, name)
            if holds:
                definite.append(source)
            elif holds is None:
                possible.append(source)
        if len(definite) == 1:
            return Owner(definite[0])
        if definite:
            element = self.unnest_alias(scope, name)
            if element is not None and element in definite:
                return Owner(element)  # BigQuery: an UNNEST's alias is its element

            labels = ", ".join(label(source) for source in definite)
            return Owner(problem=f"{_AMBIGUOUS}: column {name} is in {labels}")
        if len(possible) == 1:
            chosen = possible[0]
            lacking = [  # a table function's columns are its own: beside it, no guess
                label(s)
                for _, s in self.ordered_sources(scope)
                if s is not chosen and not (isinstance(s, Scope) and s.is_udtf)
            ]
            if lacking:
                self.notes[
                    f"{NOTE}: column {name} is not in {', '.join(lacking)}, whose columns are "
                    f"known: taken from {label(possible[0])}, whose columns are unknown"
                ] = None
            return Owner(possible[0])
        if possible:
            labels = ", ".join(label(source) for source in possible)
            reason = (
                _AMBIGUOUS_STAR
                if any(isinstance(s, Scope) and self.has_stars(s) for s in possible)
                else _AMBIGUOUS
            )
            return Owner(problem=f"{reason}: column {name} could come from {labels}")
        return Owner()

    def single_lacking(self, scope: Scope) -> Source | None:
        """The only source of a scope, when it is known and lacks the name (for the message)."""
        sources = self.ordered_sources(scope)
        return sources[0][1] if len(sources) == 1 else None

    def _using_sides(self, scope: Scope, name: str) -> tuple[list[Source], bool] | None:
        select = scope.expression
        if not isinstance(select, exp.Select) or not select.args.get("joins"):
            return None
        for join in select.args["joins"]:
            using = join.args.get("using")
            if using and any(node.name == name for node in using):
                sides = [s for _, s in self.ordered_sources(scope) if self.holds(s, name)]
                if len(sides) < 2:
                    sides = [
                        s
                        for _, s in self.ordered_sources(scope)
                        if self.holds(s, name) is not False
                    ]
                return sides, join.side == "FULL"
        return None
