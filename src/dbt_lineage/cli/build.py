"""``dbt-lineage build``: resolve the project's column lineage and write lineage.json.

The resolution itself is ``build_lineage`` (imported when a build has work to do: a build
whose inputs have not changed starts and answers without loading the resolver).
"""

from __future__ import annotations

import json
import sys
import time
import typing as t
from pathlib import Path

import click

from dbt_lineage.cli import exit_codes, options
from dbt_lineage.cli.build_inputs import build_inputs, dumps, seed_files, unchanged
from dbt_lineage.graph.index_meta import index_meta
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
    started = time.perf_counter()
    lineage_path = Path(output) if output else _target(project_dir, target_path) / "lineage.json"
    inputs = None
    if not select:
        target = _target(project_dir, target_path)
        inputs = build_inputs(
            target, jobs=jobs, node_timeout=node_timeout or None, manifest=not no_cache
        )
        if not no_cache and _keep(lineage_path, inputs, Path(project_dir), started, strict):
            return
    from dbt_lineage.cli.build_lineage import build_lineage
    from dbt_lineage.outputs.build_summary import build_summary
    from dbt_lineage.queries.coverage import COUNTED_TYPES, coverage

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
    summary = build_summary(
        graph,
        path=built.path,
        seconds=built.seconds,
        resolved=built.lineage.resolved_count,
        cached=built.lineage.cached_count,
        report=report,
        warnings=[*built.warnings, *built.lineage.warnings],
    )
    click.echo(summary)
    outcome = {
        "summary": summary.rpartition("\n")[0],
        "nodes": built.lineage.resolved_count + built.lineage.cached_count,
        "sql_nodes": any(n.type in COUNTED_TYPES for n in graph.nodes.values()),
        "columns": report.columns_total,
        "resolved": report.columns_resolved,
    }
    if inputs is not None:
        inputs["manifest"] = graph.metadata.manifest_checksum  # of the bytes this build read
        inputs["seeds"] = seed_files(graph, Path(project_dir))
        index_meta(built.path, update={"inputs": dumps(inputs), "outcome": json.dumps(outcome)})
    _exit(outcome, strict)


def _keep(
    lineage_path: Path, inputs: dict[str, t.Any], project_dir: Path, started: float, strict: bool
) -> bool:
    """Print the last build's summary and exit as it did, when lineage.json and its index
    are what that build wrote and its inputs have not changed; False otherwise."""
    meta = index_meta(lineage_path)
    if meta is None or "inputs" not in meta or "outcome" not in meta:
        return False
    try:
        recorded, outcome = json.loads(meta["inputs"]), json.loads(meta["outcome"])
    except ValueError:
        return False
    if not unchanged(recorded, inputs, project_dir):
        return False
    seconds = time.perf_counter() - started
    click.echo(outcome["summary"])
    click.echo(
        f"Kept {lineage_path}: manifest, catalog and dbt-lineage unchanged since it was written "
        f"({seconds:.2f}s; 0 node(s) resolved, {outcome['nodes']} from cache)"
    )
    _exit(outcome, strict)
    return True


def _exit(outcome: dict[str, t.Any], strict: bool) -> None:
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


def _target(project_dir: str, target_path: str | None) -> Path:
    target = Path(target_path) if target_path is not None else Path("target")
    return target if target.is_absolute() else Path(project_dir) / target


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
