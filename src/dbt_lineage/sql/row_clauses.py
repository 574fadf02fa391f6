"""The clauses that decide which rows a scope returns, as row-set indirect edges.

Joins (ON and USING keys, correlation keys, the columns a table function in FROM reads: an
UNNEST's array decides how many rows each row beside it gives, none when it is empty),
filters (WHERE, HAVING, QUALIFY, subqueries in
them), GROUP BY (positions, GROUP BY ALL, grouping sets), DISTINCT / DISTINCT ON, ORDER BY
with LIMIT, set-operation de-duplication and the right side of EXCEPT; then the same for
every source the scope reads, so clauses inside CTEs that feed the rows count and unused
CTEs do not.
"""

from __future__ import annotations

from sqlglot import exp
from sqlglot.optimizer.scope import Scope

from dbt_lineage.sql.edges import Edges, is_star
from dbt_lineage.sql.expr_walk import WINDOW, expr_walk
from dbt_lineage.sql.table_functions import GENERATORS, TableFunctions, sized_by_data
from dbt_lineage.sql.walk_base import find_source
from dbt_lineage.types import EdgeKind, UnresolvedReason

JOIN = EdgeKind.JOIN
FILTER = EdgeKind.FILTER
GROUP_BY = EdgeKind.GROUP_BY
SORT = EdgeKind.SORT
DISTINCT = EdgeKind.DISTINCT
NOTE = UnresolvedReason.NOTE.value

CLAUSE = -2
"""The position a reference in a clause has: any projection's alias may be meant."""


class RowClauses(TableFunctions):
    """The row-set part of the walk."""

    def scope_rows(self, scope: Scope) -> Edges:
        """Indirect edges of the clauses that decide the rows of ``scope`` and its sources."""
        # The walked scope of that query: inside a recursive CTE, the CTE's name stands for a
        # scope of the anchor that sqlglot made without its sources.
        scope = self.scope_of.get(id(scope.expression), scope)
        found = self._rows.get(id(scope))
        if found is None:
            self.deeper()
            found = self._rows[id(scope)] = Edges()  # guards recursive CTEs
            expr = scope.expression
            if isinstance(expr, exp.SetOperation):
                self._set_rows(scope, found)
            elif isinstance(expr, exp.Select):
                self._select_rows(scope, expr, found)
            else:
                for child in self.inner_scopes(scope):
                    found.merge_side(self.scope_rows(child))
            self.depth -= 1
        return found

    def clause(
        self, scope: Scope, node: exp.Expr, kind: EdgeKind, edges: Edges, *, scoped: bool = False
    ) -> None:
        """Add the columns of clause ``node`` in ``scope`` to ``edges`` as ``kind`` edges
        (column-scoped ones when ``scoped``, row-set ones otherwise)."""
        for occurrence in expr_walk(node, self.scope_of):
            ref = occurrence.node
            if isinstance(ref, exp.Query):
                found = self.subquery_value(ref)
            elif field := occurrence.field:
                found = self.field_ref(scope, ref, field, CLAUSE)
            else:
                found = self.resolve_ref(scope, ref, position=CLAUSE)
            if scoped:
                edges.absorb_scoped(found, kind, node)
                continue
            edges.absorb_as(found, kind, node)
            if occurrence.role == WINDOW and kind is not EdgeKind.WINDOW:
                edges.absorb_as(found, EdgeKind.WINDOW, node)

    def _set_rows(self, scope: Scope, edges: Edges) -> None:
        """The rows of a chain of set operations, walked without recursion.

        De-duplication (and the right side of EXCEPT) compares whole rows: every column of
        each branch it compares is a distinct edge, added once per branch however many
        operations above it de-duplicate (a long UNION stays linear).
        """
        pending: list[tuple[Scope, exp.Expr | None]] = [(scope, None)]
        compared: dict[int, tuple[Scope, exp.Expr]] = {}
        while pending:
            current, above = pending.pop()  # above: the outermost operation comparing it
            expr = current.expression
            if not (isinstance(expr, exp.SetOperation) and current.set_operation_scopes):
                edges.merge_side(self.scope_rows(current))
                if above is not None:
                    compared.setdefault(id(current), (current, above))
                continue
            left, right = current.set_operation_scopes
            order = expr.args.get("order")
            if order is not None and (expr.args.get("limit") or expr.args.get("fetch")):
                self._sort_keys(current, order, edges)
            distinct = bool(expr.args.get("distinct"))
            # The edge's expression names the operation; the whole set operation would be
            # the query.
            label = exp.var(expr.key.upper() + ("" if distinct else " ALL"))
            right_compared = distinct or isinstance(expr, exp.Except)
            if above is None:
                pending.append((right, label if right_compared else None))
                pending.append((left, label if distinct else None))
            else:
                pending += [(right, above), (left, above)]
        for branch, operation in compared.values():
            for name in self.output_names(branch):
                edges.absorb_as(self.resolve_output(branch, name), DISTINCT, operation)
            if self.has_stars(branch):
                self._unknown_star_note(operation.name.split()[0])

    def _select_rows(self, scope: Scope, expr: exp.Select, edges: Edges) -> None:
        for join in expr.args.get("joins") or []:
            if join.args.get("on") is not None:
                self.clause(scope, join.args["on"], JOIN, edges)
        for call in _set_returning(expr):  # select id, unnest(tags): a row per element
            for argument in sized_by_data(call):
                self.clause(scope, argument, JOIN, edges)
        for key, sides, _ in self.using_keys(scope):
            for side in sides:
                if self.holds(side, key) is not False:
                    edges.absorb_as(self.resolve_in_source(side, key, None), JOIN, None)
        where = expr.args.get("where")
        if where is not None:
            conjuncts = where.this.flatten() if isinstance(where.this, exp.And) else [where.this]
            for conjunct in conjuncts:
                kind = JOIN if _is_correlation(scope, conjunct) else FILTER
                self.clause(scope, conjunct, kind, edges)
        group = expr.args.get("group")
        if group is not None:
            if group.args.get("all"):
                for projection in expr.selects:
                    if not is_star(projection) and projection.find(exp.AggFunc) is None:
                        found = self.projection_edges(scope, projection.unalias())
                        edges.absorb_as(found, GROUP_BY, group)
            self._positional(scope, group.expressions, GROUP_BY, group, edges)
            self.clause(scope, group, GROUP_BY, edges)
        for key in ("having", "qualify"):
            if expr.args.get(key) is not None:
                self.clause(scope, expr.args[key], FILTER, edges)
        distinct = expr.args.get("distinct")
        order = expr.args.get("order")
        if distinct is not None:
            if distinct.args.get("on") is not None:
                self.clause(scope, distinct.args["on"], DISTINCT, edges)
                if order is not None:  # ORDER BY picks the row each DISTINCT ON group keeps
                    self._sort_keys(scope, order, edges)
            else:
                for name in self.output_names(scope):
                    edges.absorb_as(self.resolve_output(scope, name), DISTINCT, distinct)
                if self.has_stars(scope):
                    self._unknown_star_note("DISTINCT")
        limited = expr.args.get("limit") or expr.args.get("fetch") or _top(expr)
        if order is not None and limited:
            self._sort_keys(scope, order, edges)
        for node in _read_nodes(expr):
            source = scope.sources.get(node.alias_or_name) or self.scope_of.get(
                id(node.unnest() if isinstance(node, exp.Subquery) else node)
            )
            if isinstance(source, Scope):
                edges.merge_side(self.scope_rows(source))
                for argument in self.udtf_arguments(source):  # how many rows beside each
                    self.clause(source, argument, JOIN, edges)
            elif isinstance(node, exp.Table) and isinstance(node.this, GENERATORS):
                for argument in sized_by_data(node.this):  # generate_series(1, t.k)
                    self.clause(scope, argument, JOIN, edges)
            for pivot in node.args.get("pivots") or []:
                if source is not None:
                    edges.merge_side(self.pivot_rows(source, pivot))

    def _unknown_star_note(self, operation: str) -> None:
        """Say that ``operation`` (DISTINCT, or a set operation that de-duplicates) compares
        the columns of a star no schema lists, which no edge can name."""
        self.notes[
            f"{NOTE}: {operation} over a star whose columns are unknown compares "
            "columns that have no distinct edge here"
        ] = None

    def _sort_keys(self, scope: Scope, order: exp.Expr, edges: Edges) -> None:
        """ORDER BY keys as sort edges: a position or an output alias means that output."""
        names = self.output_names(scope)
        index = self.output_index(scope)
        for ordered in order.expressions:
            key = ordered.this if isinstance(ordered, exp.Ordered) else ordered
            if isinstance(key, exp.Column) and not key.table:
                stored, _ = index.match(key.name)
                if stored is not None and (
                    isinstance(scope.expression, exp.SetOperation)
                    or self._is_alias_of(scope, stored)
                ):
                    edges.absorb_as(self.resolve_output(scope, stored), SORT, order)
                    continue
            if _position(key, len(names)) is not None:
                self._positional(scope, [key], SORT, order, edges)
                continue
            self.clause(scope, key, SORT, edges)

    def _is_alias_of(self, scope: Scope, name: str) -> bool:
        expr = scope.expression
        return isinstance(expr, exp.Select) and any(
            isinstance(projection, exp.Alias) and projection.alias == name
            for projection in expr.selects
        )

    def _positional(
        self,
        scope: Scope,
        keys: list[exp.Expr],
        kind: EdgeKind,
        node: exp.Expr,
        edges: Edges,
    ) -> None:
        """``GROUP BY 1`` / ``ORDER BY 2``: the output at that position."""
        names = self.output_names(scope)
        for key in keys:
            position = _position(key, len(names))
            if position is not None:
                edges.absorb_as(self.resolve_output(scope, names[position]), kind, node)


def _position(key: exp.Expr, count: int) -> int | None:
    if isinstance(key, exp.Literal) and not key.is_string and key.this.isdigit():
        position = int(key.this) - 1
        return position if 0 <= position < count else None
    return None


def _top(expr: exp.Select) -> bool:
    return bool(expr.args.get("top"))


def _set_returning(expr: exp.Select) -> list[exp.Expr]:
    """The set-returning calls of a SELECT's own projections (``unnest(tags)`` in DuckDB and
    PostgreSQL, ``explode(tags)`` in Spark): each row gives a row per element."""
    return [
        call
        for projection in expr.selects
        for call in projection.find_all(exp.Unnest, exp.Explode)
        if call.parent_select is expr
    ]


def _read_nodes(expr: exp.Select) -> list[exp.Expr]:
    """Everything a SELECT reads rows from: FROM and every JOIN (SEMI/ANTI sides too)."""
    from_ = expr.args.get("from_")
    nodes = [from_.this] if from_ is not None else []
    nodes += [join.this for join in expr.args.get("joins") or []]
    return nodes + list(expr.args.get("laterals") or [])


def _is_correlation(scope: Scope, conjunct: exp.Expr) -> bool:
    """Whether ``conjunct`` reads a column of an outer query (a correlation key)."""
    parent = scope.parent
    if parent is None or scope.is_cte or scope.is_root:
        return False
    return any(
        column.table
        and column.table not in scope.sources
        and find_source(parent, column.table) is not None
        for column in conjunct.find_all(exp.Column)
    )
