"""A column of a source (a base table, a CTE, a derived table, a table function), and what a
source holds: the part of the walk that knows where names are stored, below the references
(:mod:`dbt_lineage.sql.references`) that decide which source a name in the SQL means.

A base table's column is checked against the schema, or inferred when the schema does not
list the table (or lists it as incomplete); a scope's is its output, with PIVOTs applied; a
table reference inside its own CTE's definition is the recursion's anchor.
"""

from __future__ import annotations

from sqlglot import exp
from sqlglot.optimizer.scope import Scope

from dbt_lineage.sql.edges import Edges, Parts, dotted
from dbt_lineage.sql.fields import Fields
from dbt_lineage.sql.schema_index import Table
from dbt_lineage.sql.table_functions import GENERATORS
from dbt_lineage.sql.walk_base import Source, label, pivots_of
from dbt_lineage.types import UnresolvedReason

_UNKNOWN = UnresolvedReason.UNKNOWN_COLUMN.value
_UNSET = object()
_AMBIGUOUS = UnresolvedReason.AMBIGUOUS_COLUMN.value
_UNKNOWN_TABLE = UnresolvedReason.UNKNOWN_TABLE.value
NOTE = UnresolvedReason.NOTE.value


class SourceColumns(Fields):
    """The sources part of the walk: columns of sources, and what each holds."""

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
