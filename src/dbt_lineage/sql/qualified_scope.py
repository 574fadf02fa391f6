"""A normal-form query qualified against the columns of the relations it reads, as a scope
tree: what ``inlined_columns`` and ``relation_reads`` walk."""

from __future__ import annotations

import typing as t

from sqlglot.errors import SqlglotError
from sqlglot.optimizer.qualify import qualify
from sqlglot.optimizer.scope import Scope, build_scope

from dbt_lineage.errors import SqlError
from dbt_lineage.sql.names import names
from dbt_lineage.sql.normal_form import NormalTree


def qualified_scope(tree: NormalTree, schema: t.Mapping[str, t.Mapping[str, str]]) -> Scope:
    """Qualify ``tree`` in place against ``schema`` and return its root scope.

    Args:
        tree: from ``normal_form`` (relations named by unique id).
        schema: unique id -> {column: type} of the relations it reads (stars expand to
            these; a column of no known type is passed as UNKNOWN, since BigQuery's qualify
            parses every type it is given).

    Raises:
        SqlError: the query's scopes cannot be read (not a query; an unsupported construct).
    """
    mapping: dict[str, object] = {
        table: {name: data_type or "UNKNOWN" for name, data_type in columns.items()}
        for table, columns in schema.items()
        if columns
    }
    try:
        qualified = qualify(
            tree.tree,  # ours: normal_form made it for one comparison only
            dialect=names(tree.dialect).sqlglot,
            schema=mapping,
            validate_qualify_columns=False,
            quote_identifiers=False,
            identify=False,
        )
        root = build_scope(qualified)
    except (SqlglotError, RecursionError, KeyError, ValueError) as error:
        raise SqlError(f"cannot read its columns: {' '.join(str(error).split())[:200]}") from error
    if root is None:
        raise SqlError("not a query")
    return root
