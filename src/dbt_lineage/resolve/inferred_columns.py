"""Columns known only from how SQL reads them, added where they belong once every node ran.

Walking from the last readers back to the sources:

- a model whose ``SELECT *`` passes through relations of unknown columns gets every column
  its readers read (or its YAML declares) that it does not list, as an identity copy of the
  column of each relation it comes from (one, or every branch of a UNION: the engine's own
  rule, ``sql/star_sources.py``), and the demand moves on to those relations; where it could
  come from any one of several (a join), the column is ``ambiguous_star``, never guessed;
- a source or seed gets every column its readers read that nothing declared;
- a column read from a relation whose catalog entry lacks it means the catalog is older
  than the SQL: one warning says so.

Every column added here is marked ``inferred``.
"""

from __future__ import annotations

import collections

from dbt_lineage.artifacts.manifest import ManifestNode
from dbt_lineage.resolve.declared_columns import DeclaredColumns
from dbt_lineage.resolve.inputs import SQL_TYPES
from dbt_lineage.resolve.node_lineage import ColumnLineage, NodeLineage, UpstreamEdge
from dbt_lineage.types import ColumnRef, EdgeKind, UnresolvedReason


def inferred_columns(
    results: dict[str, NodeLineage],
    relations: dict[str, ManifestNode],
    declared: dict[str, DeclaredColumns | None],
    order: list[str],
) -> list[str]:
    """Module entry: add inferred columns to ``results``; return the warnings to show."""
    demands: dict[str, dict[str, None]] = collections.defaultdict(dict)
    for result in results.values():
        for node_id, columns in result.inferred.items():
            demands[node_id].update(dict.fromkeys(columns))
    stale: list[ColumnRef] = []
    for node_id in reversed(order):
        result = results.get(node_id)
        if result is None:
            continue
        own = declared.get(node_id)
        wanted = list(demands.get(node_id, {}))
        is_sql = relations[node_id].resource_type in SQL_TYPES
        if own is not None and own.origin == "catalog":
            # A model's own SQL says what it has now; a source's, what its readers read.
            listed = {name.casefold() for name in own.columns}
            names = list(result.columns) if is_sql else wanted
            stale += [ColumnRef(node_id, n) for n in names if n.casefold() not in listed]
        if is_sql:
            if result.star_sources:
                yaml = list(own.columns) if own is not None and own.origin == "yaml" else []
                _through_star(result, wanted + yaml, demands)
        else:
            _root_columns(result, wanted)
    if not stale:
        return []
    example = ", ".join(f"{ref.node_id}.{ref.column}" for ref in stale[:3])
    return [
        f"catalog.json lacks {len(stale)} column(s) that the SQL reads (e.g. {example}): it "
        "looks older than the project; those columns are inferred from the SQL. Rerun "
        "`dbt docs generate` to refresh it."
    ]


def _through_star(
    result: NodeLineage, wanted: list[str], demands: dict[str, dict[str, None]]
) -> None:
    folded = {name.casefold() for name in result.columns}
    sources = result.star_sources
    for name in wanted:
        if name.casefold() in folded:
            continue
        folded.add(name.casefold())
        if result.star_through:
            upstreams = [
                UpstreamEdge(ColumnRef(node_id, name), EdgeKind.IDENTITY, "*")
                for node_id in result.star_through
            ]
            result.columns[name] = ColumnLineage(name, "", upstreams, inferred=True)
            for node_id in result.star_through:
                demands[node_id][name] = None
        else:
            reason = (
                f"{UnresolvedReason.AMBIGUOUS_STAR.value}: column {name} could come from "
                f"{', '.join(sources)}"
            )
            result.columns[name] = ColumnLineage(name, "", [], reason, inferred=True)


def _root_columns(result: NodeLineage, wanted: list[str]) -> None:
    folded = {name.casefold() for name in result.columns}
    for name in wanted:
        if name.casefold() not in folded:
            folded.add(name.casefold())
            result.columns[name] = ColumnLineage(name, "", inferred=True)
            result.columns_from = result.columns_from or "inferred"
