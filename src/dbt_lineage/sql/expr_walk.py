"""Walk one expression and say, for each column in it, how it feeds the value.

The kind of a column occurrence depends only on the path from the expression's root to
it: bare (through aliases and parentheses) is identity, under an aggregate function is
aggregate (a windowed aggregate too, and its FILTER), anything else is transform. The
PARTITION BY and ORDER BY of a window are never direct: they come out with role
``window``. Subqueries are not entered; they are yielded so the caller can resolve them in
their own scope.
"""

from __future__ import annotations

import typing as t

from sqlglot import exp

from dbt_lineage.types import EdgeKind

IDENTITY = EdgeKind.IDENTITY.rank
TRANSFORM = EdgeKind.TRANSFORM.rank
AGGREGATE = EdgeKind.AGGREGATE.rank

DIRECT = "direct"
WINDOW = "window"

# Navigation functions: over a window they pick a neighbouring value, they do not aggregate.
_NAVIGATION = (exp.Lag, exp.Lead, exp.FirstValue, exp.LastValue, exp.NthValue, exp.First, exp.Last)
_TRANSPARENT = (exp.Alias, exp.Paren, exp.Subquery)
_LEAVES = frozenset({exp.Literal, exp.Null, exp.Boolean, exp.DataType, exp.Var, exp.Star})


class Occurrence(t.NamedTuple):
    """A column (or subquery) met in an expression, with the strength of its path."""

    node: exp.Expr  # an exp.Column or exp.TableColumn, or an exp.Query for a subquery
    rank: int  # IDENTITY / TRANSFORM / AGGREGATE
    role: str  # DIRECT or WINDOW
    field: str = ""  # the struct field read from the column (``col.f``, ``col['f']``), if any


def expr_walk(root: exp.Expr, subqueries: t.Container[int]) -> list[Occurrence]:
    """The columns and subqueries of ``root`` with their rank and role.

    Args:
        root: the expression (a projection, a clause...).
        subqueries: ids of query nodes that own a scope; they are yielded, not entered.

    Returns:
        One occurrence per column or subquery, in no particular order. Lambda parameters
        are left out: they are bound by the lambda, not read from a table.

    >>> import sqlglot
    >>> sorted((o.node.sql(), o.rank, o.role) for o in expr_walk(
    ...     sqlglot.parse_one("SUM(a) OVER (PARTITION BY b)"), ()))
    [('a', 3, 'direct'), ('b', 1, 'window')]
    """
    if type(root) is exp.Column:
        return [Occurrence(root, IDENTITY, DIRECT)]
    found: list[Occurrence] = []
    stack: list[tuple[exp.Expr, int, str, frozenset[str]]] = [(root, IDENTITY, DIRECT, frozenset())]
    child: exp.Expr
    while stack:
        node, rank, role, params = stack.pop()
        kind = type(node)
        if kind is exp.Column:
            if not (params and _bound(t.cast(exp.Column, node), params)):
                found.append(Occurrence(node, rank, role))
            continue
        if kind in _LEAVES:
            continue
        if kind is exp.TableColumn or kind is exp.Columns:
            # A whole row used as a value (Postgres), or columns chosen by a pattern.
            found.append(Occurrence(node, max(rank, TRANSFORM), role))
            continue
        field = _field(node)
        if field:
            column = node.this
            if not (params and _bound(column, params)):
                found.append(Occurrence(column, max(rank, TRANSFORM), role, field))
            continue
        if isinstance(node, exp.Query) and id(node) in subqueries:
            found.append(Occurrence(node, rank, role))
            continue
        if isinstance(node, exp.Window):
            inner = node.this
            while isinstance(inner, (exp.IgnoreNulls, exp.RespectNulls)):
                inner = inner.this
            if isinstance(inner, _NAVIGATION):
                # LAG/LEAD/FIRST_VALUE over a window copy a neighbour's value: transform.
                for child in inner.iter_expressions():
                    stack.append((child, max(rank, TRANSFORM), role, params))
            else:
                stack.append((node.this, max(rank, TRANSFORM), role, params))
            for key in ("partition_by", "order"):
                for child in _children(node.args.get(key)):
                    stack.append((child, IDENTITY, WINDOW, params))
            continue
        if isinstance(node, exp.Lambda):
            names = {param.name for param in node.expressions}
            body = node.this.find_all(exp.Column, exp.Identifier)
            if not any(used.name in names for used in body):
                # `payload -> 'items'` in a function's arguments reads as a lambda, but its
                # body never uses the "parameter": a JSON path over column `payload`.
                for param in node.expressions:
                    column = exp.column(param.name, quoted=param.args.get("quoted"))
                    found.append(Occurrence(column, max(rank, TRANSFORM), role))
                stack.append((node.this, max(rank, TRANSFORM), role, params))
                continue
            params = params | names
        if isinstance(node, exp.AggFunc):
            child_rank = AGGREGATE
        elif isinstance(node, (exp.Filter, exp.WithinGroup)) and isinstance(node.this, exp.AggFunc):
            child_rank = AGGREGATE
        elif isinstance(node, _TRANSPARENT):
            child_rank = rank
        else:
            child_rank = max(rank, TRANSFORM)
        for child in node.iter_expressions():
            stack.append((child, child_rank, role, params))
    return found


def _field(node: exp.Expr) -> str:
    """The field name of ``column.field`` or ``column['field']``, else ``""``."""
    if not isinstance(node, (exp.Dot, exp.Bracket)) or not isinstance(node.this, exp.Column):
        return ""
    if isinstance(node, exp.Dot):
        key = node.expression
        return key.name if isinstance(key, exp.Identifier) else ""
    keys = node.expressions
    if len(keys) == 1 and isinstance(keys[0], exp.Literal) and keys[0].is_string:
        return keys[0].name
    return ""


def _children(value: t.Any) -> list[exp.Expr]:
    if value is None:
        return []
    if isinstance(value, list):
        return value
    return [value]


def _bound(column: exp.Column, params: frozenset[str]) -> bool:
    head = column.parts[0].name if column.parts else column.name
    return head in params
