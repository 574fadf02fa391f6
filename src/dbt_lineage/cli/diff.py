"""``dbt-lineage diff --base BASE --head HEAD``: the pre-merge impact of a pull request."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from dbt_lineage.api.compare_sides import compare_sides
from dbt_lineage.api.locate import target_dir
from dbt_lineage.api.side_lineage import Side
from dbt_lineage.cli import exit_codes, options
from dbt_lineage.files import describe, write_file
from dbt_lineage.memory import fewer_collections
from dbt_lineage.queries.diff import VERDICTS

FORMATS = ("text", "json", "markdown", "html")


@click.command()
@click.option(
    "--base",
    required=True,
    help="The base side: a dbt target directory, or a manifest.json alone (production's).",
)
@click.option(
    "--head",
    default=None,
    help="The head side (the pull request): a target dir (default: --target-path).",
)
@click.option(
    "--format",
    "output_format",
    type=click.Choice(FORMATS),
    default="text",
    show_default=True,
)
@click.option(
    "--output",
    default=None,
    help="Write here instead of standard output (html: default <head>/lineage-diff.html; "
    "- for standard output).",
)
@click.option(
    "--fail-on",
    type=click.Choice(("block", "review", "unknown")),
    default=None,
    help="Exit 1 when the verdict is this or worse (info < review < unknown < block).",
)
@click.option(
    "--select",
    "-s",
    "select",
    multiple=True,
    help="Compare only these nodes (names as dbt writes them; repeat or separate with spaces).",
)
@options.project_dir
@options.target_path
@click.option("--no-cache", is_flag=True, help="Resolve both sides again.")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None, help="Processes.")
def diff(
    base: str,
    head: str | None,
    output_format: str,
    output: str | None,
    fail_on: str | None,
    select: tuple[str, ...],
    project_dir: str,
    target_path: str | None,
    no_cache: bool,
    jobs: int | None,
) -> None:
    """Compare the artifacts of the base branch and of a pull request at column precision:
    what changed, what it impacts down to exposures, what it breaks, and a verdict."""
    if head is None:
        head = str(target_dir(project_dir, target_path))
    with fewer_collections():
        compared = compare_sides(
            base, head, project_dir=project_dir, select=select, no_cache=no_cache, jobs=jobs
        )
        for option, side in (("--base", compared.before), ("--head", compared.after)):
            if side.built:
                click.echo(
                    f"Lineage of {option} built: {side.resolved} node(s) resolved, "
                    f"{side.cached} from cache",
                    err=True,
                )
        for note in compared.notes:
            click.echo(note, err=True)
        document = compared.document
        text = _render(document, output_format, compared.before, compared.after)
    if output_format == "html" and output is None:
        output = str(Path(head) / "lineage-diff.html")
    if output is None:
        click.echo(text, nl=not text.endswith("\n"))
    else:
        write_file(output, text.encode("utf-8"))
        click.echo(f"Wrote {describe(output)} (verdict: {document['verdict']})", err=True)
    if fail_on is not None and VERDICTS.index(document["verdict"]) >= VERDICTS.index(fail_on):
        sys.exit(exit_codes.GATE)


def _render(document: dict, output_format: str, before: Side, after: Side) -> str:
    if output_format == "json":
        from dbt_lineage.outputs.diff_json import diff_json

        return diff_json(document)
    if output_format == "markdown":
        from dbt_lineage.outputs.diff_markdown import diff_markdown

        return diff_markdown(document, graph=after.graph, base_graph=before.graph)
    if output_format == "html":
        from dbt_lineage.outputs.report.project_facts import project_facts
        from dbt_lineage.outputs.report.report_html import report_html

        base_sql = project_facts(before.manifest).sql
        return report_html(
            after.graph, project=project_facts(after.manifest), diff=document, base_sql=base_sql
        )
    from dbt_lineage.outputs.diff_text import diff_text

    return diff_text(document)
