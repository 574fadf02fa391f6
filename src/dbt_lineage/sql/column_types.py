"""The type of each output column of a query, where its SQL says it for certain.

A column's type is known when its expression is a CAST (its target type), a literal, a
column carried unchanged (the type of that column: the relation's, from ``schema``, or the
CTE's or subquery's own output), or a type-keeping aggregate of one (``min``, ``max``,
``any_value``). Anything else (arithmetic, other functions, a CASE) is None: sqlglot's
``annotate_types`` would guess such types by its own rules, which are not each warehouse's
(``count(*)`` is BIGINT in DuckDB, NUMBER(18,0) in Snowflake, INT64 in BigQuery), and a
wrong type here would block a pull request that builds.
"""

from __future__ import annotations

import typing as t

from sqlglot import exp
from sqlglot.optimizer.scope import Scope

from dbt_lineage.sql.names import names
from dbt_lineage.sql.normal_form import NormalTree
from dbt_lineage.sql.qualified_scope import qualified_scope
from dbt_lineage.sql.select_names import select_names

_KEEPING = (exp.Min, exp.Max, exp.AnyValue, exp.Paren, exp.IgnoreNulls, exp.RespectNulls)
"""Expressions whose type is their first argument's."""

_MAX_DEPTH = 64
"""How deep one column's type is followed through CTEs and subqueries."""


def column_types(
    tree: NormalTree, schema: t.Mapping[str, t.Mapping[str, str]]
) -> dict[str, str | None]:
    """Each output column's type as SQL text in the tree's dialect, or None when its SQL
    does not say it for certain.

    Args:
        tree: from ``normal_form`` (relations named by unique id); qualified in place.
        schema: unique id -> {column: type} of the relations it reads ('' or ``UNKNOWN``:
            not known).

    >>> from dbt_lineage.sql.normal_form import normal_form
    >>> ids = {("orders",): "model.p.orders"}.get
    >>> sql = ("with f as (select id, cast(amount as varchar) as a, amount * 2 as b "
    ...        "from orders) select max(id) as id, a, b, 'x' as c from f group by a, b")
    >>> schema = {"model.p.orders": {"id": "BIGINT", "amount": "INT"}}
    >>> column_types(normal_form(sql, "duckdb", ids), schema)
    {'id': 'BIGINT', 'a': 'TEXT', 'b': None, 'c': 'TEXT'}

    Raises:
        SqlError: the query's scopes cannot be read.
    """
    root = qualified_scope(tree, schema)
    typer = _Typer(names(tree.dialect).sqlglot, schema)
    return typer.outputs(root)


class _Typer:
    def __init__(self, glot: t.Any, schema: t.Mapping[str, t.Mapping[str, str]]) -> None:
        self.glot = glot
        self.schema = {
            table: {name.casefold(): data_type for name, data_type in columns.items()}
            for table, columns in schema.items()
        }
        self.done: dict[tuple[int, str], str | None] = {}

    def outputs(self, scope: Scope) -> dict[str, str | None]:
        return {name: self.output(scope, name, 0) for name in select_names(scope.expression)}

    def output(self, scope: Scope, name: str, depth: int) -> str | None:
        """The type of output column ``name`` of ``scope`` (the branches of a set operation,
        by position, must agree)."""
        key = (id(scope), name)
        if key not in self.done:
            self.done[key] = None  # a column that reaches itself has no type we can tell
            position = next(
                (i for i, found in enumerate(select_names(scope.expression)) if found == name), None
            )
            found = {self._branch(branch, position, depth) for branch in _branches(scope)}
            self.done[key] = found.pop() if len(found) == 1 and position is not None else None
        return self.done[key]

    def _branch(self, scope: Scope, position: int | None, depth: int) -> str | None:
        select = scope.expression
        if isinstance(select, exp.Subquery):
            select = select.unnest()
        if position is None or not isinstance(select, exp.Select):
            return None
        if position >= len(select.expressions):
            return None
        return self.expression(scope, select.expressions[position].unalias(), depth)

    def expression(self, scope: Scope, node: exp.Expr, depth: int) -> str | None:
        if depth > _MAX_DEPTH:
            return None
        if isinstance(node, exp.Cast):  # TryCast and the dialects' :: included
            return node.to.sql(dialect=self.glot) if isinstance(node.to, exp.DataType) else None
        if isinstance(node, exp.Literal):
            return "TEXT" if node.is_string else None  # 1 is INT or NUMBER(38,0)...
        if isinstance(node, exp.Boolean):
            return "BOOLEAN"
        if isinstance(node, _KEEPING):
            return self.expression(scope, node.this, depth + 1)
        if isinstance(node, exp.Column):
            return self._column(scope, node, depth)
        return None

    def _column(self, scope: Scope, column: exp.Column, depth: int) -> str | None:
        source = scope.sources.get(column.table)
        if isinstance(source, Scope):
            return self.output(source, column.name, depth + 1)
        if isinstance(source, exp.Table):
            data_type = self.schema.get(source.name, {}).get(column.name.casefold())
            return data_type if data_type and data_type.upper() != "UNKNOWN" else None
        return None


def _branches(scope: Scope) -> list[Scope]:
    """The SELECT scopes of a set operation, nested ones flattened."""
    leaves, pending = [], [scope]
    while pending:  # a loop over a stack: a chain of set operations cannot overflow it
        current = pending.pop()
        if current.set_operation_scopes:
            pending.extend(reversed(current.set_operation_scopes))
        else:
            leaves.append(current)
    return leaves
