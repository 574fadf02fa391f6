"""Which function calls enclose each column an expression reads.

Classification asks, of one edge's SQL expression, whether the upstream column's value
reaches the output only through a hash (``md5(email)``), only as a count
(``count(distinct email)``), or through some other aggregate. This module answers with the
chain of calls around every column reference; it knows nothing of dbt or of classes.
"""

from __future__ import annotations

import dataclasses
import functools
import typing as t

from dbt_lineage.errors import SqlError
from dbt_lineage.sql.nesting import nesting


@dataclasses.dataclass(frozen=True)
class Call:
    """One function call around a column reference.

    ``name`` is the function's name as the dialect writes it, lower case (``sha256``);
    ``names`` every name it goes by: that one, sqlglot's (``sha2``) and, for a function
    sqlglot does not know (a UDF), the name as written. ``aggregate`` is whether it is an
    aggregate function. A column in an aggregate's ``FILTER (WHERE ...)`` is enclosed by
    that aggregate.
    """

    name: str
    names: frozenset[str]
    aggregate: bool


@dataclasses.dataclass(frozen=True)
class ColumnUse:
    """One reference to a column in an expression, with the calls around it, innermost first.

    ``table`` is the qualifier as written (empty when none); ``column`` the name as written.
    """

    table: str
    column: str
    calls: tuple[Call, ...]


@functools.lru_cache(maxsize=16384)
def enclosing_calls(expression: str, dialect: str = "") -> tuple[ColumnUse, ...]:
    """Every column reference of ``expression``, with the function calls enclosing it.

    Args:
        expression: one SQL expression (not a statement), e.g. an edge's ``expression``.
        dialect: the sqlglot dialect it is written in.

    >>> [(u.column, ["md5" in c.names for c in u.calls])
    ...  for u in enclosing_calls("left(md5(lower(c.email)), 8) || c.name", "duckdb")]
    [('email', [False, True, False]), ('name', [])]
    >>> use, = enclosing_calls("COUNT(DISTINCT o.customer_id)", "duckdb")
    >>> use.table, [(sorted(c.names), c.aggregate) for c in use.calls]
    ('o', [(['count'], True)])

    Raises:
        SqlError: the text does not parse as an expression.
    """
    import sqlglot  # here, not at the top: most edges are decided without parsing
    from sqlglot import exp
    from sqlglot.errors import SqlglotError

    if nesting(expression):
        raise SqlError(f"expression nested too deep to parse: {expression[:200]}")
    try:
        tree = sqlglot.parse_one(expression, read=dialect or None)
    except (SqlglotError, RecursionError) as error:
        detail = " ".join(str(error).split())[:200]
        raise SqlError(f"expression does not parse ({detail}): {expression[:200]}") from error
    uses = []
    for column in tree.find_all(exp.Column, bfs=False):
        if isinstance(column.this, exp.Star):
            continue
        calls = []
        node: exp.Expr = column
        parent = column.parent
        while parent is not None:
            call = parent
            if isinstance(parent, exp.Filter) and node is not parent.this:
                call = parent.this  # the aggregate whose FILTER clause reads the column
            if isinstance(call, exp.Func):
                calls.append(_call(call, dialect))
            node, parent = parent, parent.parent
        uses.append(ColumnUse(column.table, column.name, tuple(calls)))
    return tuple(uses)


def _call(call: t.Any, dialect: str) -> Call:
    """A call with what it is known as: its name in ``dialect``, sqlglot's key and name."""
    from sqlglot import exp

    aggregate = isinstance(call, exp.AggFunc)
    if isinstance(call, exp.Anonymous):
        return Call(call.name.lower(), frozenset({call.name.lower()}), aggregate)
    names = {call.key.lower(), call.sql_name().lower()}
    head = call.sql(dialect=dialect or None).split("(", 1)[0].strip().lower()
    if head and " " not in head:
        names.add(head)
    else:
        head = call.sql_name().lower()
    return Call(head, frozenset(names), aggregate)
