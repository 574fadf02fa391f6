"""Where the columns a query does not list come from, when its top-level stars pass through
sources whose columns are unknown.

A reader may ask a query for a column its SQL never names: ``select * from orders`` over
``orders`` of unknown columns. The project then gives the query that column, from the
sources its stars pass it through, once every reader is known
(``resolve/inferred_columns.py``). Which sources those are is the engine's own rule for any
name it cannot find in a list: the walk resolves a name no source can list (``_ANY``), and
its answer is the rule. Through a UNION's branches the column comes from every branch's
source; through a join of two such sources it could come from either, and is
``ambiguous_star``: the same answer a named column gets from ``column_lineage``.
"""

from __future__ import annotations

import typing as t

from sqlglot import exp
from sqlglot.optimizer.scope import Scope

from dbt_lineage.sql.edges import IDENTITY, Parts
from dbt_lineage.sql.scope_walk import Walker
from dbt_lineage.sql.walk_base import Star

_ANY = "\x00any column"
"""A name no SQL identifier or schema lists: asked of a query, it passes through its stars
as any unlisted name would."""


class StarSources(t.NamedTuple):
    """The tables a query's top-level stars reach, and those an unlisted column comes from.

    ``through`` is empty when the stars reach no table or the column could come from
    several alternatives (``problem`` says why).
    """

    reached: list[Parts]
    through: list[Parts]
    problem: str = ""


def star_sources(walker: Walker, root: Scope) -> StarSources:
    """Module entry: where an unlisted column of ``root`` comes from.

    >>> import sqlglot
    >>> from sqlglot.optimizer.scope import build_scope
    >>> from dbt_lineage.sql.schema_index import schema_index
    >>> from dbt_lineage.sql.scope_walk import scope_walk
    >>> def sources(sql):
    ...     root = build_scope(sqlglot.parse_one(sql))
    ...     return star_sources(scope_walk(root, schema_index({}, "duckdb", (), ())), root)
    >>> sources("select * from a union all select * from b").through
    [('a',), ('b',)]
    >>> found = sources("select * from a join b on a.k = b.k")
    >>> found.reached, found.through
    ([('b',), ('a',)], [])
    """
    reached = _reached(walker, root)
    if not reached:
        return StarSources([], [])
    edges = walker.resolve_output(root, _ANY)
    for columns in walker.inferred.values():
        columns.pop(_ANY, None)
    if edges.problems:
        return StarSources(reached, [], edges.problems[0].replace(_ANY, "*"))
    through = [
        parts
        for (parts, column), (rank, _) in edges.direct.items()
        if column == _ANY and rank == IDENTITY
    ]
    return StarSources(reached, through)


def _reached(walker: Walker, root: Scope) -> list[Parts]:
    """The tables whose unknown columns the root's stars pass through, unchanged."""
    found: dict[Parts, None] = {}
    pending: list[Star] = []
    for branch in walker.value_branches(root):
        if isinstance(branch.expression, exp.Select):
            pending.extend(walker.shape(branch).stars)
    seen: set[int] = set()
    while pending:
        star = pending.pop()
        source = star.source
        if id(source) in seen:
            continue
        seen.add(id(source))
        if isinstance(source, Scope):
            if source.is_udtf:
                continue
            for branch in walker.value_branches(source):
                if isinstance(branch.expression, exp.Select):
                    pending.extend(walker.shape(branch).stars)
        elif isinstance(source.this, exp.Identifier):
            found[walker.table_info(source)[0]] = None
    return list(found)
