"""The names of a query's output columns as its first SELECT writes them."""

from __future__ import annotations

from sqlglot import exp


def select_names(expression: exp.Expr) -> list[str]:
    """The alias or name of each projection of ``expression``'s SELECT (the first branch of
    a set operation); [] for anything else.

    >>> import sqlglot
    >>> select_names(sqlglot.parse_one("select a, b + 1 as c from t union select 1, 2"))
    ['a', 'c']
    """
    while isinstance(expression, exp.SetOperation):
        expression = expression.this
    if isinstance(expression, exp.Subquery):
        expression = expression.unnest()
    if not isinstance(expression, exp.Select):
        return []
    return [projection.alias_or_name for projection in expression.expressions]
