"""What ``upstream`` and ``downstream`` share: one command shape over a column walk."""

from __future__ import annotations

import typing as t

import click

from dbt_lineage.api.locate import column_target, load_lineage
from dbt_lineage.cli import options
from dbt_lineage.cli.impact import depth, render
from dbt_lineage.cli.warn import warn
from dbt_lineage.queries.impact import DIRECT_KINDS, INDIRECT_KINDS

NAMES = """

NODE is written as dbt does: orders, shop.orders, model.shop.orders,
source:ecom.raw_orders (or ecom.raw_orders), exposure:weekly_revenue; COLUMN after the
last dot (stg_orders.amount, source:ecom.raw_orders.amount), matched exactly, else
case-insensitively."""
"""How node and column names are written, for each command's help."""


def column_walk(name: str, walk: t.Callable[..., t.Any], doc: str, *, rows: bool) -> click.Command:
    """A ``dbt-lineage <name> NODE.COLUMN`` command that renders ``walk``'s report.

    ``rows`` is whether row-set edges (joins, filters... of whole relations) are followed
    unless the user says otherwise.
    """

    @click.command(name=name, help=doc + NAMES)
    @click.argument("column", metavar="NODE.COLUMN")
    @options.project_dir
    @options.target_path
    @options.lineage_path
    @options.no_index
    @options.output_format
    @click.option(
        "--include-indirect/--direct-only",
        default=rows,
        show_default=True,
        help="Also follow joins, filters and other clauses that decide which rows appear.",
    )
    @depth
    @click.option(
        "--kind",
        "kinds",
        multiple=True,
        type=click.Choice(DIRECT_KINDS + INDIRECT_KINDS),
        help="Follow only edges of this kind (repeat for several; default: every kind).",
    )
    def command(
        column: str,
        project_dir: str,
        target_path: str | None,
        lineage_file: str | None,
        no_index: bool,
        output_format: str,
        include_indirect: bool,
        depth: int | None,
        kinds: tuple[str, ...],
    ) -> None:
        loaded = load_lineage(project_dir, target_path, lineage_file, index=not no_index)
        warn(loaded.warnings)
        graph = loaded.graph
        report = walk(
            graph,
            column_target(graph, column, project_dir, target_path),
            depth=depth,
            kinds=kinds or None,
            include_indirect=include_indirect,
        )
        click.echo(render(report, output_format, graph))

    return command
