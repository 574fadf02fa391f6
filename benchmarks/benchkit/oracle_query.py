"""The query the oracle runs: a statement as DuckDB SQL, with what it reads and the literals
random data should meet (see :mod:`.oracle`)."""

from __future__ import annotations

import typing as t

import sqlglot
from sqlglot import exp


def duckdb_query(
    sql: str, dialect: str
) -> tuple[str, set[str], set[str] | None, dict[str, list[t.Any]]]:
    """Module entry: the query ``sql`` computes, as DuckDB SQL (the SELECT of a CREATE ...
    AS), the names of the tables it reads and of the columns it names (case-folded; None
    under a star), and its literals."""
    tree = sqlglot.parse_one(sql, dialect=dialect)
    if isinstance(tree, exp.Create) and isinstance(tree.expression, exp.Query):
        tree = tree.expression
    if not isinstance(tree, exp.Query):
        raise ValueError(f"a {tree.key} statement")
    tables = {table.name.casefold() for table in tree.find_all(exp.Table)}
    named = {column.name.casefold() for column in tree.find_all(exp.Column)}
    for join in tree.find_all(exp.Join):
        named |= {ident.name.casefold() for ident in join.args.get("using") or ()}
    star = any(not isinstance(star.parent, exp.Count) for star in tree.find_all(exp.Star))
    natural = any(join.method for join in tree.find_all(exp.Join))
    named = None if star or natural else named
    return tree.sql(dialect="duckdb"), tables, named, _literals(tree)


def _literals(tree: exp.Expr) -> dict[str, list[t.Any]]:
    """The query's literals by type family: values a filter or a join compares with."""
    found: dict[str, list[t.Any]] = {"int": [], "double": [], "text": []}
    for literal in tree.find_all(exp.Literal):
        if literal.is_string:
            found["text"].append(literal.this)
        elif literal.is_int:
            found["int"].append(int(literal.this))
        elif literal.is_number:
            found["double"].append(float(literal.this))
    return found
