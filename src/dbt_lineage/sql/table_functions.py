"""Columns produced by table functions: UNNEST, FLATTEN, LATERAL, VALUES.

UNNEST elements, FLATTEN values and LATERAL function outputs are computed from their
arguments (transform); a LATERAL subquery is an ordinary scope; VALUES rows are literals
unless they read columns.
"""

from __future__ import annotations

import typing as t

from sqlglot import exp
from sqlglot.optimizer.scope import Scope

from dbt_lineage.sql.edges import Edges
from dbt_lineage.sql.expr_walk import DIRECT, TRANSFORM, expr_walk

if t.TYPE_CHECKING:
    from dbt_lineage.sql.scope_walk import Walker

# Columns of a flattened row that are positions, not values read from the input.
_POSITION_COLUMNS = frozenset({"seq", "index", "ordinality"})


def table_functions(walker: Walker, scope: Scope, name: str) -> Edges:
    """Module entry: the upstreams of column ``name`` of a table-function scope."""
    return udtf_column(walker, scope, name)


def udtf_column(walker: Walker, scope: Scope, name: str) -> Edges:
    """Column ``name`` of a UDTF scope (UNNEST, LATERAL, VALUES, FLATTEN, ...)."""
    expr = scope.expression
    if isinstance(expr, exp.Lateral) and isinstance(expr.this, exp.Subquery):
        inner = walker.scope_of.get(id(expr.this.unnest()))
        if inner is not None:
            return walker.resolve_output(inner, _inner_name(walker, inner, expr, name))
    if isinstance(expr, (exp.Subquery, exp.Values)) and isinstance(expr.unnest(), exp.Values):
        return _values_column(walker, scope, expr.unnest(), _alias_columns(expr), name)
    function = expr.this if isinstance(expr, (exp.Lateral, exp.TableFromRows)) else expr
    if isinstance(function, exp.Unnest):
        return _unnest_column(walker, scope, function, name)
    if name.lower() in _POSITION_COLUMNS:
        return Edges()
    return _computed(walker, scope, function)


def unnest_alias(scope: Scope, name: str) -> Scope | None:
    """A UDTF source of ``scope`` whose UNNEST names its column ``name`` (BigQuery style)."""
    for source in scope.sources.values():
        if isinstance(source, Scope) and source.is_udtf:
            unnest = source.expression
            if isinstance(unnest, exp.Unnest):
                names = _alias_columns(unnest) + [unnest.text("offset")]
                if name in names:
                    return source
    return None


def inner_scopes(walker: Walker, scope: Scope) -> list[Scope]:
    """Scopes nested in a UDTF scope (the subquery of a LATERAL)."""
    expr = scope.expression
    if isinstance(expr, exp.Lateral) and isinstance(expr.this, exp.Subquery):
        inner = walker.scope_of.get(id(expr.this.unnest()))
        return [inner] if inner is not None else []
    return []


def _unnest_column(walker: Walker, scope: Scope, unnest: exp.Unnest, name: str) -> Edges:
    if name == unnest.text("offset"):
        return Edges()
    names = _alias_columns(unnest)
    args = unnest.expressions
    if name in names:
        position = names.index(name)
        if position >= len(args):
            return Edges()  # WITH ORDINALITY: a position
        return _computed(walker, scope, args[position])
    return _computed(walker, scope, args[0]) if len(args) == 1 else Edges()


def _values_column(
    walker: Walker, scope: Scope, values: exp.Values, names: list[str], name: str
) -> Edges:
    if name not in names:
        return Edges()
    position = names.index(name)
    edges = Edges()
    for row in values.expressions:
        cells = row.expressions if isinstance(row, exp.Tuple) else [row]
        if position < len(cells):
            edges.absorb(_computed(walker, scope, cells[position]), 0, None)
    return edges


def _computed(walker: Walker, scope: Scope, node: exp.Expr) -> Edges:
    """Every column read by ``node``, as a transform."""
    edges = Edges()
    for occurrence in expr_walk(node, walker.scope_of):
        ref = occurrence.node
        if not isinstance(ref, exp.Query):
            found = walker.resolve_ref(scope, ref)
        else:
            found = walker.subquery_value(ref)
        if occurrence.role == DIRECT:
            edges.absorb(found, max(occurrence.rank, TRANSFORM), node)
        else:
            edges.absorb_scoped(found, "window", node)
    return edges


def _inner_name(walker: Walker, inner: Scope, lateral: exp.Lateral, name: str) -> str:
    names = _alias_columns(lateral)
    if name in names:
        inner_names = walker.output_names(inner)
        position = names.index(name)
        if position < len(inner_names):
            return inner_names[position]
    return name


def alias_columns(node: exp.Expr) -> list[str]:
    """The column names of ``AS alias(c1, c2, ...)``, or []."""
    return _alias_columns(node)


def _alias_columns(node: exp.Expr) -> list[str]:
    alias = node.args.get("alias")
    if not isinstance(alias, exp.TableAlias):
        return []
    return [col.name for col in alias.columns]
