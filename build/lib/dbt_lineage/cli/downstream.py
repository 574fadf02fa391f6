"""``dbt-lineage downstream NODE.COLUMN``: the columns, models and exposures it feeds."""

from __future__ import annotations

from dbt_lineage.cli.column_walk import column_walk
from dbt_lineage.queries.downstream import downstream as downstream_of

downstream = column_walk(
    "downstream",
    downstream_of,
    "Columns derived from NODE.COLUMN, with their models and exposures, by distance and kind.",
    rows=False,
)
