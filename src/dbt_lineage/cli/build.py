"""``dbt-lineage build``: resolve the project's column lineage and write lineage.json.

``build_lineage`` is the whole job without the printing, for the commands that need a
fresh lineage.json first (``report``, ``diff``).
"""

from __future__ import annotations

import dataclasses
import re
import sys
import time
import typing as t
from pathlib import Path

import click

from dbt_lineage.artifacts.names import resolve_name
from dbt_lineage.artifacts.project import load_project
from dbt_lineage.cli import options
from dbt_lineage.errors import DbtLineageError
from dbt_lineage.graph.build import build_graph
from dbt_lineage.graph.io import load_graph
from dbt_lineage.graph.merge import merge
from dbt_lineage.graph.model import LineageGraph
from dbt_lineage.graph.save import save_graph
from dbt_lineage.graph.save_index import save_index
from dbt_lineage.memory import fewer_collections
from dbt_lineage.outputs.build_summary import build_summary
from dbt_lineage.queries.coverage import COUNTED_TYPES, coverage
from dbt_lineage.resolve.cache import CACHE_FILE, LineageCache
from dbt_lineage.resolve.project import DEFAULT_NODE_TIMEOUT, ProjectLineage, resolve_project


@dataclasses.dataclass
class Built:
    """What a build made: the graph written, where, and the resolution behind it."""

    graph: LineageGraph
    path: Path
    lineage: ProjectLineage
    seconds: float
    warnings: tuple[str, ...] = ()
    """About the artifacts (a catalog of another project, a partial manifest...)."""


def build_lineage(
    project_dir: str | Path,
    target_path: str | Path | None = None,
    *,
    select: t.Sequence[str] = (),
    no_cache: bool = False,
    jobs: int | None = None,
    node_timeout: float | None = DEFAULT_NODE_TIMEOUT,
    output: str | Path | None = None,
    progress: t.Callable[[int, int], None] | None = None,
) -> Built:
    """Resolve the project's lineage and write it.

    A full build writes ``<target>/lineage.json`` (or ``output``). A selected build
    resolves the selected nodes (and what they read) and puts them into the existing
    ``lineage.json``, leaving every other node as the last build left it; with ``output``
    it writes only what it resolved there. The cache forgets stale entries only on full
    builds.

    Raises:
        DbtLineageError: no manifest, an unsupported artifact, a name that is no node.
    """
    started = time.perf_counter()
    with fewer_collections():
        artifacts = load_project(project_dir, target_path)
        relations = artifacts.manifest.relation_nodes()
        selected = _selected(select, relations) if select else None
        lineage = resolve_project(
            artifacts,
            project_dir=project_dir,
            select=selected,
            cache=LineageCache(artifacts.target_path / CACHE_FILE, read=not no_cache),
            progress=progress,
            jobs=jobs,
            node_timeout=node_timeout,
        )
        graph = build_graph(artifacts, lineage)
        lineage.nodes.clear()  # the graph holds it all now: keep one copy in memory
        default = artifacts.target_path / "lineage.json"
        path = Path(output) if output else default
        if selected is not None:
            graph = _into_earlier(graph, path if output is None else None)
        save_graph(graph, path)
        save_index(graph, path)
    seconds = time.perf_counter() - started
    return Built(graph, path, lineage, seconds, artifacts.warnings)


def _into_earlier(graph: LineageGraph, earlier: Path | None) -> LineageGraph:
    """A selected build's graph put into the earlier full graph at ``earlier``, if any."""
    if earlier is None or not earlier.is_file():
        return graph
    try:
        return merge(load_graph(earlier), graph)
    except DbtLineageError:
        return graph  # an unreadable earlier graph: the selected nodes are all there is


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
    help="Processes to resolve with (default: one per core; 1: in this process).",
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
        built = build_lineage(
            project_dir,
            target_path,
            select=select,
            no_cache=no_cache,
            jobs=jobs,
            node_timeout=node_timeout or None,
            output=output,
            progress=progress,
        )
    if (ctx.find_root().obj or {}).get("debug"):
        for node_id, text in built.lineage.tracebacks.items():
            click.echo(f"Traceback of the internal error in {node_id}:\n{text}", err=True)
    graph = built.graph
    report = coverage(graph)
    click.echo(
        build_summary(
            graph,
            path=built.path,
            seconds=built.seconds,
            resolved=built.lineage.resolved_count,
            cached=built.lineage.cached_count,
            report=report,
            warnings=[*built.warnings, *built.lineage.warnings],
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


def _selected(select: t.Sequence[str], relations: dict[str, t.Any]) -> list[str]:
    names = [part for item in select for part in re.split(r"[\s,]+", item) if part]
    candidates = [node.named for node in relations.values()]
    return [resolve_name(name.strip("+"), candidates) for name in names]


class _progress:  # noqa: N801 - used as a context manager, reads like a function
    """A progress bar on a terminal; nothing when output is piped."""

    def __init__(self) -> None:
        self.bar: t.Any = None

    def __enter__(self) -> t.Callable[[int, int], None] | None:
        if not sys.stderr.isatty():
            return None
        self.bar = click.progressbar(length=1, label="Resolving", file=sys.stderr)
        self.bar.__enter__()
        return self._update

    def _update(self, done: int, total: int) -> None:
        self.bar.length = total
        self.bar.update(done - self.bar.pos)

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.__exit__(*exc)
