"""``dbt-lineage build``: resolve the project's column lineage and write lineage.json.

The build itself is ``api.build_project`` (shared with ``dbt_lineage.build``); it imports
the resolver only when a build has work to do: a build whose inputs have not changed starts
and answers without loading it.
"""

from __future__ import annotations

import sys
import typing as t

import click

from dbt_lineage.api.build_project import build_project
from dbt_lineage.cli import exit_codes, options
from dbt_lineage.types import DEFAULT_NODE_TIMEOUT


@click.command()
@options.project_dir
@options.target_path
@click.option(
    "--select",
    "-s",
    "select",
    multiple=True,
    help="Build only these nodes (and what they read) into the existing lineage.json. Names "
    "as dbt writes them; repeat or separate with spaces.",
)
@click.option("--strict", is_flag=True, help="Exit 1 when any column is unresolved.")
@click.option("--no-cache", is_flag=True, help="Resolve every node again.")
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(min=1),
    default=None,
    help="Worker processes to resolve with (default: one per core).",
)
@click.option(
    "--node-timeout",
    type=click.FloatRange(min=0),
    default=DEFAULT_NODE_TIMEOUT,
    show_default=True,
    help="Seconds one model may take to resolve before it is reported as a timeout (0: none).",
)
@click.option("--output", default=None, help="Where to write (default: <target>/lineage.json).")
@click.pass_context
def build(
    ctx: click.Context,
    project_dir: str,
    target_path: str | None,
    select: tuple[str, ...],
    strict: bool,
    no_cache: bool,
    jobs: int | None,
    node_timeout: float,
    output: str | None,
) -> None:
    """Resolve column lineage from target/manifest.json (and catalog.json) into lineage.json."""
    with _progress() as progress:
        built = build_project(
            project_dir,
            target_path,
            select=select,
            no_cache=no_cache,
            jobs=jobs,
            node_timeout=node_timeout,
            output=output,
            progress=progress,
        )
    if (ctx.find_root().obj or {}).get("debug"):
        for node_id, text in built.tracebacks.items():
            click.echo(f"Traceback of the internal error in {node_id}:\n{text}", err=True)
    click.echo(built.summary, err=built.stream)  # the document itself may be on stdout
    if built.kept is not None:
        click.echo(built.kept)
    _exit(built.counts, strict)


def _exit(outcome: t.Mapping[str, t.Any], strict: bool) -> None:
    """Exit 2 when no column resolved, 1 under ``--strict`` when any is unresolved."""
    if outcome["sql_nodes"] and outcome["columns"] and not outcome["resolved"]:
        click.secho(
            "Error: no column could be resolved; see the diagnostics above", fg="red", err=True
        )
        sys.exit(2)
    if strict and outcome["resolved"] < outcome["columns"]:
        click.secho(
            f"Error: --strict: {outcome['columns'] - outcome['resolved']} column(s) unresolved",
            fg="red",
            err=True,
        )
        sys.exit(exit_codes.GATE)


class _progress:  # noqa: N801 - used as a context manager, reads like a function
    """A progress bar on a terminal, shown from the first node resolved (a kept build shows
    none); nothing when output is piped."""

    def __init__(self) -> None:
        self.bar: t.Any = None

    def __enter__(self) -> t.Callable[[int, int], None] | None:
        if not sys.stderr.isatty():
            return None
        return self._update

    def _update(self, done: int, total: int) -> None:
        if self.bar is None:
            self.bar = click.progressbar(length=1, label="Resolving", file=sys.stderr)
            self.bar.__enter__()
        self.bar.length = total
        self.bar.update(done - self.bar.pos)

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.__exit__(*exc)
