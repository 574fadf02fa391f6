"""Values read in special ways: struct fields, whole rows, generated rows, named windows.

Each helper refines what a plain column reference would give: ``col.f`` on a struct built
in a CTE reads only the field's columns; ``to_json(t)`` reads every column of ``t``;
``generate_series(...)`` in FROM computes rows from its arguments; ``OVER w`` takes the
keys of ``WINDOW w AS (...)``.
"""

from __future__ import annotations

import typing as t

from sqlglot import exp
from sqlglot.optimizer.scope import Scope

from dbt_lineage.sql.edges import WINDOW, Edges
from dbt_lineage.sql.expr_walk import DIRECT, TRANSFORM, expr_walk
from dbt_lineage.types import UnresolvedReason

if t.TYPE_CHECKING:
    from dbt_lineage.sql.scope_walk import Walker

# Table functions that generate rows from their arguments instead of reading data.
GENERATORS = (
    exp.GenerateSeries,
    exp.ExplodingGenerateSeries,
    exp.GenerateDateArray,
    exp.GenerateTimestampArray,
    exp.Unnest,
)


def value_refs(walker: Walker, scope: Scope, column: exp.Expr, field: str) -> Edges:
    """Module entry: the upstreams of ``column.field`` read in ``scope``."""
    return field_ref(walker, scope, column, field)


def named_windows(
    walker: Walker, scope: Scope, body: exp.Expr, named: list[exp.Expr], edges: Edges
) -> None:
    """``OVER w`` with ``WINDOW w AS (PARTITION BY ...)``: the keys are window edges."""
    by_name = {window.name: window for window in named}
    for window in body.find_all(exp.Window):
        definition = by_name.get(window.text("alias"))
        if definition is not None:
            for key in ("partition_by", "order"):
                value = definition.args.get(key)
                for part in value if isinstance(value, list) else [value] if value else []:
                    walker.clause(scope, part, WINDOW, edges, scoped=True)


def field_ref(walker: Walker, scope: Scope, column: exp.Expr, field: str) -> Edges:
    """``column.field`` where a CTE or subquery built ``column`` as a struct literal:
    only the field's expression is read, not the whole struct."""
    source = find_source(scope, column.text("table")) if column.text("table") else None
    if isinstance(source, Scope) and isinstance(source.expression, exp.Select):
        projection = walker.projections(source)[0].get(column.name)
        body = projection.unalias() if projection is not None else None
        value = _struct_field(body, field) if isinstance(body, exp.Struct) else None
        if value is not None:
            edges = Edges()
            for occurrence in expr_walk(value, walker.scope_of):
                if isinstance(occurrence.node, exp.Query):
                    found = walker.subquery_value(occurrence.node)
                else:
                    found = walker.resolve_ref(source, occurrence.node)
                if occurrence.role == DIRECT:
                    edges.absorb(found, occurrence.rank, value)
                else:
                    edges.absorb_scoped(found, WINDOW, value)
            return edges
    return walker.resolve_ref(scope, column)


def whole_row(walker: Walker, scope: Scope, name: str) -> Edges:
    """A table's whole row used as one value (``to_json(t)``): every column of it."""
    source = find_source(scope, name)
    names: t.Iterable[str] = ()
    if isinstance(source, Scope):
        names = () if projections_have_star(walker, source) else walker.output_names(source)
    elif isinstance(source, exp.Table) and isinstance(source.this, exp.Identifier):
        names = walker.table_info(source)[1] or ()
    if source is None or not names:
        reason = UnresolvedReason.STAR_UNKNOWN_COLUMNS.value
        return Edges.problem(f"{reason}: row {name} used as a value, columns unknown")
    edges = Edges()
    for column in names:
        edges.absorb(walker.resolve_in_source(source, column, exp.column(column, name)), 0, None)
    return edges


def projections_have_star(walker: Walker, scope: Scope) -> bool:
    return isinstance(scope.expression, exp.Select) and bool(walker.projections(scope)[1])


def computed_from(walker: Walker, function: exp.Expr, column: exp.Expr) -> Edges:
    scope = scope_holding(walker, column)
    edges = Edges()
    if scope is None:
        return edges
    for occurrence in expr_walk(function, walker.scope_of):
        if not isinstance(occurrence.node, exp.Query):
            edges.absorb(walker.resolve_ref(scope, occurrence.node), TRANSFORM, function)
    return edges


def scope_holding(walker: Walker, node: exp.Expr) -> Scope | None:
    current: exp.Expr | None = node
    while current is not None:
        scope = walker.scope_of.get(id(current))
        if scope is not None:
            return scope
        current = current.parent
    return None


def _struct_field(struct: exp.Struct, field: str) -> exp.Expr | None:
    for wanted in dict.fromkeys((field, field.casefold())):
        for item in struct.expressions:
            if isinstance(item, exp.PropertyEQ) and item.this.name == wanted:
                return item.expression
            if isinstance(item, exp.Alias) and item.alias == wanted:
                return item.this
            if isinstance(item, exp.Column) and item.name == wanted:
                return item
    return None


def find_source(scope: Scope, name: str) -> exp.Table | Scope | None:
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

    A CTE or a plain derived table cannot see the query around it.
    """
    if scope.can_be_correlated or scope.is_udtf or scope.is_set_operation:
        return scope.parent
    return None
