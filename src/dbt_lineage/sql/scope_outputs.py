"""The output columns of a scope, and the upstreams of each.

A SELECT's outputs are its projections in order, stars expanded over sources whose columns
are known (USING / NATURAL keys once, EXCLUDE / REPLACE / RENAME applied); a star over a
source of unknown columns is kept as such, and a name asked of it passes through to that
source. A set operation's outputs are its first branch's, each fed by the same position of
every branch (by name for BY NAME); a CTE or derived table with a column list renames
them by position. Branches of different widths cannot run: the columns known for some
branch are wrong, and which column meets which is unknown. Positions up to the narrowest
branch are still matched, with a ``set_operation_width_mismatch`` note; an output past it
has that reason and no edge.
"""

from __future__ import annotations

import typing as t

from sqlglot import exp
from sqlglot.optimizer.scope import Scope, ScopeType

from dbt_lineage.sql.edges import IDENTITY, TRANSFORM, Edges, is_star
from dbt_lineage.sql.expr_walk import DIRECT, expr_walk
from dbt_lineage.sql.names import NameIndex
from dbt_lineage.sql.stars import Stars
from dbt_lineage.sql.walk_base import Output, Shape, Star
from dbt_lineage.types import EdgeKind, UnresolvedReason

_UNKNOWN = UnresolvedReason.UNKNOWN_COLUMN.value
_WIDTHS = UnresolvedReason.SET_OPERATION_WIDTH_MISMATCH.value
_AMBIGUOUS = UnresolvedReason.AMBIGUOUS_COLUMN.value


class ScopeOutputs(Stars):
    """The outputs part of the walk."""

    def output_names(self, scope: Scope) -> list[str]:
        """The output column names of a scope, in order (renamed by a column list)."""
        found = self._names.get(id(scope))
        if found is None:
            self.deeper()
            inner = self._inner_names(scope)
            renamed = self.renamed(scope)
            found = renamed + inner[len(renamed) :] if renamed else inner
            self._names[id(scope)] = found
            self.depth -= 1
        return found

    def output_index(self, scope: Scope) -> NameIndex:
        found = self._name_index.get(id(scope))
        if found is None:
            if isinstance(scope.expression, exp.Select) and not self.renamed(scope):
                found = self.shape(scope).name_index
            else:
                found = self.names.index(self.output_names(scope))
            self._name_index[id(scope)] = found
        return found

    def renamed(self, scope: Scope) -> list[str]:
        """Column names given by a CTE's or derived table's column list."""
        found = self._renamed.get(id(scope))
        if found is None:
            plain = scope.scope_type is ScopeType.SET_OPERATION or scope.is_udtf
            found = self._renamed[id(scope)] = [] if plain else list(scope.outer_columns or [])
        return found

    def has_stars(self, scope: Scope) -> bool:
        """Whether some outputs of ``scope`` are unknown (a star over unknown columns)."""
        found = self._stars.get(id(scope))
        if found is None:
            first = _first_branch(scope)
            found = isinstance(first.expression, exp.Select) and bool(self.shape(first).stars)
            self._stars[id(scope)] = found
        return found

    def resolve_output(self, scope: Scope, name: str) -> Edges:
        """The upstreams of output column ``name`` of ``scope`` (memoised)."""
        scope = self.scope_of.get(id(scope.expression), scope)  # see ``scope_rows``
        key = (id(scope), name)
        found = self._outputs.get(key)
        if found is not None:
            return found
        if key in self._active:  # a recursive CTE reading itself adds nothing new
            return Edges()
        self.deeper()
        self._active.add(key)
        renamed = self.renamed(scope)
        inner_name = name
        if renamed and name in renamed:
            position = renamed.index(name)
            inner = self._inner_names(scope)
            inner_name = inner[position] if position < len(inner) else name
        expr = scope.expression
        if isinstance(expr, exp.SetOperation):
            edges = self._set_output(scope, inner_name)
        elif isinstance(expr, exp.Select):
            edges = self._select_output(scope, inner_name)
        elif scope.is_udtf:
            edges = self.udtf_column(scope, inner_name)
        else:
            detail = f"column {name} of a {expr.key} scope"
            edges = Edges.problem(f"{UnresolvedReason.UNSUPPORTED_SQL.value}: {detail}")
        self._active.discard(key)
        self._outputs[key] = edges
        self.depth -= 1
        return edges

    def subquery_value(self, query: exp.Expr) -> Edges:
        """All outputs of a subquery, with the clauses that decide its rows as row-set edges."""
        child = self.scope_of[id(query)]
        edges = Edges()
        for name in self.output_names(child):
            edges.absorb(self.resolve_output(child, name), IDENTITY, None)
        if self.has_stars(child):
            edges.problems.append(
                f"{UnresolvedReason.STAR_UNKNOWN_COLUMNS.value}: a subquery selects * over "
                "a source whose columns are unknown"
            )
        edges.merge_side(self.scope_rows(child))
        return edges

    # -- SELECT ----------------------------------------------------------------------------

    def shape(self, scope: Scope) -> Shape:
        """A SELECT scope's outputs and unexpanded stars (memoised)."""
        found = self._shapes.get(id(scope))
        if found is None:
            self.deeper()
            found = self._shapes[id(scope)] = self._shape(scope)
            self.depth -= 1
        return found

    def _shape(self, scope: Scope) -> Shape:
        outputs: list[Output] = []
        stars: list[Star] = []
        query = t.cast(exp.Query, scope.expression)  # a SELECT scope's
        for position, projection in enumerate(query.selects):
            if is_star(projection):
                self.expand_star(scope, projection, outputs, stars)
                continue
            name = _projection_name(projection, position)
            outputs.append(Output(name, projection.unalias(), position))
        by_name: dict[str, Output] = {}
        for output in outputs:
            by_name.setdefault(output.name, output)
        return Shape(outputs, stars, self.names.index(list(by_name)), by_name)

    def _select_output(self, scope: Scope, name: str) -> Edges:
        shape = self.shape(scope)
        stored, candidates = shape.name_index.match(name)
        if stored is not None:
            return self._output_edges(scope, shape.by_name[stored])
        if candidates:
            return Edges.problem(f"{_AMBIGUOUS}: column {name} matches {', '.join(candidates)}")
        return self.through_stars(scope, shape.stars, name)

    def _output_edges(self, scope: Scope, output: Output) -> Edges:
        if output.body is not None:
            return self.projection_edges(scope, output.body, output.position)
        if output.using:
            edges = Edges()
            for side in output.using:
                edges.absorb(self.resolve_in_source(side, output.source_name, None), IDENTITY, None)
            return edges.raised(TRANSFORM) if output.full else edges
        if output.source is None:
            return Edges.problem(f"{_UNKNOWN}: column {output.name} has no source")
        return self.resolve_in_source(output.source, output.source_name, None)

    def projection_edges(self, scope: Scope, body: exp.Expr, position: int = -1) -> Edges:
        """The upstreams of one projection's expression in ``scope``."""
        if type(body) is exp.Column and not scope.expression.args.get("windows"):
            # A bare column is a copy: its edges are the reference's own (shared, never
            # changed once made).
            return self.resolve_ref(scope, body, position=position)
        edges = Edges()
        for occurrence in expr_walk(body, self.scope_of):
            node = occurrence.node
            if occurrence.field:
                found = self.field_ref(scope, node, occurrence.field, position)
            elif not isinstance(node, exp.Query):
                found = self.resolve_ref(scope, node, position=position)
            else:
                found = self.subquery_value(node).rows_as_scoped()
                if isinstance(node.parent, exp.Exists):
                    # EXISTS yields true/false from which rows match: a value computed from
                    # the columns that decide the subquery's rows.
                    edges.absorb(_rows_as_values(found), TRANSFORM, body)
                    edges.absorb_scoped(found, EdgeKind.FILTER, body)
                    continue
            if occurrence.role == DIRECT:
                edges.absorb(found, occurrence.rank, body)
            else:
                edges.absorb_scoped(found, EdgeKind.WINDOW, body)
        named_windows = scope.expression.args.get("windows")
        if named_windows:
            self._named_windows(scope, body, named_windows, edges)
        return edges

    def _named_windows(
        self, scope: Scope, body: exp.Expr, named: list[exp.Expr], edges: Edges
    ) -> None:
        """``OVER w`` with ``WINDOW w AS (PARTITION BY ...)``: the keys are window edges."""
        by_name = {window.name: window for window in named}
        for window in body.find_all(exp.Window):
            definition = by_name.get(window.text("alias"))
            if definition is not None:
                for key in ("partition_by", "order"):
                    value = definition.args.get(key)
                    for part in value if isinstance(value, list) else [value] if value else []:
                        self.clause(scope, part, EdgeKind.WINDOW, edges, scoped=True)

    # -- set operations --------------------------------------------------------------------

    def _inner_names(self, scope: Scope) -> list[str]:
        expr = scope.expression
        if isinstance(expr, exp.SetOperation):
            return self._set_names(scope)
        if isinstance(expr, exp.Select):
            return [output.name for output in self.shape(scope).outputs]
        if scope.is_udtf:
            return self.udtf_names(scope) or []
        if isinstance(expr, exp.Query):
            return [select.alias_or_name for select in expr.selects if not is_star(select)]
        return []

    def _set_names(self, scope: Scope) -> list[str]:
        expr = scope.expression
        left, right = scope.set_operation_scopes
        if not expr.args.get("by_name"):
            # a chain of set operations is as deep as it is long: walk down, not recurse
            while (
                isinstance(left.expression, exp.SetOperation)
                and left.set_operation_scopes
                and not left.expression.args.get("by_name")
            ):
                left = left.set_operation_scopes[0]
            return self.output_names(left)
        names = self.output_names(left)
        right_names = self.output_names(right)
        side = (expr.text("side") or "").upper()
        if side == "INNER":
            return [name for name in names if name in right_names]
        if side == "LEFT":
            return names
        return names + [name for name in right_names if name not in names]

    def _set_output(self, scope: Scope, name: str) -> Edges:
        """Output ``name`` of a chain of set operations, its branches walked without recursion.

        Each branch feeds it by position; by name for BY NAME, and through a branch whose
        stars leave its positions unknown.
        """
        edges = Edges()
        position = self._position(scope, name)
        by_name = bool(scope.expression.args.get("by_name"))
        narrowest = -1 if by_name else self._narrowest(scope)
        if position is not None and 0 <= narrowest <= position:
            detail = f"past the narrowest branch, of {narrowest} column(s)"
            return Edges.problem(f"{_WIDTHS}: {detail}")
        for branch in self.value_branches(scope):
            if not by_name and position is not None and not self.has_stars(branch):
                names = self.output_names(branch)
                if position < len(names):
                    edges.absorb(self.resolve_output(branch, names[position]), IDENTITY, None)
            elif name in self.output_index(branch) or self.has_stars(branch):
                edges.absorb(self.resolve_in_source(branch, name, None), IDENTITY, None)
        return edges

    def _narrowest(self, scope: Scope) -> int:
        """The width of the narrowest branch of a set operation whose branches' widths are
        known and differ (noted once), else -1."""
        found = self._widths.get(id(scope))
        if found is None:
            widths = [
                len(self.output_names(branch))
                for branch in _leaves(scope)
                if not self.has_stars(branch)
            ]
            found = self._widths[id(scope)] = min(widths) if len(set(widths)) > 1 else -1
            if found >= 0:
                operation = scope.expression.key.upper()
                note = (
                    f"{_WIDTHS}: {operation} branches of {_counts(widths)} columns, which no "
                    "warehouse runs: the columns known for some branch are out of date; "
                    f"matched by position up to column {found}, none past it"
                )
                self.notes[note] = None
        return found

    def _position(self, scope: Scope, name: str) -> int | None:
        names = self.output_names(scope)
        stored, _ = self.output_index(scope).match(name)
        return names.index(stored) if stored is not None else None

    def value_branches(self, scope: Scope) -> list[Scope]:
        """The branches of a set-operation chain whose rows give the output values, in order:
        every branch but the right side of EXCEPT."""
        branches: list[Scope] = []
        pending: list[Scope] = [scope]
        while pending:
            current = pending.pop()
            expr = current.expression
            if isinstance(expr, exp.SetOperation) and current.set_operation_scopes:
                left, right = current.set_operation_scopes
                if not isinstance(expr, exp.Except):
                    pending.append(right)
                pending.append(left)
            else:
                branches.append(current)
        return branches


def _leaves(scope: Scope) -> list[Scope]:
    """Every branch of a chain of set operations (the right side of EXCEPT too), in order."""
    leaves: list[Scope] = []
    pending = [scope]
    while pending:
        current = pending.pop()
        if isinstance(current.expression, exp.SetOperation) and current.set_operation_scopes:
            pending.extend(reversed(current.set_operation_scopes))
        else:
            leaves.append(current)
    return leaves


def _counts(widths: list[int]) -> str:
    """``2, 3 and 5`` (each width once, in order of the branches)."""
    unique = [str(width) for width in dict.fromkeys(widths)]
    return ", ".join(unique[:-1]) + " and " + unique[-1]


def _first_branch(scope: Scope) -> Scope:
    while isinstance(scope.expression, exp.SetOperation) and scope.set_operation_scopes:
        scope = scope.set_operation_scopes[0]
    return scope


def _projection_name(projection: exp.Expr, position: int) -> str:
    if isinstance(projection, exp.Alias):
        return projection.alias
    if isinstance(projection, (exp.Column, exp.Dot)) and projection.name:
        return projection.name
    return f"_col_{position}"


def _rows_as_values(found: Edges) -> Edges:
    edges = Edges()
    for key, _ in list(found.indirect) + list(found.scoped):
        edges.direct.setdefault(key, (TRANSFORM, None))
    return edges
