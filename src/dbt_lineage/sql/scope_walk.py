"""Resolve every output column of a query in one memoised pass over its scopes.

A column of a scope resolves to base-table columns by following its projection's column
references into the sources they name (tables, CTEs, derived tables, table functions),
composing kinds on the way; the clauses that decide a scope's rows (joins, filters, group
by, distinct, sort with limit) resolve the same way into indirect edges. Every result is
memoised per (scope, column), so a CTE used by many outputs is walked once. The walk is
assembled from its parts (:mod:`dbt_lineage.sql.walk_base` says which part does what).
"""

from __future__ import annotations

from sqlglot.optimizer.scope import Scope

from dbt_lineage.sql.schema_index import SchemaIndex
from dbt_lineage.sql.scope_outputs import ScopeOutputs


class Walker(ScopeOutputs):
    """Memoised resolution over the scopes of one query."""


def scope_walk(root: Scope, index: SchemaIndex) -> Walker:
    """A :class:`Walker` over ``root``; call ``resolve_output``/``scope_rows`` on it."""
    return Walker(root, index)
