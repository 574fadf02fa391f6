"""Resolve every output column of a qualified query in one memoised pass over its scopes.

A column of a scope resolves to base-table columns by following its projection's column
references into the sources they name (tables, CTEs, derived tables, table functions),
composing kinds on the way; the clauses that decide a scope's rows (joins, filters, group
by, distinct, sort with limit) resolve the same way into indirect edges. Every result is
memoised per (scope, column), so a CTE used by many outputs is walked once.
"""

from __future__ import annotations

import typing as t

from sqlglot import exp
from sqlglot.optimizer.scope import Scope

from dbt_lineage.sql import pivots, row_clauses, table_functions, value_refs
from dbt_lineage.sql.edges import (
    WINDOW,
    Edges,
    Parts,
    dotted,
    is_star,
)
from dbt_lineage.sql.expr_walk import DIRECT, TRANSFORM, expr_walk
from dbt_lineage.sql.schema_index import Columns, SchemaIndex
from dbt_lineage.types import UnresolvedReason

USING_META = "dbt_lineage_using"

_UNKNOWN = UnresolvedReason.UNKNOWN_COLUMN.value


class Walker:
    """Memoised resolution over the scopes of one query.

    Args:
        root: the root scope of the qualified query.
        index: the caller's schema.
    """

    def __init__(self, root: Scope, index: SchemaIndex) -> None:
        self.root = root
        self.index = index
        self.scope_of: dict[int, Scope] = {id(s.expression): s for s in root.traverse()}
        self.inferred: dict[Parts, dict[str, None]] = {}
        self.known: dict[Parts, Columns] = {}
        self._outputs: dict[tuple[int, str], Edges] = {}
        self._scope_rows: dict[int, Edges] = {}
        self._active: set[tuple[int, str]] = set()
        self._tables: dict[int, tuple[Parts, Columns | None]] = {}
        self._selects: dict[int, tuple[dict[str, exp.Expr], list[exp.Expr]]] = {}
        self._names: dict[int, list[str]] = {}

    # -- outputs --------------------------------------------------------------------------

    def output_names(self, scope: Scope) -> list[str]:
        """The output column names of a scope, in order (set operations BY NAME merged)."""
        expr = scope.expression
        if isinstance(expr, exp.SetOperation) and expr.args.get("by_name"):
            left, right = scope.set_operation_scopes
            names = self.output_names(left)
            right_names = self.output_names(right)
            side = (expr.text("side") or "").upper()
            if side == "INNER":
                return [name for name in names if name in right_names]
            if side == "LEFT":
                return names
            return names + [name for name in right_names if name not in names]
        if isinstance(expr, exp.Select):
            self.projections(scope)
            return self._names[id(scope)]
        if isinstance(expr, exp.Query):
            return [select.alias_or_name for select in expr.selects if not is_star(select)]
        return []

    def resolve_output(self, scope: Scope, name: str) -> Edges:
        """The upstreams of output column ``name`` of ``scope`` (memoised)."""
        key = (id(scope), name)
        found = self._outputs.get(key)
        if found is not None:
            return found
        if key in self._active:  # a recursive CTE reading itself adds nothing new
            return Edges()
        self._active.add(key)
        expr = scope.expression
        if isinstance(expr, exp.SetOperation):
            edges = self._set_output(scope, name)
        elif isinstance(expr, exp.Select):
            edges = self._select_output(scope, name)
        else:
            edges = table_functions.udtf_column(self, scope, name)
        self._active.discard(key)
        self._outputs[key] = edges
        return edges

    def _set_output(self, scope: Scope, name: str) -> Edges:
        expr = scope.expression
        left, right = scope.set_operation_scopes
        edges = Edges()
        left_names = self.output_names(left)
        if name in left_names:
            edges.absorb(self.resolve_output(left, name), 0, None)
        if isinstance(expr, exp.Except):
            return edges  # the right side only removes rows: see scope_rows
        if expr.args.get("by_name"):
            right_name: str | None = name
        else:
            right_names = self.output_names(right)
            position = left_names.index(name) if name in left_names else len(right_names)
            right_name = right_names[position] if position < len(right_names) else None
        if right_name is not None and right_name in self.output_names(right):
            edges.absorb(self.resolve_output(right, right_name), 0, None)
        return edges

    def projections(self, scope: Scope) -> tuple[dict[str, exp.Expr], list[exp.Expr]]:
        """A select scope's projections by output name (first wins), and its stars.

        sqlglot leaves every star of a scope unexpanded when one source's columns are
        unknown; ``t.*`` over a source whose columns are known is expanded here, so only
        the stars that really cannot be listed remain.
        """
        found = self._selects.get(id(scope))
        if found is None:
            named: dict[str, exp.Expr] = {}
            stars: list[exp.Expr] = []
            names: list[str] = []
            for projection in scope.expression.selects:
                expanded = self._expand_star(scope, projection) if is_star(projection) else None
                if expanded is None and is_star(projection):
                    stars.append(projection)
                    continue
                for item in expanded if expanded is not None else [projection]:
                    named.setdefault(item.alias_or_name, item)
                    names.append(item.alias_or_name)
            found = self._selects[id(scope)] = (named, stars)
            self._names[id(scope)] = names
        return found

    def _expand_star(self, scope: Scope, star: exp.Expr) -> list[exp.Expr] | None:
        if not isinstance(star, exp.Column) or any(star.this.args.values()):
            return None
        source = scope.sources.get(star.table)
        names: t.Iterable[str] | None = None
        if isinstance(source, exp.Table) and isinstance(source.this, exp.Identifier):
            if not source.args.get("pivots"):
                names = self.table_info(source)[1]
        elif isinstance(source, Scope) and isinstance(source.expression, exp.Select):
            names = None if self.projections(source)[1] else self.output_names(source)
        if not names:
            return None
        return [exp.column(name, star.table) for name in names]

    def _select_output(self, scope: Scope, name: str) -> Edges:
        named, stars = self.projections(scope)
        projection = named.get(name)
        if projection is not None:
            return self._projection(scope, projection)
        for projection in stars:
            if isinstance(projection, exp.Dot):
                continue  # expr.* expands a struct value, not a source
            table = projection.table if isinstance(projection, exp.Column) else ""
            source = scope.sources.get(table) if table else self._single_source(scope)
            if source is not None:
                return self.resolve_in_source(source, name, exp.column(name, table or None))
        where = f"scope {scope.expression.alias_or_name or scope.scope_type.name.lower()}"
        return Edges.problem(f"{_UNKNOWN}: column {name} not found in {where}")

    def _projection(self, scope: Scope, projection: exp.Expr) -> Edges:
        body = projection.unalias()
        edges = Edges()
        using_rank = self._using_rank(scope, projection, body)
        if using_rank is not None:
            for arg in [body.this, *body.expressions]:
                edges.absorb(self.resolve_ref(scope, arg), using_rank, body)
            return edges
        dynamic = body.find(exp.Columns)
        if dynamic is not None:
            detail = f"{dynamic.sql()} selects columns by pattern"
            edges.problems.append(f"{UnresolvedReason.UNSUPPORTED_SQL.value}: {detail}")
        for occurrence in expr_walk(body, self.scope_of):
            node = occurrence.node
            if occurrence.field:
                found = value_refs.field_ref(self, scope, node, occurrence.field)
            elif not isinstance(node, exp.Query):
                found = self.resolve_ref(scope, node)
            else:
                found = self.subquery_value(node)
                if isinstance(node.parent, exp.Exists):
                    # EXISTS yields true/false from which rows match: a value computed from
                    # the columns that decide the subquery's rows.
                    edges.absorb(_rows_as_values(found), TRANSFORM, body)
                    edges.merge_side(found)
                    continue
            if occurrence.role == DIRECT:
                edges.absorb(found, occurrence.rank, body)
            else:
                edges.absorb_scoped(found, WINDOW, body)
        named_windows = scope.expression.args.get("windows")
        if named_windows:
            value_refs.named_windows(self, scope, body, named_windows, edges)
        return edges

    def _using_rank(self, scope: Scope, projection: exp.Expr, body: exp.Expr) -> int | None:
        """Rank of a ``COALESCE(a.k, b.k) AS k`` that qualify wrote for a USING/NATURAL key.

        An inner, left or right join key is a copy of either side (identity); a FULL join
        key is a real COALESCE (transform).
        """
        using = scope.expression.meta.get(USING_META) if scope.expression.meta else None
        if not using or not isinstance(body, exp.Coalesce):
            return None
        name = projection.alias_or_name
        full = using.get(name, using.get("*"))
        if full is None:
            return None
        args = [body.this, *body.expressions]
        if all(isinstance(arg, exp.Column) and arg.name == name for arg in args):
            return TRANSFORM if full else 0
        return None

    def subquery_value(self, query: exp.Expr) -> Edges:
        """All outputs of a subquery, with the clauses that decide its rows as indirect."""
        child = self.scope_of[id(query)]
        edges = Edges()
        for name in self.output_names(child):
            edges.absorb(self.resolve_output(child, name), 0, None)
        edges.merge_side(self.scope_rows(child))
        return edges

    # -- references -----------------------------------------------------------------------

    def resolve_ref(self, scope: Scope, column: exp.Expr) -> Edges:
        """Resolve one column reference met in ``scope``."""
        if isinstance(column, exp.TableColumn):
            return value_refs.whole_row(self, scope, column.name)
        if not isinstance(column, exp.Column):
            return Edges()
        table = column.table
        name = column.name
        if table:
            source = value_refs.find_source(scope, table)
            if source is not None:
                return self.resolve_in_source(source, name, column)
            pivoted = pivots.find_pivot(scope, table)
            if pivoted is not None:
                return pivots.pivot_column(self, pivoted[0], pivoted[1], name, column)
            # `a.b` where `a` is no source: struct access on column `a` (sqlglot leaves
            # these as columns when it does not know the schema).
            db = column.text("db")
            owner = value_refs.find_source(scope, db) if db else self._single_source(scope)
            if owner is not None:
                return self.resolve_in_source(owner, table, column).raised(TRANSFORM)
            return Edges.problem(f"{_UNKNOWN}: {column.sql()} names no source in scope")
        source = self._owner(scope, name)
        if source is not None:
            return self.resolve_in_source(source, name, column)
        unnest = table_functions.unnest_alias(scope, name)
        if unnest is not None:
            return table_functions.udtf_column(self, unnest, name)
        return Edges.problem(f"{_UNKNOWN}: column {name} is ambiguous or unknown")

    def resolve_in_source(self, source: exp.Table | Scope, name: str, column: exp.Expr) -> Edges:
        """Resolve column ``name`` of a source (a base table or a scope)."""
        if isinstance(source, Scope):
            if source.is_udtf:
                return table_functions.udtf_column(self, source, name)
            return self.resolve_output(source, name)
        applied = source.args.get("pivots")
        if applied:
            return pivots.pivot_column(self, source, applied[-1], name, column)
        return self.base_column(source, name, column)

    def base_column(self, table: exp.Table, name: str, column: exp.Expr) -> Edges:
        """An identity edge to ``table.name``, checked against (or added to) the schema."""
        if not isinstance(table.this, exp.Identifier):
            if table.this is None:
                detail = f"column {name} comes from {table.sql()}"
                return Edges.problem(f"{UnresolvedReason.UNKNOWN_TABLE.value}: {detail}")
            if isinstance(table.this, value_refs.GENERATORS):
                # generate_series(...) and the like compute rows from their arguments.
                return value_refs.computed_from(self, table.this, column)
            # A table function reading data (read_parquet(...)): no relation to point at.
            detail = f"column {name} comes from {table.this.sql()}"
            return Edges.problem(f"{UnresolvedReason.UNKNOWN_TABLE.value}: {detail}")
        parts, columns = self.table_info(table)
        if columns is None:
            self.inferred.setdefault(parts, {})[name] = None
        elif name not in columns:
            return Edges.problem(f"{_UNKNOWN}: column {name} not in table {dotted(parts)}")
        return Edges.base((parts, name), column)

    def table_info(self, table: exp.Table) -> tuple[Parts, Columns | None]:
        """Normalised parts of a base table and its known columns (None when unknown)."""
        found = self._tables.get(id(table))
        if found is None:
            parts = tuple(part.name for part in table.parts)
            entry = self.index.lookup(parts)
            if entry is None:
                found = (parts, None)
            else:
                key, columns = entry
                found = (key if len(key) >= len(parts) else parts, columns)
                self.known[found[0]] = columns
            self._tables[id(table)] = found
        return found

    def _owner(self, scope: Scope, name: str) -> exp.Table | Scope | None:
        """The one selected source that can hold unqualified column ``name``.

        A source whose columns are known and lack ``name`` is ruled out (sound when the
        schema is complete); with no candidate here, outer scopes are tried (correlation).
        """
        current: Scope | None = scope
        while current is not None:
            selected = current.selected_sources
            if len(selected) == 1:
                return next(iter(selected.values()))[1]
            candidates = [source for _, source in selected.values() if self._may_hold(source, name)]
            if len(candidates) == 1:
                return candidates[0]
            if candidates:
                return None
            current = value_refs.outer_scope(current)
        return None

    def _may_hold(self, source: exp.Table | Scope, name: str) -> bool:
        if isinstance(source, Scope):
            if source.is_udtf or not isinstance(source.expression, exp.Select):
                return True
            named, stars = self.projections(source)
            return name in named or bool(stars)
        if source.args.get("pivots") or not isinstance(source.this, exp.Identifier):
            return True
        columns = self.table_info(source)[1]
        return columns is None or name in columns

    def _single_source(self, scope: Scope) -> exp.Table | Scope | None:
        current: Scope | None = scope
        while current is not None:
            selected = current.selected_sources
            if len(selected) == 1:
                return next(iter(selected.values()))[1]
            if selected:
                return None
            current = value_refs.outer_scope(current)
        return None

    # -- rows -----------------------------------------------------------------------------

    def scope_rows(self, scope: Scope) -> Edges:
        """Indirect edges of the clauses that decide the rows of ``scope`` and its sources."""
        found = self._scope_rows.get(id(scope))
        if found is None:
            found = self._scope_rows[id(scope)] = Edges()  # guards recursive CTEs
            row_clauses.row_clauses(self, scope, found)
        return found

    def clause(
        self, scope: Scope, node: exp.Expr, kind: str, edges: Edges, *, scoped: bool = False
    ) -> None:
        """Add the columns of clause ``node`` in ``scope`` to ``edges`` as ``kind`` edges
        (column-scoped ones when ``scoped``, row-set ones otherwise)."""
        names: list[str] | None = None
        for occurrence in expr_walk(node, self.scope_of):
            ref = occurrence.node
            if isinstance(ref, exp.Column):
                if not ref.table:
                    if names is None:
                        names = self.output_names(scope)
                    if ref.name in names:  # an output alias (ORDER BY total)
                        found = self.resolve_output(scope, ref.name)
                    else:
                        found = self.resolve_ref(scope, ref)
                else:
                    found = self.resolve_ref(scope, ref)
            elif not isinstance(ref, exp.Query):
                found = self.resolve_ref(scope, ref)
            else:
                found = self.subquery_value(ref)
            if scoped:
                edges.absorb_scoped(found, kind, node)
                continue
            edges.absorb_as(found, kind, node)
            if occurrence.role == WINDOW and kind != WINDOW:
                edges.absorb_as(found, WINDOW, node)


def _rows_as_values(found: Edges) -> Edges:
    edges = Edges()
    for key, _ in found.indirect:
        edges.direct.setdefault(key, (TRANSFORM, None))
    return edges


def scope_walk(root: Scope, index: SchemaIndex) -> Walker:
    """A :class:`Walker` over ``root``; call ``resolve_output``/``scope_rows`` on it."""
    return Walker(root, index)


__all__: t.Sequence[str] = ("Walker", "scope_walk", "USING_META")
