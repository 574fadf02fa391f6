"""``dbt-lineage impact NODE[.COLUMN]``: what changes downstream, and how.

Also home to what the three graph-query commands share: reading the option values and
rendering a report (finding and loading lineage.json is ``api.locate``'s, shared with the
Python API).
"""

from __future__ import annotations

import click

from dbt_lineage.api.locate import find, load_lineage
from dbt_lineage.api.results import column_descriptions
from dbt_lineage.cli import options
from dbt_lineage.cli.warn import warn
from dbt_lineage.graph.model import LineageGraph
from dbt_lineage.outputs.impact_text import impact_text
from dbt_lineage.queries.impact import ImpactReport
from dbt_lineage.queries.impact import impact as impact_of

include_indirect = click.option(
    "--include-indirect",
    is_flag=True,
    help="Also follow joins, filters and other clauses that decide which rows appear.",
)
depth = click.option(
    "--depth",
    type=click.IntRange(min=1),
    default=None,
    help="Follow at most N edges (default: all).",
)


@click.command()
@click.argument("target", metavar="NODE[.COLUMN]")
@options.project_dir
@options.target_path
@options.lineage_path
@options.no_index
@options.output_format
@include_indirect
@depth
def impact(
    target: str,
    project_dir: str,
    target_path: str | None,
    lineage_file: str | None,
    no_index: bool,
    output_format: str,
    include_indirect: bool,
    depth: int | None,
) -> None:
    """Columns, models and exposures that change if NODE or NODE.COLUMN changes.

    NODE is written as dbt does: orders, shop.orders, model.shop.orders,
    source:ecom.raw_orders, exposure:weekly_revenue.
    """
    loaded = load_lineage(project_dir, target_path, lineage_file, index=not no_index)
    warn(loaded.warnings)
    graph = loaded.graph
    key = find(graph, target, project_dir, target_path)
    report = impact_of(graph, key, include_indirect=include_indirect, depth=depth)
    click.echo(render(report, output_format, graph))


def render(report: ImpactReport, output_format: str, graph: LineageGraph) -> str:
    """The report as text or JSON, with each reached column's description, own or inherited
    (marked as such)."""
    descriptions = column_descriptions(report, graph)
    if output_format == "json":
        from dbt_lineage.outputs.impact_json import impact_json

        return impact_json(report, descriptions=descriptions)
    return impact_text(report, descriptions)
