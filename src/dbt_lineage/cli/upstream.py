"""``dbt-lineage upstream NODE.COLUMN``: the columns it derives from, by distance and kind."""

from __future__ import annotations

import click

from dbt_lineage.cli import options
from dbt_lineage.cli.impact import column_target, depth, include_indirect, load_lineage, render
from dbt_lineage.queries.impact import DIRECT_KINDS, INDIRECT_KINDS
from dbt_lineage.queries.upstream import upstream as upstream_of


@click.command()
@click.argument("column", metavar="NODE.COLUMN")
@options.project_dir
@options.target_path
@options.lineage_path
@options.output_format
@include_indirect
@depth
@click.option(
    "--kind",
    "kinds",
    multiple=True,
    type=click.Choice(DIRECT_KINDS + INDIRECT_KINDS),
    help="Follow only edges of this kind (repeat for several; default: all direct kinds).",
)
def upstream(
    column: str,
    project_dir: str,
    target_path: str | None,
    lineage_file: str | None,
    output_format: str,
    include_indirect: bool,
    depth: int | None,
    kinds: tuple[str, ...],
) -> None:
    """Columns NODE.COLUMN derives from, back to sources, by distance and kind."""
    graph = load_lineage(project_dir, target_path, lineage_file)
    report = upstream_of(
        graph,
        column_target(graph, column),
        depth=depth,
        kinds=kinds or None,
        include_indirect=include_indirect,
    )
    click.echo(render(report, output_format))
