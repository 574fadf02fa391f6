"""``dbt-lineage publish``: write lineage.json's edges to the warehouse, per manifest version."""

from __future__ import annotations

from pathlib import Path

import click

from dbt_lineage.api import locate
from dbt_lineage.api.stale import stale
from dbt_lineage.artifacts.manifest import load_manifest
from dbt_lineage.cli import options
from dbt_lineage.cli.open_warehouse import open_warehouse
from dbt_lineage.cli.warn import warn
from dbt_lineage.errors import DbtLineageError
from dbt_lineage.graph.io import load_graph
from dbt_lineage.outputs.warehouse import publish as writer
from dbt_lineage.outputs.warehouse.edge_rows import EdgeRow, edge_rows
from dbt_lineage.types import UnresolvedReason


@click.command()
@options.project_dir
@options.profiles_dir
@options.target
@options.dbt_vars
@options.target_path
@options.lineage_path
@click.option(
    "--force",
    is_flag=True,
    help="Publish even a lineage.json that lost lineage for lack of compiled SQL.",
)
def publish(
    project_dir: str,
    profiles_dir: str | None,
    target: str | None,
    cli_vars: str | None,
    target_path: str | None,
    lineage_file: str | None,
    force: bool,
) -> None:
    """Write lineage.json's edges to lineage_column_edges in the lineage schema.

    Goes through dbt's own profile and adapter. Rows are versioned by manifest checksum:
    publishing the same manifest again replaces its rows. With no lineage.json yet, the
    manifest's model-level edges (depends_on) are published instead. A lineage.json in
    which models lost their lineage for lack of compiled SQL (the manifest of a `dbt test`
    or of a selected command) is refused unless --force is given: it would become the
    newest published version.
    """
    target_dir = locate.target_dir(project_dir, target_path)
    path = Path(lineage_file) if lineage_file else target_dir / "lineage.json"
    rows, checksum, origin, project = _edges(
        path, target_dir, explicit=lineage_file is not None, force=force
    )
    with open_warehouse(
        project_dir, profiles_dir=profiles_dir, target=target, cli_vars=cli_vars
    ) as warehouse:
        result = writer.publish(
            warehouse, rows, manifest_checksum=checksum, origin=origin, project=project
        )
    click.echo(
        f"Published {result.rows} edges from {origin} (manifest {checksum[:12]}) to "
        f"{result.table} in {result.statements} statement(s)."
    )


def _edges(
    path: Path, target_dir: Path, *, explicit: bool, force: bool
) -> tuple[list[EdgeRow], str, str, str | None]:
    """The rows, their manifest checksum, their origin and the project name."""
    if path.is_file() or explicit:
        graph = load_graph(path)
        if not explicit:
            warn([stale(path, target_dir / "manifest.json", graph.metadata.manifest_checksum)])
        lost = sorted(
            {d.node_id for d in graph.diagnostics if d.reason == UnresolvedReason.NO_COMPILED_SQL}
        )
        if lost and not force:
            raise DbtLineageError(
                f"{len(lost)} node(s) lost their lineage for lack of compiled SQL (e.g. "
                f"{lost[0]}): the manifest came from `dbt test` or a selected command. Run "
                "`dbt compile` and `dbt-lineage build`, or pass --force to publish anyway",
                path=path,
            )
        project = graph.metadata.project_name or None
        return edge_rows(graph), graph.metadata.manifest_checksum, "lineage.json", project
    manifest_path = target_dir / "manifest.json"
    manifest = load_manifest(manifest_path)
    click.echo(
        f"No lineage.json at {path}: publishing the manifest's model-level edges instead "
        "(run `dbt-lineage build` for column edges).",
        err=True,
    )
    return (
        edge_rows(manifest),
        manifest.metadata.sha256,
        "manifest.json",
        manifest.metadata.project_name,
    )
