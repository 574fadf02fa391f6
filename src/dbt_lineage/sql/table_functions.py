"""Columns produced by table functions: UNNEST, FLATTEN, LATERAL, VALUES.

UNNEST elements, FLATTEN values and LATERAL function outputs are computed from their
arguments (transform); a LATERAL subquery is an ordinary scope; VALUES rows are literals
unless they read columns. Position columns (an ordinality, FLATTEN's SEQ and INDEX) have no
upstream.
"""

from __future__ import annotations

from sqlglot import exp
from sqlglot.optimizer.scope import Scope

from dbt_lineage.sql.edges import IDENTITY, TRANSFORM, Edges, Key
from dbt_lineage.sql.expr_walk import DIRECT, expr_walk
from dbt_lineage.sql.pivots import Pivots
from dbt_lineage.sql.walk_base import alias_columns, names_element
from dbt_lineage.types import EdgeKind, UnresolvedReason

GENERATORS = (
    exp.GenerateSeries,
    exp.ExplodingGenerateSeries,
    exp.GenerateDateArray,
    exp.GenerateTimestampArray,
    exp.Unnest,
)
"""Table functions in FROM that generate rows from their arguments instead of reading data
(``generate_series(1, t.k)``): their columns are computed from the arguments, which also
decide how many rows each row beside them gives."""

_POSITION_COLUMNS = frozenset({"seq", "index", "ordinality", "offset"})
"""Columns of a flattened row that are positions, not values read from the input."""


class TableFunctions(Pivots):
    """The table-function part of the walk."""

    def udtf_column(self, scope: Scope, name: str) -> Edges:
        """Column ``name`` of a UDTF scope (UNNEST, LATERAL, VALUES, FLATTEN, ...)."""
        expr = scope.expression
        if isinstance(expr, exp.Lateral) and isinstance(expr.this, exp.Subquery):
            inner = self.scope_of.get(id(expr.this.unnest()))
            if inner is not None:
                return self.resolve_output(inner, self._inner_name(inner, expr, name))
        values = expr.unnest() if isinstance(expr, (exp.Subquery, exp.Values)) else None
        if isinstance(values, exp.Values):
            return self._values_column(scope, values, alias_columns(expr), name)
        function = _call(expr)
        if isinstance(function, exp.Unnest):
            return self._unnest_column(scope, function, name)
        if name.casefold() in _POSITION_COLUMNS:
            return Edges()
        return self.computed_from(scope, function)

    def udtf_names(self, scope: Scope) -> list[str] | None:
        """The columns a UDTF scope offers, or None when unknown."""
        expr = scope.expression
        if isinstance(expr, exp.Lateral) and isinstance(expr.this, exp.Subquery):
            inner = self.scope_of.get(id(expr.this.unnest()))
            named = alias_columns(expr)
            if inner is not None and not self.has_stars(inner):
                inner_names = self.output_names(inner)
                return named + inner_names[len(named) :]
            return named or None
        named = alias_columns(expr)
        function = _call(expr)
        if isinstance(function, exp.Unnest):
            named = named or alias_columns(function)
            offset = function.text("offset")
            return named + ([offset] if offset else []) if named else None
        if not named and isinstance(expr, exp.TableFromRows) and isinstance(function, exp.Explode):
            # Snowflake's TABLE(FLATTEN(...)): the columns sqlglot gives LATERAL FLATTEN.
            named = list(getattr(self.names.sqlglot.parser_class, "FLATTEN_COLUMNS", ()))
        return named or None

    def udtf_arguments(self, scope: Scope) -> list[exp.Expr]:
        """The arguments of a table function scope (UNNEST, FLATTEN, EXPLODE...) whose values
        decide how many rows it gives: none for a LATERAL subquery or VALUES, whose rows
        their own clauses decide, nor for an array written out in the SQL (``unnest(array[a,
        b])``: two rows whatever ``a`` and ``b`` hold)."""
        expr = scope.expression
        if not scope.is_udtf or isinstance(expr, (exp.Subquery, exp.Values)):
            return []
        if isinstance(expr, exp.Lateral) and isinstance(expr.this, exp.Subquery):
            return []
        return sized_by_data(_call(expr))

    def unnest_alias(self, scope: Scope, name: str) -> Scope | None:
        """A UDTF source of ``scope`` whose UNNEST names its column ``name`` (BigQuery style)."""
        for source in scope.sources.values():
            if isinstance(source, Scope) and source.is_udtf:
                unnest = source.expression
                if isinstance(unnest, exp.Unnest):
                    names = alias_columns(unnest) + [unnest.text("offset")]
                    if name in names:
                        return source
        return None

    def inner_scopes(self, scope: Scope) -> list[Scope]:
        """Scopes nested in a UDTF scope (the subquery of a LATERAL)."""
        expr = scope.expression
        if isinstance(expr, exp.Lateral) and isinstance(expr.this, exp.Subquery):
            inner = self.scope_of.get(id(expr.this.unnest()))
            return [inner] if inner is not None else []
        return []

    def computed_from(self, scope: Scope, node: exp.Expr) -> Edges:
        """Every column read by ``node``, as a transform."""
        edges = Edges()
        for occurrence in expr_walk(node, self.scope_of):
            ref = occurrence.node
            if isinstance(ref, exp.Query):
                found = self.subquery_value(ref)
            elif occurrence.field:
                found = self.field_ref(scope, ref, occurrence.field, -1)
            else:
                found = self.resolve_ref(scope, ref)
            if occurrence.role == DIRECT:
                edges.absorb(found, max(occurrence.rank, TRANSFORM), node)
            else:
                edges.absorb_scoped(found, EdgeKind.WINDOW, node)
        return edges

    def _unnest_column(self, scope: Scope, unnest: exp.Unnest, name: str) -> Edges:
        if name == unnest.text("offset"):
            return Edges()
        names = alias_columns(unnest) or alias_columns(scope.expression)
        args = unnest.expressions
        if name in names:
            position = names.index(name)
            if position >= len(args):
                return Edges()  # WITH ORDINALITY: a position
            return self.computed_from(scope, args[position])
        if names_element(unnest) and len(args) == 1:
            return self._element_field(scope, args[0], name)
        if names:
            detail = f"column {name} is not one of UNNEST {', '.join(names)}"
            return Edges.problem(f"{UnresolvedReason.UNKNOWN_COLUMN.value}: {detail}")
        return self.computed_from(scope, args[0]) if len(args) == 1 else Edges()

    def _element_field(self, scope: Scope, array: exp.Expr, field: str) -> Edges:
        """Field ``field`` of the elements of ``array`` (BigQuery ``unnest(o.items) as item``
        then ``item.sku``): the array column, or its nested field where the catalog lists it."""
        edges = self.computed_from(scope, array)
        if not isinstance(array, exp.Column):
            return edges
        refined: dict[Key, tuple[int, exp.Expr | None]] = {}
        for (parts, column), step in edges.direct.items():
            known = self.known.get(parts)
            stored = known.index.match(f"{column}.{field}")[0] if known is not None else None
            refined[(parts, stored or column)] = step
        edges.direct = refined
        return edges

    def _values_column(
        self, scope: Scope, values: exp.Values, names: list[str], name: str
    ) -> Edges:
        if name not in names:
            if not names:
                return Edges()  # unnamed: the dialect's own names (column1, col0...)
            detail = f"column {name} is not one of VALUES {', '.join(names)}"
            return Edges.problem(f"{UnresolvedReason.UNKNOWN_COLUMN.value}: {detail}")
        position = names.index(name)
        edges = Edges()
        for row in values.expressions:
            cells = row.expressions if isinstance(row, exp.Tuple) else [row]
            if position < len(cells):
                edges.absorb(self.computed_from(scope, cells[position]), IDENTITY, None)
        return edges

    def _inner_name(self, inner: Scope, lateral: exp.Lateral, name: str) -> str:
        names = alias_columns(lateral)
        if name in names:
            inner_names = self.output_names(inner)
            position = names.index(name)
            if position < len(inner_names):
                return inner_names[position]
        return name


def sized_by_data(call: exp.Expr) -> list[exp.Expr]:
    """The arguments of table function ``call`` whose values decide how many rows it gives
    (an array written out as ``array[a, b]`` has its length in the SQL)."""
    if isinstance(call, exp.Unnest):
        arguments = list(call.expressions)
    elif isinstance(call, exp.Explode):
        arguments = [call.this, *call.expressions]
    else:
        arguments = [call]
    return [a for a in arguments if not isinstance(_value(a), exp.Array)]


def _call(expr: exp.Expr) -> exp.Expr:
    """The function a UDTF scope calls: the one a LATERAL or a TABLE(...) wraps, or itself."""
    return expr.this if isinstance(expr, (exp.Lateral, exp.TableFromRows)) else expr


def _value(argument: exp.Expr) -> exp.Expr:
    """A named argument's value (``input => x`` is ``x``)."""
    return argument.expression if isinstance(argument, exp.Kwarg) else argument
