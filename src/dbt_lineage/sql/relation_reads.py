"""Every column of a relation a query reads, anywhere in it: the output's columns, the row
clauses, and CTE columns that never reach the output (the warehouse resolves those too, and
fails the query when one is gone).

A reference is followed through CTEs and subqueries down to the relation that holds it. A
name that a CTE does not list, where that CTE reads a single relation (a ``select *`` whose
star the schema could not expand to it), is taken as read from that relation: that is the
reference the warehouse would try.
"""

from __future__ import annotations

import typing as t

from sqlglot import exp
from sqlglot.optimizer.scope import Scope

from dbt_lineage.errors import SqlError
from dbt_lineage.sql.normal_form import NormalTree
from dbt_lineage.sql.qualified_scope import qualified_scope
from dbt_lineage.sql.walk_base import MAX_DEPTH, NESTED_TOO_DEEP


def relation_reads(
    tree: NormalTree, schema: t.Mapping[str, t.Mapping[str, str]]
) -> frozenset[tuple[str, str]]:
    """(relation unique id, column) for every relation column ``tree`` reads.

    Args:
        tree: from ``normal_form`` (relations named by unique id); qualified in place.
        schema: unique id -> {column: type} of the relations it reads.

    >>> from dbt_lineage.sql.normal_form import normal_form
    >>> ids = {("orders",): "model.p.orders"}.get
    >>> sql = "with f as (select *, note as unused from orders) select id from f"
    >>> sorted(relation_reads(normal_form(sql, "duckdb", ids), {"model.p.orders": {"id": ""}}))
    [('model.p.orders', 'id'), ('model.p.orders', 'note')]

    Raises:
        SqlError: the query's scopes cannot be read.
    """
    root = qualified_scope(tree, schema)
    found: set[tuple[str, str]] = set()
    for scope in root.traverse():
        for column in scope.columns:
            found.update(_held(scope, column.table, column.name, 0))
    return frozenset(found)


def _held(scope: Scope, table: str, name: str, depth: int) -> set[tuple[str, str]]:
    """The relation columns that reference ``table.name`` in ``scope`` reads."""
    if depth > MAX_DEPTH:
        raise SqlError(f"cannot read its columns: {NESTED_TOO_DEEP} (derived tables)")
    source: t.Any = scope.sources.get(table)
    if not table and len(scope.selected_sources) == 1:
        source = next(iter(scope.selected_sources.values()))[1]
    if isinstance(source, exp.Table):
        return {(source.name, name)}
    if not isinstance(source, Scope):
        return set()
    inner = source
    while inner.set_operation_scopes:  # a union: its first branch names its columns
        inner = inner.set_operation_scopes[0]
    select = inner.expression
    if not isinstance(select, exp.Select):
        return set()
    for projection in select.expressions:
        if projection.alias_or_name == name:
            return set()  # its own reads are counted in its own scope
    if len(inner.selected_sources) == 1:
        alias = next(iter(inner.selected_sources))
        return _held(inner, alias, name, depth + 1)
    return set()
