"""Columns produced by PIVOT and UNPIVOT, over a table or a derived table.

PIVOT cells aggregate the pivoted values and the FOR column (aggregate); the columns a
pivot passes through are identity copies that also group its rows (group_by). UNPIVOT value
columns copy the listed columns (identity) and its name column holds literals. An alias
with a column list (``AS p(a, b, c)``) renames the output positionally.
"""

from __future__ import annotations

import typing as t

from sqlglot import exp
from sqlglot.optimizer.scope import Scope

from dbt_lineage.sql.edges import GROUP_BY, Edges
from dbt_lineage.sql.expr_walk import AGGREGATE
from dbt_lineage.sql.table_functions import alias_columns
from dbt_lineage.types import UnresolvedReason

if t.TYPE_CHECKING:
    from dbt_lineage.sql.scope_walk import Walker

Source = exp.Table | Scope


def pivots(walker: Walker, source: Source, pivot: exp.Pivot, name: str) -> Edges:
    """Module entry: column ``name`` of ``pivot`` applied to ``source``."""
    return pivot_column(walker, source, pivot, name, exp.column(name))


def find_pivot(scope: Scope, alias: str) -> tuple[Source, exp.Pivot] | None:
    """The pivoted source and the pivot that a column qualifier ``alias`` names."""
    for node, source in scope.selected_sources.values():
        for pivot in node.args.get("pivots") or []:
            if pivot.alias_or_name == alias:
                return source, pivot
    return None


def pivot_column(
    walker: Walker, source: Source, pivot: exp.Pivot, name: str, column: exp.Expr
) -> Edges:
    """Column ``name`` of the output of ``pivot`` applied to ``source``."""
    renamed = alias_columns(pivot)
    if renamed and name in renamed:
        outputs = _outputs(walker, source, pivot)
        if outputs is None or len(outputs) != len(renamed):
            detail = f"column {name} of a renamed pivot over a source of unknown columns"
            return Edges.problem(f"{UnresolvedReason.UNKNOWN_COLUMN.value}: {detail}")
        name = outputs[renamed.index(name)]
    if pivot.args.get("unpivot"):
        return _unpivot_column(walker, source, pivot, name, column)
    if name in _cells(pivot):
        edges = Edges()
        for col in _consumed(pivot):
            edges.absorb(_inner(walker, source, col.name, col), AGGREGATE, pivot)
        return edges
    return _inner(walker, source, name, column)


def pivot_rows(walker: Walker, source: Source, pivot: exp.Pivot) -> Edges:
    """PIVOT groups rows by the columns it passes through (known only with their names)."""
    edges = Edges()
    if pivot.args.get("unpivot"):
        return edges
    inputs = _inputs(walker, source)
    consumed = {col.name for col in _consumed(pivot)}
    for name in inputs or ():
        if name not in consumed:
            edges.absorb_as(_inner(walker, source, name, exp.column(name)), GROUP_BY, pivot)
    return edges


def _inner(walker: Walker, source: Source, name: str, column: exp.Expr) -> Edges:
    if isinstance(source, Scope):
        return walker.resolve_output(source, name)
    return walker.base_column(source, name, column)


def _inputs(walker: Walker, source: Source) -> list[str] | None:
    if isinstance(source, Scope):
        return walker.output_names(source) or None
    columns = walker.table_info(source)[1]
    return list(columns) if columns else None


def _outputs(walker: Walker, source: Source, pivot: exp.Pivot) -> list[str] | None:
    inputs = _inputs(walker, source)
    if inputs is None:
        return None
    if pivot.args.get("unpivot"):
        listed = {
            col.name
            for field in pivot.args.get("fields") or []
            for col in field.find_all(exp.Column)
        }
        kept = [name for name in inputs if name not in listed]
        return kept + _name_columns(pivot) + _value_columns(pivot)
    consumed = {col.name for col in _consumed(pivot)}
    cells = [col.name for col in pivot.args.get("columns") or []]
    return [name for name in inputs if name not in consumed] + cells


def _consumed(pivot: exp.Pivot) -> list[exp.Column]:
    fields = pivot.args.get("fields") or []
    return [col for node in pivot.expressions + fields for col in node.find_all(exp.Column)]


def _unpivot_column(
    walker: Walker, source: Source, pivot: exp.Pivot, name: str, column: exp.Expr
) -> Edges:
    value_names = _value_columns(pivot)
    if name in _name_columns(pivot):
        return Edges()  # holds the names of the unpivoted columns: literals
    if name not in value_names:
        return _inner(walker, source, name, column)
    position = value_names.index(name)
    edges = Edges()
    for field in pivot.args.get("fields") or []:
        for item in field.expressions if isinstance(field, exp.In) else []:
            items = item.expressions if isinstance(item, exp.Tuple) else [item]
            if position < len(items):
                for col in items[position].find_all(exp.Column):
                    edges.absorb(_inner(walker, source, col.name, col), 0, None)
    return edges


def _value_columns(pivot: exp.Pivot) -> list[str]:
    names: list[str] = []
    for node in pivot.expressions:
        items = node.expressions if isinstance(node, exp.Tuple) else [node]
        names.extend(item.name for item in items)
    return names


def _name_columns(pivot: exp.Pivot) -> list[str]:
    fields = pivot.args.get("fields") or []
    return [field.this.name for field in fields if isinstance(field, exp.In)]


def _cells(pivot: exp.Pivot) -> set[str]:
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
