"""Columns produced by table functions and by PIVOT / UNPIVOT.

UNNEST elements, FLATTEN values and LATERAL function outputs are computed from their
arguments (transform); a LATERAL subquery is an ordinary scope; VALUES rows are literals
unless they read columns. PIVOT cells aggregate the pivoted values and the FOR column;
UNPIVOT value columns copy the listed columns; the columns a pivot passes through are
identity copies of the source.
"""

from __future__ import annotations

import typing as t

from sqlglot import exp
from sqlglot.optimizer.scope import Scope

from dbt_lineage.sql.edges import GROUP_BY, Edges
from dbt_lineage.sql.expr_walk import AGGREGATE, DIRECT, TRANSFORM, expr_walk

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


def find_pivot(scope: Scope, alias: str) -> tuple[exp.Table, exp.Pivot] | None:
    """The pivoted table and pivot that a column qualifier ``alias`` names."""
    for _, source in scope.selected_sources.values():
        if isinstance(source, exp.Table):
            for pivot in source.args.get("pivots") or []:
                if pivot.alias_or_name == alias:
                    return source, pivot
    return None


def pivot_column(
    walker: Walker, table: exp.Table, pivot: exp.Pivot, name: str, column: exp.Expr
) -> Edges:
    """Column ``name`` of the output of ``pivot`` applied to base table ``table``."""
    if pivot.args.get("unpivot"):
        return _unpivot_column(walker, table, pivot, name, column)
    fields = pivot.args.get("fields") or []
    consumed = [col for node in pivot.expressions + fields for col in node.find_all(exp.Column)]
    if name in _pivot_cells(pivot):
        edges = Edges()
        for col in consumed:
            found = walker.base_column(table, col.name, col)
            edges.absorb(found, AGGREGATE, pivot)
        return edges
    return walker.base_column(table, name, column)


def pivot_rows(walker: Walker, table: exp.Table, pivot: exp.Pivot) -> Edges:
    """PIVOT groups rows by the columns it passes through (known only with a schema)."""
    edges = Edges()
    _, columns = walker.table_info(table)
    if pivot.args.get("unpivot") or not columns:
        return edges
    fields = pivot.args.get("fields") or []
    consumed = {
        col.name for node in pivot.expressions + fields for col in node.find_all(exp.Column)
    }
    for name in columns:
        if name not in consumed:
            edges.absorb_as(walker.base_column(table, name, exp.column(name)), GROUP_BY, pivot)
    return edges


def _unpivot_column(
    walker: Walker, table: exp.Table, pivot: exp.Pivot, name: str, column: exp.Expr
) -> Edges:
    value_names: list[str] = []
    for node in pivot.expressions:
        items = node.expressions if isinstance(node, exp.Tuple) else [node]
        value_names.extend(item.name for item in items)
    fields = pivot.args.get("fields") or []
    name_columns = {field.this.name for field in fields if isinstance(field, exp.In)}
    if name in name_columns:
        return Edges()  # holds the names of the unpivoted columns: literals
    if name not in value_names:
        return walker.base_column(table, name, column)
    position = value_names.index(name)
    edges = Edges()
    for field in fields:
        for item in field.expressions if isinstance(field, exp.In) else []:
            items = item.expressions if isinstance(item, exp.Tuple) else [item]
            if position < len(items):
                for col in items[position].find_all(exp.Column):
                    edges.absorb(walker.base_column(table, col.name, col), 0, None)
    return edges


def _pivot_cells(pivot: exp.Pivot) -> set[str]:
    cells = {col.name for col in pivot.args.get("columns") or []}
    if cells:
        return cells
    aliases = [node.alias for node in pivot.expressions if isinstance(node, exp.Alias)]
    for field in pivot.args.get("fields") or []:
        for value in field.expressions if isinstance(field, exp.In) else []:
            base = value.alias if isinstance(value, exp.PivotAlias) else value.name
            cells.add(base)
            for alias in aliases:
                cells.update({f"{base}_{alias}", f"{alias}_{base}"})
    return cells


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
            edges.absorb_as(found, "window", node)
    return edges


def _inner_name(walker: Walker, inner: Scope, lateral: exp.Lateral, name: str) -> str:
    names = _alias_columns(lateral)
    if name in names:
        inner_names = walker.output_names(inner)
        position = names.index(name)
        if position < len(inner_names):
            return inner_names[position]
    return name


def _alias_columns(node: exp.Expr) -> list[str]:
    alias = node.args.get("alias")
    if not isinstance(alias, exp.TableAlias):
        return []
    return [col.name for col in alias.columns]
