"""``dbt-lineage coverage``: by folder, layer, resource type or owner, how many columns are
resolved, documented, tested, classified and used; thresholds for CI."""

from __future__ import annotations

import sys

import click

from dbt_lineage.api.locate import load_lineage, target_dir
from dbt_lineage.api.project_coverage import project_coverage
from dbt_lineage.cli import exit_codes, options
from dbt_lineage.cli.warn import warn
from dbt_lineage.outputs.coverage_json import coverage_json
from dbt_lineage.outputs.coverage_markdown import coverage_markdown
from dbt_lineage.outputs.coverage_text import coverage_text
from dbt_lineage.queries.coverage import GROUPINGS

_PERCENT = click.FloatRange(0, 100)


@click.command()
@options.project_dir
@options.target_path
@options.lineage_path
@click.option(
    "--by",
    type=click.Choice(GROUPINGS),
    default="layer",
    show_default=True,
    help="Group relations by the folder of their file, their layer, resource type or owner.",
)
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["text", "json", "markdown"]),
    default="text",
    show_default=True,
)
@click.option(
    "--min-resolved",
    type=_PERCENT,
    default=None,
    metavar="P",
    help="Exit 1 when under P% of model, snapshot and seed columns are resolved.",
)
@click.option(
    "--min-documented",
    type=_PERCENT,
    default=None,
    metavar="P",
    help="Exit 1 when under P% of columns are documented (own or inherited description).",
)
@click.option(
    "--base",
    default=None,
    metavar="TARGET_DIR",
    help="List the columns that lost lineage since these artifacts (a target directory or "
    "a manifest.json, as for `diff --base`).",
)
@click.option(
    "--fail-on-break",
    is_flag=True,
    help="With --base: exit 1 when a column lost lineage since the base.",
)
def coverage(
    project_dir: str,
    target_path: str | None,
    lineage_file: str | None,
    by: str,
    output_format: str,
    min_resolved: float | None,
    min_documented: float | None,
    base: str | None,
    fail_on_break: bool,
) -> None:
    """Per group of relations: columns resolved, documented (own or inherited), tested,
    classified, reaching an exposure; orphan columns; models no exposure uses."""
    if fail_on_break and base is None:
        raise click.UsageError("--fail-on-break needs --base")
    loaded = load_lineage(project_dir, target_path, lineage_file)
    warn(loaded.warnings)
    graph = loaded.graph
    report, thresholds, breaks = project_coverage(
        graph,
        project_dir=project_dir,
        target=target_dir(project_dir, target_path),
        by=by,
        min_resolved=min_resolved,
        min_documented=min_documented,
        base=base,
    )
    render = {"json": coverage_json, "markdown": coverage_markdown}.get(
        output_format, coverage_text
    )
    click.echo(render(report, thresholds, breaks))
    failed = [
        f"--min-{item.figure} {item.minimum:g}: {item.figure} is {item.actual:.1f}%"
        for item in thresholds
        if not item.passed
    ]
    if fail_on_break and breaks:
        failed.append(f"--fail-on-break: {len(breaks)} column(s) lost lineage since the base")
    for message in failed:
        click.secho(f"Error: {message}", fg="red", err=True)
    if failed:
        sys.exit(exit_codes.GATE)
