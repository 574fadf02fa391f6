"""DuckDB's PIVOT / UNPIVOT statements, rewritten as the SELECT ... PIVOT (...) they mean.

``PIVOT src ON col IN (v1, v2) USING sum(x) GROUP BY g`` keeps only ``g`` besides the cells,
so it reads ``SELECT * FROM (SELECT g, col, x FROM src) PIVOT (sum(x) FOR col IN (v1, v2))``.
``UNPIVOT src ON a, b INTO NAME n VALUE v`` reads
``SELECT * FROM src UNPIVOT (v FOR n IN (a, b))``. sqlglot parses both statements but its
scopes do not cover them. A PIVOT without an IN list takes its columns from the data: it
is left as is and reported as such.

A PIVOT applied to a CTE by name (``FROM base PIVOT (...)``) reads
``FROM (SELECT * FROM base) AS base PIVOT (...)``: the scopes attach a pivot to a derived
table, never to the CTE a name reaches.
"""

from __future__ import annotations

import sqlglot
from sqlglot import exp

_SOURCE_ALIAS = "_dbt_lineage_pivot_input"


def pivot_statement(expression: exp.Expr, dialect: str) -> exp.Expr:
    """``expression`` with every PIVOT / UNPIVOT statement in it rewritten as a SELECT.

    >>> pivot_statement(sqlglot.parse_one(
    ...     "unpivot t on a, b into name k value v", dialect="duckdb"), "duckdb").sql("duckdb")
    'SELECT * FROM t UNPIVOT(v FOR k IN (a, b))'
    """
    for table in [node for node in expression.find_all(exp.Table) if node.args.get("pivots")]:
        if _names_cte(table):
            _wrap(table)
    statements = [node for node in expression.find_all(exp.Pivot) if node.this is not None]
    for node in statements:
        rewritten = _rewrite(node, dialect)
        if rewritten is None:
            continue
        if node is expression:
            return rewritten
        node.replace(rewritten)
    return expression


def _rewrite(node: exp.Pivot, dialect: str) -> exp.Expr | None:
    source = node.this.sql(dialect=dialect)
    if node.args.get("unpivot"):
        into = node.args.get("into")
        name = into.this.sql(dialect=dialect) if into is not None else "name"
        values = [v.sql(dialect=dialect) for v in into.expressions] if into is not None else []
        value = values[0] if len(values) == 1 else "value"
        if into is not None and len(values) > 1:
            return None
        listed = ", ".join(column.sql(dialect=dialect) for column in node.expressions)
        sql = f"SELECT * FROM {source} UNPIVOT ({value} FOR {name} IN ({listed}))"
        return sqlglot.parse_one(sql, dialect=dialect)
    fields = node.expressions
    using = node.args.get("using") or []
    if not fields or not using or not all(isinstance(field, exp.In) for field in fields):
        return None
    group = node.args.get("group")
    if group is not None:
        keep: dict[str, None] = {}
        for part in [*group.expressions, *fields, *using]:
            for column in part.find_all(exp.Column):
                keep[column.sql(dialect=dialect)] = None
        source = f"(SELECT {', '.join(keep)} FROM {source}) AS {_SOURCE_ALIAS}"
    aggregates = ", ".join(aggregate.sql(dialect=dialect) for aggregate in using)
    pivots = " ".join(field.sql(dialect=dialect) for field in fields)
    sql = f"SELECT * FROM {source} PIVOT ({aggregates} FOR {pivots})"
    return sqlglot.parse_one(sql, dialect=dialect)


def _names_cte(table: exp.Table) -> bool:
    """Whether ``table`` names a CTE of a WITH around it."""
    if table.args.get("db") or not isinstance(table.this, exp.Identifier):
        return False
    node = table.parent
    while node is not None:
        with_ = node.args.get("with_")
        if isinstance(with_, exp.With) and any(
            cte.alias == table.name for cte in with_.expressions
        ):
            return True
        node = node.parent
    return False


def _wrap(table: exp.Table) -> None:
    pivots = table.args["pivots"]
    alias = table.alias or table.name
    inner = exp.select("*").from_(exp.Table(this=table.this.copy()))
    table.replace(
        exp.Subquery(
            this=inner,
            alias=exp.TableAlias(this=exp.to_identifier(alias, quoted=table.this.quoted)),
            pivots=pivots,
        )
    )
