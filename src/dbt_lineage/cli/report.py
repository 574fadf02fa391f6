"""``dbt-lineage report``: write the single-file HTML report of the project's lineage."""

from __future__ import annotations

import re
import time
from pathlib import Path

import click

from dbt_lineage.api import locate
from dbt_lineage.api.build_lineage import build_lineage
from dbt_lineage.artifacts.manifest_code import load_manifest_code
from dbt_lineage.artifacts.project import load_project
from dbt_lineage.artifacts.run_results import load_run_results
from dbt_lineage.cli import options
from dbt_lineage.cli.open_warehouse import open_warehouse
from dbt_lineage.errors import DbtLineageError
from dbt_lineage.files import describe, is_stream, write_file
from dbt_lineage.graph.io import load_graph
from dbt_lineage.graph.model import LineageGraph
from dbt_lineage.memory import collections_paused, release_memory
from dbt_lineage.outputs.report.project_facts import project_facts
from dbt_lineage.outputs.report.report_html import report_html
from dbt_lineage.outputs.report.run_facts import RunFact, run_facts
from dbt_lineage.outputs.report.subgraph import subgraph
from dbt_lineage.outputs.report.warehouse_runs import warehouse_runs
from dbt_lineage.outputs.warehouse.instance_reader import instance_reader
from dbt_lineage.queries.lookup import lookup
from dbt_lineage.types import ColumnRef


@click.command()
@options.project_dir
@options.target_path
@click.option(
    "--select",
    "-s",
    "select",
    multiple=True,
    help="Show only these nodes and their lineage (upstream and downstream). Names as dbt "
    "writes them; repeat or separate with spaces.",
)
@click.option(
    "--output",
    default=None,
    help="Where to write (default: <target>/lineage.html); - for standard output.",
)
@click.option(
    "--with-runs",
    is_flag=True,
    help="Show each node's last run: from the lineage tables the hook writes, or from "
    "target/run_results.json when the warehouse is not reachable.",
)
@click.option("--title", default=None, help="The page title (default: the project name).")
@options.profiles_dir
@options.target
@options.dbt_vars
def report(
    project_dir: str,
    target_path: str | None,
    select: tuple[str, ...],
    output: str | None,
    with_runs: bool,
    title: str | None,
    profiles_dir: str | None,
    target: str | None,
    cli_vars: str | None,
) -> None:
    """Write one self-contained HTML file: search, column lineage, impact, coverage.

    Reads <target>/lineage.json, building it first (as `dbt-lineage build` does) when it is
    missing or older than the manifest or the catalog. The page opens from disk and sends
    no request.
    """
    started = time.perf_counter()
    target_dir = locate.target_dir(project_dir, target_path)
    if not (target_dir / "manifest.json").is_file():
        load_project(project_dir, target_path)  # raises the usual "no manifest.json" error
    # The command keeps what it makes (the facts, the graph, the page's tables) and makes no
    # cycles: the collector's passes over them freed nothing and cost half the time.
    with collections_paused():
        # Only the SQL and the tests of the manifest: not its columns and configs.
        manifest = load_manifest_code(target_dir / "manifest.json")
        facts = project_facts(manifest)
        checksum = manifest.metadata.sha256
        del manifest
        release_memory()  # the parser's buffers, before the graph is loaded
        graph = _graph(target_dir, checksum, project_dir)
        release_memory()
        names = [part for item in select for part in re.split(r"[\s,]+", item) if part]
        if names:
            graph = subgraph(graph, [_node(graph, name) for name in names])
        runs = (
            _runs(target_dir, graph, project_dir, profiles_dir, target, cli_vars)
            if with_runs
            else None
        )
        page = report_html(graph, project=facts, runs=runs, title=title or "")
    path = output if output else target_dir / "lineage.html"
    content = page.encode("utf-8")
    if not is_stream(path):
        _make_directory(Path(path).parent)
    write_file(path, content)
    click.echo(
        f"Wrote {describe(path)} ({_size(len(content))}, {len(graph.nodes)} nodes) in "
        f"{time.perf_counter() - started:.2f}s",
        err=is_stream(path),  # the page itself may be on standard output
    )


def _make_directory(directory: Path) -> None:
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise DbtLineageError(
            f"cannot create the report's directory ({error.strerror}): pass another --output",
            path=directory,
        ) from error


def _graph(target_dir: Path, checksum: str, project_dir: str) -> LineageGraph:
    """lineage.json, rebuilt as `build` would when missing, unreadable or stale."""
    path = target_dir / "lineage.json"
    graph, why = _current(path, target_dir, checksum)
    if graph is not None:
        return graph
    click.echo(f"Building lineage.json first ({why}).", err=True)
    return build_lineage(project_dir, target_dir).graph


def _current(path: Path, target_dir: Path, checksum: str) -> tuple[LineageGraph | None, str]:
    """The graph at ``path`` when it is up to date, else None and why not."""
    if not path.is_file():
        return None, "it does not exist yet"
    catalog = target_dir / "catalog.json"
    if catalog.is_file() and catalog.stat().st_mtime > path.stat().st_mtime:
        return None, "catalog.json is newer"
    try:
        graph = load_graph(path)
    except DbtLineageError as error:
        return None, error.message
    if graph.metadata.manifest_checksum != checksum:
        return None, "manifest.json changed since"
    return graph, ""


def _node(graph: LineageGraph, name: str) -> str:
    key = lookup(graph, name.strip("+"))
    return key.node_id if isinstance(key, ColumnRef) else key


def _runs(
    target_dir: Path,
    graph: LineageGraph,
    project_dir: str,
    profiles_dir: str | None,
    target: str | None,
    cli_vars: str | None,
) -> dict[str, RunFact]:
    """Run facts from the warehouse; from run_results.json when it cannot be read."""
    try:
        with open_warehouse(
            project_dir, profiles_dir=profiles_dir, target=target, cli_vars=cli_vars
        ) as warehouse:
            return warehouse_runs(instance_reader(warehouse), sorted(graph.nodes))
    except DbtLineageError as error:
        reason = error.one_line()
    results = target_dir / "run_results.json"
    if not results.is_file():
        click.echo(
            f"Warning: no run facts: the warehouse could not be read ({reason}) and there is "
            "no target/run_results.json",
            err=True,
        )
        return {}
    click.echo(
        f"Run facts from target/run_results.json: the warehouse could not be read ({reason})",
        err=True,
    )
    return run_facts(load_run_results(results))


def _size(size: int) -> str:
    return f"{size / 1_000_000:.1f} MB" if size >= 1_000_000 else f"{size / 1000:.0f} kB"
