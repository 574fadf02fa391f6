"""``dbt-lineage build``: resolve the project's column lineage and write lineage.json."""

from __future__ import annotations

import re
import sys
import time
import typing as t
from pathlib import Path

import click

from dbt_lineage.artifacts.names import resolve_name
from dbt_lineage.artifacts.project import load_project
from dbt_lineage.cli import options
from dbt_lineage.graph.build import build_graph
from dbt_lineage.graph.save import save_graph
from dbt_lineage.outputs.build_summary import build_summary
from dbt_lineage.queries.coverage import COUNTED_TYPES, coverage
from dbt_lineage.resolve.cache import CACHE_FILE, LineageCache
from dbt_lineage.resolve.project import resolve_project


@click.command()
@options.project_dir
@options.target_path
@click.option(
    "--select",
    "-s",
    "select",
    multiple=True,
    help="Build only these nodes (and "
    "what they read). Names as dbt writes them; repeat or separate with spaces.",
)
@click.option("--strict", is_flag=True, help="Exit 1 when any column is unresolved.")
@click.option("--no-cache", is_flag=True, help="Resolve every node again.")
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(min=1),
    default=None,
    help="Processes to resolve with (default: one per core).",
)
@click.option("--output", default=None, help="Where to write (default: <target>/lineage.json).")
def build(
    project_dir: str,
    target_path: str | None,
    select: tuple[str, ...],
    strict: bool,
    no_cache: bool,
    jobs: int | None,
    output: str | None,
) -> None:
    """Resolve column lineage from target/manifest.json (and catalog.json) into lineage.json."""
    started = time.perf_counter()
    artifacts = load_project(project_dir, target_path)
    relations = artifacts.manifest.relation_nodes()
    selected = _selected(select, relations) if select else None
    cache = LineageCache(artifacts.target_path / CACHE_FILE, read=not no_cache)
    with _progress(len(relations)) as progress:
        lineage = resolve_project(
            artifacts,
            project_dir=project_dir,
            select=selected,
            cache=cache,
            progress=progress,
            jobs=jobs,
        )
    graph = build_graph(artifacts, lineage)
    path = Path(output) if output else artifacts.target_path / "lineage.json"
    save_graph(graph, path)
    seconds = time.perf_counter() - started
    report = coverage(graph)
    click.echo(
        build_summary(
            graph,
            path=path,
            seconds=seconds,
            resolved=lineage.resolved_count,
            cached=lineage.cached_count,
            report=report,
        )
    )
    sql_nodes = [n for n in graph.nodes.values() if n.type in COUNTED_TYPES]
    if sql_nodes and report.columns_total and not report.columns_resolved:
        click.secho(
            "Error: no column could be resolved; see the diagnostics above", fg="red", err=True
        )
        sys.exit(2)
    if strict and report.columns_resolved < report.columns_total:
        click.secho(
            f"Error: --strict: {report.columns_total - report.columns_resolved} "
            "column(s) unresolved",
            fg="red",
            err=True,
        )
        sys.exit(1)


def _selected(select: tuple[str, ...], relations: dict[str, t.Any]) -> list[str]:
    names = [part for item in select for part in re.split(r"[\s,]+", item) if part]
    candidates = [node.named for node in relations.values()]
    return [resolve_name(name.strip("+"), candidates) for name in names]


class _progress:  # noqa: N801 - used as a context manager, reads like a function
    """A progress bar on a terminal; nothing when output is piped."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.bar: t.Any = None

    def __enter__(self) -> t.Callable[[int, int], None] | None:
        if not sys.stderr.isatty():
            return None
        self.bar = click.progressbar(length=self.total, label="Resolving", file=sys.stderr)
        self.bar.__enter__()
        return self._update

    def _update(self, done: int, total: int) -> None:
        self.bar.length = total
        self.bar.update(done - self.bar.pos)

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.__exit__(*exc)
