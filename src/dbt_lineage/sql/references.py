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

from dbt_lineage.sql.edges import IDENTITY, TRANSFORM, Edges, Parts, dotted
from dbt_lineage.sql.fields import Fields
from dbt_lineage.sql.schema_index import Table
from dbt_lineage.sql.table_functions import GENERATORS
from dbt_lineage.sql.walk_base import (
    Owner,
    Source,
    find_source,
    label,
    outer_scope,
    pivots_of,
)
from dbt_lineage.types import UnresolvedReason

_UNKNOWN = UnresolvedReason.UNKNOWN_COLUMN.value
_UNSET = object()
_AMBIGUOUS = UnresolvedReason.AMBIGUOUS_COLUMN.value
_AMBIGUOUS_STAR = UnresolvedReason.AMBIGUOUS_STAR.value
_UNKNOWN_TABLE = UnresolvedReason.UNKNOWN_TABLE.value
NOTE = UnresolvedReason.NOTE.value


class References(Fields):
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

    def resolve_in_source(self, source: Source, name: str, column: exp.Expr | None) -> Edges:
        """Resolve column ``name`` of a source (a base table or a scope), pivots applied."""
        self.deeper()
        pivots = pivots_of(source)
        if pivots:
            edges = self.pivot_column(source, pivots[-1], name, column)
        else:
            edges = self.unpivoted_column(source, name, column)
        self.depth -= 1
        return edges

    def unpivoted_column(self, source: Source, name: str, column: exp.Expr | None) -> Edges:
        """Column ``name`` of a source as it is before any PIVOT applied to it."""
        if isinstance(source, Scope):
            if source.is_udtf:
                return self.udtf_column(source, name)
            stored, candidates = self.output_index(source).match(name)
            if stored is not None:
                return self.resolve_output(source, stored)
            if candidates:
                detail = f"column {name} matches {', '.join(candidates)} in {label(source)}"
                return Edges.problem(f"{_AMBIGUOUS}: {detail}")
            if self.has_stars(source):
                return self.resolve_output(source, name)
            return Edges.problem(f"{_UNKNOWN}: column {name} not found in {label(source)}")
        return self.base_column(source, name, column)

    def base_column(self, table: exp.Table, name: str, column: exp.Expr | None) -> Edges:
        """An identity edge to ``table.name``, checked against (or added to) the schema."""
        if not isinstance(table.this, exp.Identifier):
            if table.this is None:
                detail = f"column {name} comes from {table.sql()}"
                return Edges.problem(f"{_UNKNOWN_TABLE}: {detail}")
            if isinstance(table.this, GENERATORS):
                # generate_series(...) and the like compute rows from their arguments.
                holder = self._scope_holding(table)
                return self.computed_from(holder, table.this) if holder else Edges()
            # A table function reading data (read_parquet(...)): no relation to point at.
            detail = f"column {name} comes from {table.this.sql()}"
            return Edges.problem(f"{_UNKNOWN_TABLE}: {detail}")
        recursive = self.recursive_cte(table)
        if recursive is not None:
            return self.resolve_in_source(recursive, name, column)
        parts, known = self.table_info(table)
        if known is None:
            self.inferred.setdefault(parts, {})[name] = None
            return Edges.base((parts, name), column)
        stored, candidates = known.index.match(name)
        if stored is not None:
            if known.strict and stored != name and not self.names.insensitive:
                self._folded_match(parts, name, stored)
            return Edges.base((parts, stored), column)
        if candidates:
            detail = f"column {name} matches {', '.join(candidates)} in table {dotted(parts)}"
            return Edges.problem(f"{_AMBIGUOUS}: {detail}")
        if not known.strict:
            self.inferred.setdefault(parts, {})[name] = None
            return Edges.base((parts, name), column)
        return Edges.problem(f"{_UNKNOWN}: column {name} not in table {dotted(parts)}")

    def _folded_match(self, parts: Parts, name: str, stored: str) -> None:
        """Note (once a table) a name matched to a stored one ignoring case: the dialect's
        own rule found none, and the one name equal but for case is taken."""
        if parts in self._folded_tables:
            return
        self._folded_tables.add(parts)
        self.notes[
            f"{NOTE}: names in table {dotted(parts)} are matched ignoring case where the "
            f"dialect's rule finds none (e.g. {name} as {stored}): its column list has each "
            "name once ignoring case, so that one is taken"
        ] = None

    def table_info(self, table: exp.Table) -> tuple[Parts, Table | None]:
        """Normalised parts of a base table and its schema entry (None when unknown)."""
        found = self._tables.get(id(table))
        if found is None:
            parts = tuple(part.name for part in table.parts)
            entry = self.index.lookup(parts)
            if entry is None:
                found = (parts, None)
            else:
                found = (entry.parts if len(entry.parts) >= len(parts) else parts, entry)
                self.known[found[0]] = entry
            self._tables[id(table)] = found
        return found

    def holds(self, source: Source, name: str) -> bool | None:
        """Whether ``source`` has a column ``name``: True, False, or None when unknown."""
        key = (id(source), name)
        found = self._holds.get(key, _UNSET)
        if found is _UNSET:
            self.deeper()
            found = self._holds[key] = self._holds_now(source, name)
            self.depth -= 1
        return found  # type: ignore[return-value]

    def _holds_now(self, source: Source, name: str) -> bool | None:
        pivots = pivots_of(source)
        if pivots:
            names = self.pivot_names(source, pivots[-1])
            return None if names is None else name in self.names.index(names)
        if isinstance(source, Scope):
            if source.is_udtf:
                names = self.udtf_names(source)
                return None if names is None else name in self.names.index(names)
            if name in self.output_index(source):
                return True
            return None if self.has_stars(source) else False
        if not isinstance(source.this, exp.Identifier):
            return None
        recursive = self.recursive_cte(source)
        if recursive is not None:
            return self.holds(recursive, name)
        known = self.table_info(source)[1]
        if known is None:
            return None
        if name in known.index:
            return True
        return None if not known.strict else False

    def source_names(self, source: Source) -> list[str] | None:
        """A source's column names in order (pivots applied), or None when unknown."""
        self.deeper()
        pivots = pivots_of(source)
        names = self.pivot_names(source, pivots[-1]) if pivots else self.unpivoted_names(source)
        self.depth -= 1
        return names

    def unpivoted_names(self, source: Source) -> list[str] | None:
        """A source's column names before any PIVOT applied to it, or None when unknown."""
        if isinstance(source, Scope):
            if source.is_udtf:
                return self.udtf_names(source)
            return None if self.has_stars(source) else self.output_names(source)
        if not isinstance(source.this, exp.Identifier):
            return None
        recursive = self.recursive_cte(source)
        if recursive is not None:
            return self.source_names(recursive)
        known = self.table_info(source)[1]
        return list(known.columns) if known is not None and known.complete else None

    def ordered_sources(self, scope: Scope) -> list[tuple[str, Source]]:
        """The sources a SELECT reads rows from, in FROM / JOIN order (not SEMI/ANTI sides)."""
        found = self._ordered.get(id(scope))
        if found is not None:
            return found
        found = []
        select = scope.expression
        from_ = select.args.get("from_") if isinstance(select, exp.Select) else None
        if from_ is not None:
            nodes = [from_.this] + [
                join.this
                for join in select.args.get("joins") or []
                if (join.text("kind") or "").upper() not in ("SEMI", "ANTI")
            ]
            nodes += select.args.get("laterals") or []
            for node in nodes:
                name = node.alias_or_name
                source = scope.sources.get(name) if name else None
                if source is None:
                    inner = node.unnest() if isinstance(node, exp.Subquery) else node
                    source = self.scope_of.get(id(inner))
                if source is None and isinstance(node, exp.Table):
                    source = node  # a table function: a source whose columns are unknown
                if source is not None:
                    found.append((name, source))
        self._ordered[id(scope)] = found
        return found

    # -- special readings ------------------------------------------------------------------

    def recursive_cte(self, table: exp.Table) -> Scope | None:
        """The CTE a table reference inside its own definition means (recursion written
        without the RECURSIVE keyword, as Snowflake and SQL Server allow)."""
        key = id(table)
        if key not in self._recursive:
            self._recursive[key] = self._recursive_now(table)
        return self._recursive[key]

    def _recursive_now(self, table: exp.Table) -> Scope | None:
        if table.args.get("db") or table.args.get("catalog"):
            return None
        node: exp.Expr | None = table.parent
        while node is not None:
            if isinstance(node, exp.CTE) and node.alias == table.name:
                body = node.this
                scope = self.scope_of.get(id(body)) if isinstance(body, exp.SetOperation) else None
                if scope is None or not scope.set_operation_scopes:
                    return None
                anchor = scope.set_operation_scopes[0]
                inside = table.parent
                while inside is not None and inside is not anchor.expression:
                    inside = inside.parent
                return None if inside is anchor.expression else anchor
            node = node.parent
        return None

    def _scope_holding(self, node: exp.Expr) -> Scope | None:
        current: exp.Expr | None = node
        while current is not None:
            scope = self.scope_of.get(id(current))
            if scope is not None:
                return scope
            current = current.parent
        return None
