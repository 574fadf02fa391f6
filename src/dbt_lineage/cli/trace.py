"""``dbt-lineage trace``: the run that built a relation, and the runs of its inputs."""

from __future__ import annotations

import datetime
import json
import typing as t
from pathlib import Path

import click

from dbt_lineage.artifacts.manifest import load_manifest
from dbt_lineage.artifacts.names import resolve_name
from dbt_lineage.cli import options
from dbt_lineage.cli.open_warehouse import open_warehouse
from dbt_lineage.errors import SelectionError
from dbt_lineage.outputs.warehouse.instance_reader import instance_reader
from dbt_lineage.queries.provenance import TracedInput, TracedRun, provenance


@click.command()
@click.argument("relation")
@click.option(
    "--stamp",
    default=None,
    metavar="INVOCATION_ID",
    help="Trace the run of this invocation (a row's stamp column) instead of the latest build.",
)
@click.option(
    "--include-archive",
    is_flag=True,
    help="Also read the runs archive_history moved to the schema in the var "
    "dbt_lineage_archive_schema.",
)
@options.output_format
@options.project_dir
@options.profiles_dir
@options.target
@options.dbt_vars
@options.target_path
def trace(
    relation: str,
    stamp: str | None,
    include_archive: bool,
    output_format: str,
    project_dir: str,
    profiles_dir: str | None,
    target: str | None,
    cli_vars: str | None,
    target_path: str | None,
) -> None:
    """Which run built RELATION, from which runs of its inputs, back to sources.

    RELATION as dbt names it (orders, model.shop.orders). Reads the tables the
    dbt_lineage.record_run hook writes, through dbt's own profile and adapter.
    """
    target_dir = Path(target_path) if target_path else Path("target")
    if not target_dir.is_absolute():
        target_dir = Path(project_dir) / target_dir
    manifest = load_manifest(target_dir / "manifest.json")
    relations = manifest.relation_nodes()
    candidates = [node.named for node in relations.values()] + manifest.disabled_names()
    unique_id = resolve_name(relation, candidates)
    if unique_id in relations and relations[unique_id].resource_type == "source":
        raise SelectionError(f"{unique_id} is a source: dbt reads it but never builds it")
    ephemeral = {
        node_id: node.depends_on.nodes for node_id, node in relations.items() if node.is_ephemeral
    }
    with open_warehouse(
        project_dir, profiles_dir=profiles_dir, target=target, cli_vars=cli_vars, create=False
    ) as warehouse:
        archive = None
        if include_archive:
            archive = warehouse.archive_schema
            if not archive:
                raise SelectionError(
                    "--include-archive needs the archive schema: set the var "
                    "dbt_lineage_archive_schema (e.g. --vars '{dbt_lineage_archive_schema: "
                    "lineage_archive}')"
                )
        reader = instance_reader(warehouse, archive)
        traced = provenance(unique_id, reader, stamp=stamp, ephemeral=ephemeral)
    if output_format == "json":
        click.echo(json.dumps(traced.to_dict(), indent=2))
    else:
        click.echo("\n".join(_tree(traced)))


def _tree(run: TracedRun) -> list[str]:
    lines = [_run_line(run, run.relation_name)]
    lines.extend(_inputs(run.inputs, ""))
    return lines


def _inputs(inputs: t.Sequence[TracedInput], prefix: str) -> t.Iterator[str]:
    for index, item in enumerate(inputs):
        last = index == len(inputs) - 1
        branch, indent = ("└─ ", "   ") if last else ("├─ ", "│  ")
        if item.run is None:
            yield f"{prefix}{branch}{item.unique_id}  ({item.note})"
            continue
        if item.run.status == "ephemeral":
            yield f"{prefix}{branch}{item.unique_id}  (ephemeral: inlined into this run)"
        else:
            yield prefix + branch + _run_line(item.run, None)
        yield from _inputs(item.run.inputs, prefix + indent)


def _run_line(run: TracedRun, relation_name: str | None) -> str:
    parts = [run.unique_id]
    if relation_name:
        parts.append(relation_name)
    parts += [
        f"invocation {run.invocation_id}",
        run.status,
        f"{_time(run.started_at)} -> {_time(run.ended_at)}",
        f"rows {run.rows_affected if run.rows_affected is not None else '?'}",
    ]
    if run.repeated:
        parts.append("(shown above)")
    return "  ".join(parts)


def _time(value: datetime.datetime | str | None) -> str:
    if isinstance(value, datetime.datetime):
        return value.isoformat(sep=" ", timespec="seconds")
    return value or "?"
