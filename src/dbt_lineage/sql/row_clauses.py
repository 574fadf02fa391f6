"""The clauses that decide which rows a scope returns, as indirect edges.

Joins (ON keys, correlation keys), filters (WHERE, HAVING, QUALIFY, subqueries in them),
GROUP BY (and GROUP BY ALL), DISTINCT / DISTINCT ON, ORDER BY with LIMIT, set-operation
de-duplication and the right side of EXCEPT; then the same for every source the scope
reads, so clauses inside CTEs that feed the output count and unused CTEs do not.
"""

from __future__ import annotations

import typing as t

from sqlglot import exp
from sqlglot.optimizer.scope import Scope

from dbt_lineage.sql import pivots, table_functions
from dbt_lineage.sql.edges import DISTINCT, FILTER, GROUP_BY, JOIN, SORT, Edges, is_star
from dbt_lineage.sql.value_refs import find_source

if t.TYPE_CHECKING:
    from dbt_lineage.sql.scope_walk import Walker


def row_clauses(walker: Walker, scope: Scope, edges: Edges) -> None:
    """Add to ``edges`` the indirect edges of the clauses deciding the rows of ``scope``."""
    expr = scope.expression
    if isinstance(expr, exp.SetOperation):
        _set_rows(walker, scope, edges)
    elif isinstance(expr, exp.Select):
        _select_rows(walker, scope, expr, edges)
    else:
        for child in table_functions.inner_scopes(walker, scope):
            edges.merge_side(walker.scope_rows(child))


def _set_rows(walker: Walker, scope: Scope, edges: Edges) -> None:
    expr = scope.expression
    left, right = scope.set_operation_scopes
    edges.merge_side(walker.scope_rows(left))
    edges.merge_side(walker.scope_rows(right))
    if expr.args.get("order") is not None and (expr.args.get("limit") or expr.args.get("fetch")):
        walker.clause(scope, expr.args["order"], SORT, edges)
    distinct = bool(expr.args.get("distinct"))
    sides = (
        [(right, True), (left, distinct)]
        if isinstance(expr, exp.Except)
        else [
            (left, distinct),
            (right, distinct),
        ]
    )
    # The edge's expression names the operation; the whole set operation would be the query.
    label = exp.var(expr.key.upper() + ("" if distinct else " ALL"))
    for side, dedup in sides:
        if dedup:
            for name in walker.output_names(side):
                edges.absorb_as(walker.resolve_output(side, name), DISTINCT, label)


def _select_rows(walker: Walker, scope: Scope, expr: exp.Select, edges: Edges) -> None:
    for join in expr.args.get("joins") or []:
        if join.args.get("on") is not None:
            walker.clause(scope, join.args["on"], JOIN, edges)
    where = expr.args.get("where")
    if where is not None:
        conjuncts = where.this.flatten() if isinstance(where.this, exp.And) else [where.this]
        for conjunct in conjuncts:
            kind = JOIN if _is_correlation(scope, conjunct) else FILTER
            walker.clause(scope, conjunct, kind, edges)
    group = expr.args.get("group")
    if group is not None:
        if group.args.get("all"):
            for projection in expr.selects:
                if not is_star(projection) and projection.find(exp.AggFunc) is None:
                    found = walker.resolve_output(scope, projection.alias_or_name)
                    edges.absorb_as(found, GROUP_BY, group)
        walker.clause(scope, group, GROUP_BY, edges)
    for key in ("having", "qualify"):
        if expr.args.get(key) is not None:
            walker.clause(scope, expr.args[key], FILTER, edges)
    distinct = expr.args.get("distinct")
    order = expr.args.get("order")
    if distinct is not None:
        if distinct.args.get("on") is not None:
            walker.clause(scope, distinct.args["on"], DISTINCT, edges)
            if order is not None:  # ORDER BY picks the row each DISTINCT ON group keeps
                walker.clause(scope, order, SORT, edges)
        else:
            for name in walker.output_names(scope):
                edges.absorb_as(walker.resolve_output(scope, name), DISTINCT, distinct)
    if order is not None and (expr.args.get("limit") or expr.args.get("fetch")):
        walker.clause(scope, order, SORT, edges)
    for node, source in scope.selected_sources.values():
        if isinstance(source, Scope):
            edges.merge_side(walker.scope_rows(source))
        for pivot in node.args.get("pivots") or []:
            edges.merge_side(pivots.pivot_rows(walker, source, pivot))


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
