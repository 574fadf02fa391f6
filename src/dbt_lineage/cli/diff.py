"""``dbt-lineage diff --base BASE --head HEAD``: the pre-merge impact of a pull request."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import click

from dbt_lineage.artifacts.names import resolve_name
from dbt_lineage.cli import exit_codes, options
from dbt_lineage.cli.side_lineage import Side, side_lineage
from dbt_lineage.errors import DbtLineageError, SelectionError
from dbt_lineage.files import write_file
from dbt_lineage.memory import fewer_collections
from dbt_lineage.queries.diff import VERDICTS
from dbt_lineage.queries.diff import diff as diff_of
from dbt_lineage.queries.diff_side import diff_side
from dbt_lineage.resolve.cache import CACHE_FILE, LineageCache

FORMATS = ("text", "json", "markdown", "html")


@click.command()
@click.option(
    "--base",
    required=True,
    help="The base side: a dbt target directory, or a manifest.json alone (production's).",
)
@click.option("--head", required=True, help="The head side (the pull request): a target dir.")
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
    help="Write here instead of standard output (html: default <head>/lineage-diff.html).",
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
@click.option("--no-cache", is_flag=True, help="Resolve both sides again.")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None, help="Processes.")
def diff(
    base: str,
    head: str,
    output_format: str,
    output: str | None,
    fail_on: str | None,
    select: tuple[str, ...],
    project_dir: str,
    no_cache: bool,
    jobs: int | None,
) -> None:
    """Compare the artifacts of the base branch and of a pull request at column precision:
    what changed, what it impacts down to exposures, what it breaks, and a verdict."""
    head_dir = Path(head)
    if not head_dir.is_dir():
        raise DbtLineageError(
            "--head: not a directory: give the pull request's dbt target directory",
            path=head_dir,
        )
    cache = LineageCache(head_dir / CACHE_FILE, read=not no_cache)
    with fewer_collections():
        before = side_lineage(
            base, option="--base", project_dir=project_dir, cache=cache, jobs=jobs
        )
        after = side_lineage(head, option="--head", project_dir=project_dir, cache=cache, jobs=jobs)
        for option, side in (("--base", before), ("--head", after)):
            if side.built:
                click.echo(
                    f"Lineage of {option} built: {side.resolved} node(s) resolved, "
                    f"{side.cached} from cache",
                    err=True,
                )
        only = _selected(select, before, after) if select else None
        document = diff_of(
            diff_side(before.graph, before.manifest),
            diff_side(after.graph, after.manifest),
            only=only,
        )
        text = _render(document, output_format, before, after)
    if output_format == "html" and output is None:
        output = str(head_dir / "lineage-diff.html")
    if output is None:
        click.echo(text, nl=not text.endswith("\n"))
    else:
        write_file(output, text.encode("utf-8"))
        click.echo(f"Wrote {output} (verdict: {document['verdict']})", err=True)
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


def _selected(select: tuple[str, ...], before: Side, after: Side) -> set[str]:
    """Node ids the names name, on either side (a removed node is named on the base)."""
    names = [part for item in select for part in re.split(r"[\s,]+", item) if part]
    found: set[str] = set()
    for name in names:
        error: SelectionError | None = None
        for side in (after, before):
            candidates = [node.named for node in side.manifest.relation_nodes().values()]
            try:
                found.add(resolve_name(name.strip("+"), candidates))
                break
            except SelectionError as missing:
                error = error or missing
        else:
            assert error is not None
            raise error
    return found
