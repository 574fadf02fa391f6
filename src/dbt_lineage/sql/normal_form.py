"""A query's comparable form: its tree with comments, formatting and environment names gone.

Two compiled versions of a model have the same ``NormalTree.text`` exactly when they differ
only in comments, formatting, letter case where the dialect ignores it, or the database and
schema their relations live in: every relation name is replaced by the unique id it refers
to, so ``analytics_prod.orders`` and ``ci_pr_42.orders`` read the same. Names that refer to
no known relation are kept as written.
"""

from __future__ import annotations

import dataclasses
import typing as t

import sqlglot
from sqlglot import exp
from sqlglot.errors import ParseError, TokenError
from sqlglot.optimizer.normalize_identifiers import normalize_identifiers

from dbt_lineage.errors import SqlError
from dbt_lineage.sql.names import names
from dbt_lineage.sql.nesting import MAX_PARSE_DEPTH, nesting
from dbt_lineage.sql.one_line import one_line

RelationLookup = t.Callable[[tuple[str, ...]], "str | None"]
"""A relation's normalised name parts (database, schema, name) -> its unique id, or None."""

PlaceLookup = t.Callable[[tuple[str, ...]], "tuple[str, ...] | None"]
"""A function call's qualifier parts ((database,) schema) -> the same place under the names
both sides agree on, or None to keep it as written."""


@dataclasses.dataclass(frozen=True)
class NormalTree:
    """A parsed query with its relations named by unique id, and its text without comments.

    ``tree`` is the sqlglot tree (opaque outside ``sql/``); pass the whole object to
    ``inlined_columns``, once: it qualifies the tree in place.
    """

    text: str
    tree: t.Any
    dialect: str
    relations: frozenset[str] = frozenset()
    """The unique ids of the relations it reads."""


def normal_form(
    sql: str, dialect: str, relation: RelationLookup, place: PlaceLookup | None = None
) -> NormalTree:
    """Parse ``sql`` (its last statement), rename relations to unique ids, drop comments.

    Args:
        sql: compiled SQL.
        dialect: sqlglot dialect name ('' for ANSI).
        relation: finds the unique id of a relation's normalised name parts.
        place: renames the database and schema that qualify a user function's call
            (``analytics.my_udf(x)``), as relations are renamed to ids.

    >>> ids = {("db", "prod", "orders"): "model.shop.orders", ("db", "ci", "orders"):
    ...        "model.shop.orders"}.get
    >>> a = normal_form("select id from db.prod.orders -- note", "duckdb", ids)
    >>> b = normal_form("SELECT\\n  id\\nFROM db.ci.orders", "duckdb", ids)
    >>> a.text == b.text, a.text
    (True, 'SELECT id FROM "model.shop.orders" AS orders')

    Raises:
        SqlError: the SQL does not parse.
    """
    glot = names(dialect).sqlglot
    if nesting(sql):
        raise SqlError(f"SQL nested too deep: past {MAX_PARSE_DEPTH} levels, not parsed")
    try:
        parsed = [statement for statement in sqlglot.parse(sql, dialect=glot) if statement]
    except (ParseError, TokenError) as error:
        raise SqlError(f"SQL does not parse: {one_line(error)[:200]}") from error
    except RecursionError as error:
        raise SqlError("SQL does not parse: nested deeper than the parser can follow") from error
    if not parsed:
        raise SqlError("SQL does not parse: no statement found")
    tree = normalize_identifiers(parsed[-1], dialect=glot)
    ctes = {cte.alias_or_name for cte in tree.find_all(exp.CTE)}
    read: set[str] = set()
    for table in list(tree.find_all(exp.Table)):
        if not isinstance(table.this, exp.Identifier):
            continue  # a table function or a variable
        if not table.args.get("db") and table.name in ctes:
            continue
        node_id = relation(tuple(part.name for part in table.parts))
        if node_id is None:
            continue
        read.add(node_id)
        if not table.args.get("alias"):
            table.set("alias", exp.TableAlias(this=exp.to_identifier(table.name)))
        table.set("this", exp.to_identifier(node_id, quoted=True))
        table.set("db", None)
        table.set("catalog", None)
    if place is not None:
        _rename_places(tree, place)
    return NormalTree(_text(tree, glot), tree, dialect, frozenset(read))


def _rename_places(tree: exp.Expr, place: PlaceLookup) -> None:
    """``db.schema.fn(...)``: the qualifier of each function call, renamed by ``place``."""
    for dot in list(tree.find_all(exp.Dot)):
        if not isinstance(dot.expression, (exp.Anonymous, exp.Func)):
            continue
        parts = _qualifier(dot.this)
        if parts is None:
            continue
        renamed = place(tuple(part.name for part in parts))
        if renamed is None:
            continue
        qualifier: exp.Expr = exp.to_identifier(renamed[0], quoted=True)
        for name in renamed[1:]:
            qualifier = exp.Dot(this=qualifier, expression=exp.to_identifier(name, quoted=True))
        dot.set("this", qualifier)


def _qualifier(node: exp.Expr) -> list[exp.Identifier] | None:
    """The identifiers of a ``db.schema`` (or ``schema``) qualifier, or None."""
    tail: list[exp.Identifier] = []
    while isinstance(node, exp.Dot):  # a loop: a chain of dots however long cannot overflow
        if not isinstance(node.expression, exp.Identifier):
            return None
        tail.insert(0, node.expression)
        node = node.this
    if isinstance(node, exp.Identifier):
        return [node, *tail]
    if isinstance(node, exp.Column) and isinstance(node.this, exp.Identifier):
        parts = [part for part in node.parts if isinstance(part, exp.Identifier)]
        return [*parts, *tail] if len(parts) == len(node.parts) else None
    return None


def _text(tree: exp.Expr, glot: t.Any) -> str:
    try:
        return tree.sql(dialect=glot, comments=False)
    except RecursionError:
        return repr(tree)  # deeper than the generator recurses: still a faithful fingerprint
