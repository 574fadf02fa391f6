"""``dbt-lineage upstream NODE.COLUMN``: the columns it derives from, by distance and kind."""

from __future__ import annotations

from dbt_lineage.cli.column_walk import column_walk
from dbt_lineage.queries.upstream import upstream as upstream_of

upstream = column_walk(
    "upstream",
    upstream_of,
    "Columns NODE.COLUMN derives from, back to sources, by distance and kind.",
    rows=True,
)
