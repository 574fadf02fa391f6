"""Columns produced by PIVOT and UNPIVOT, over a table or a derived table.

PIVOT cells aggregate the pivoted values and the FOR column (aggregate); the columns a
pivot passes through are identity copies that also group its rows (group_by). UNPIVOT value
columns copy the listed columns (identity) and its name column holds literals. An alias
with a column list (``AS p(a, b, c)``) renames the output positionally.
"""

from __future__ import annotations

from sqlglot import exp
from sqlglot.optimizer.scope import Scope

from dbt_lineage.sql.edges import AGGREGATE, IDENTITY, Edges
from dbt_lineage.sql.walk_base import Source, WalkerBase, alias_columns, pivots_of
from dbt_lineage.types import EdgeKind, UnresolvedReason


class Pivots(WalkerBase):
    """The pivot part of the walk."""

    def find_pivot(self, scope: Scope, alias: str) -> tuple[Source, exp.Pivot] | None:
        """The pivoted source and the pivot that a column qualifier ``alias`` names."""
        for _, source in self.ordered_sources(scope):
            for pivot in pivots_of(source):
                if pivot.alias_or_name == alias:
                    return source, pivot
        return None

    def pivot_column(
        self, source: Source, pivot: exp.Pivot, name: str, column: exp.Expr | None
    ) -> Edges:
        """Column ``name`` of the output of ``pivot`` applied to ``source``."""
        renamed = alias_columns(pivot)
        if renamed and name in renamed:
            outputs = self._pivot_outputs(source, pivot)
            if outputs is None or len(outputs) != len(renamed):
                detail = f"column {name} of a renamed pivot over a source of unknown columns"
                return Edges.problem(f"{UnresolvedReason.UNKNOWN_COLUMN.value}: {detail}")
            name = outputs[renamed.index(name)]
        if pivot.args.get("unpivot"):
            return self._unpivot_column(source, pivot, name, column)
        if name in _cells(pivot):
            edges = Edges()
            for col in _cell_inputs(pivot, name):
                edges.absorb(self._inner(source, col.name, col), AGGREGATE, pivot)
            return edges
        return self._inner(source, name, column)

    def pivot_rows(self, source: Source, pivot: exp.Pivot) -> Edges:
        """PIVOT groups rows by the columns it passes through (known only with their names);
        UNPIVOT drops the rows whose value is NULL (unless INCLUDE NULLS): the listed columns
        filter them."""
        edges = Edges()
        if pivot.args.get("unpivot"):
            if not pivot.args.get("include_nulls"):
                for field in pivot.args.get("fields") or []:
                    for col in field.find_all(exp.Column):
                        found = self._inner(source, col.name, col)
                        edges.absorb_as(found, EdgeKind.FILTER, pivot)
            return edges
        inputs = self._pivot_inputs(source) or []
        consumed = self._stored(inputs, _consumed(pivot))
        for name in inputs:
            if name not in consumed:
                found = self._inner(source, name, None)
                edges.absorb_as(found, EdgeKind.GROUP_BY, pivot)
        return edges

    def pivot_names(self, source: Source, pivot: exp.Pivot) -> list[str] | None:
        """The columns a pivot outputs, or None when its input's columns are unknown."""
        outputs = self._pivot_outputs(source, pivot)
        renamed = alias_columns(pivot)
        if outputs is not None and renamed:
            return renamed + outputs[len(renamed) :]
        return outputs

    def _inner(self, source: Source, name: str, column: exp.Expr | None) -> Edges:
        return self.unpivoted_column(source, name, column)

    def _pivot_inputs(self, source: Source) -> list[str] | None:
        return self.unpivoted_names(source)

    def _pivot_outputs(self, source: Source, pivot: exp.Pivot) -> list[str] | None:
        inputs = self._pivot_inputs(source)
        if inputs is None:
            return None
        if pivot.args.get("unpivot"):
            fields = pivot.args.get("fields") or []
            listed = self._stored(inputs, [c for f in fields for c in f.find_all(exp.Column)])
            kept = [name for name in inputs if name not in listed]
            return kept + _name_columns(pivot) + _value_columns(pivot)
        consumed = self._stored(inputs, _consumed(pivot))
        cells = [col.name for col in pivot.args.get("columns") or []]
        return [name for name in inputs if name not in consumed] + cells

    def _stored(self, inputs: list[str], columns: list[exp.Column]) -> set[str]:
        """The stored names among ``inputs`` that ``columns`` name (the dialect's rule)."""
        index = self.names.index(inputs)
        return {index.match(col.name)[0] or col.name for col in columns}

    def _unpivot_column(
        self, source: Source, pivot: exp.Pivot, name: str, column: exp.Expr | None
    ) -> Edges:
        value_names = _value_columns(pivot)
        if name in _name_columns(pivot):
            return Edges()  # holds the names of the unpivoted columns: literals
        if name not in value_names:
            return self._inner(source, name, column)
        position = value_names.index(name)
        edges = Edges()
        for field in pivot.args.get("fields") or []:
            for item in field.expressions if isinstance(field, exp.In) else []:
                if isinstance(item, exp.PivotAlias):
                    item = item.this  # (q1_budget, q1_actual) AS 'q1'
                items = item.expressions if isinstance(item, exp.Tuple) else [item]
                if position < len(items):
                    for col in items[position].find_all(exp.Column):
                        edges.absorb(self._inner(source, col.name, col), IDENTITY, None)
        return edges


def _consumed(pivot: exp.Pivot) -> list[exp.Column]:
    fields = pivot.args.get("fields") or []
    return [col for node in pivot.expressions + fields for col in node.find_all(exp.Column)]


def _cell_inputs(pivot: exp.Pivot, name: str) -> list[exp.Column]:
    """The columns a PIVOT cell reads: its own aggregate's and the FOR columns'.

    sqlglot names the cells value by value, each value once per aggregate in order
    (``a_s, a_m, b_s, b_m``), so a cell's place among them names its aggregate.
    """
    aggregates = pivot.expressions
    cells = [col.name for col in pivot.args.get("columns") or []]
    if len(aggregates) < 2 or name not in cells or len(cells) % len(aggregates):
        return _consumed(pivot)
    own = aggregates[cells.index(name) % len(aggregates)]
    fields = pivot.args.get("fields") or []
    return [col for node in [own, *fields] for col in node.find_all(exp.Column)]


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
