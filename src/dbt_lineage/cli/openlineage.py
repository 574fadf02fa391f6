"""``dbt-lineage openlineage``: a dbt invocation's runs as OpenLineage events."""

from __future__ import annotations

import dataclasses
import datetime
import os
import typing as t
from pathlib import Path

import click

from dbt_lineage.api.stale import stale
from dbt_lineage.artifacts.project import ProjectArtifacts, load_project
from dbt_lineage.artifacts.raw_code import raw_code
from dbt_lineage.artifacts.run_results import load_run_results
from dbt_lineage.cli import options
from dbt_lineage.cli.open_warehouse import open_warehouse
from dbt_lineage.cli.warn import warn
from dbt_lineage.errors import ArtifactError, DbtLineageError
from dbt_lineage.files import describe, is_stream
from dbt_lineage.graph.build import build_graph
from dbt_lineage.graph.io import load_graph
from dbt_lineage.graph.model import LineageGraph
from dbt_lineage.graph.save import save_graph
from dbt_lineage.outputs.openlineage.emit import TRANSPORTS, Destination, emit
from dbt_lineage.outputs.openlineage.events import ExportContext, events
from dbt_lineage.outputs.openlineage.execution import InvocationExecution
from dbt_lineage.outputs.openlineage.from_history import from_history
from dbt_lineage.outputs.openlineage.from_run_results import from_run_results, idle_command
from dbt_lineage.outputs.openlineage.lineage_index import lineage_index
from dbt_lineage.outputs.openlineage.namespace import namespace
from dbt_lineage.outputs.openlineage.source_code import source_code
from dbt_lineage.outputs.warehouse.invocation_history import (
    invocation_history,
    last_invocation,
)
from dbt_lineage.queries.diff_side import code_checksums
from dbt_lineage.resolve.cache import CACHE_FILE, LineageCache
from dbt_lineage.resolve.project import resolve_project


@click.command()
@click.option(
    "--run-results",
    "run_results_file",
    default=None,
    help="The run_results.json to emit (default: <target-path>/run_results.json).",
)
@click.option(
    "--invocation",
    "invocation_id",
    default=None,
    help="Emit this recorded invocation, read from the run history tables.",
)
@click.option(
    "--since",
    default=None,
    metavar="TIMESTAMP",
    help="Emit every recorded invocation started at or after this UTC time (2024-05-01T06:00).",
)
@click.option(
    "--transport",
    type=click.Choice(TRANSPORTS),
    default=None,
    help="Where events go (default: file with --output, http with --url, else console).",
)
@click.option(
    "--url",
    default=None,
    help="The OpenLineage endpoint's base URL (http), or Kafka's bootstrap servers.",
)
@click.option(
    "--endpoint",
    default="api/v1/lineage",
    show_default=True,
    help="The path under --url that takes events (http).",
)
@click.option(
    "--api-key-env",
    default=None,
    metavar="VAR",
    help="Environment variable holding an API key, sent as a bearer token (http).",
)
@click.option(
    "--timeout",
    type=click.FloatRange(min=0, min_open=True),
    default=10.0,
    show_default=True,
    help="Seconds to wait for each HTTP response (http).",
)
@click.option(
    "--retries",
    type=click.IntRange(min=0),
    default=2,
    show_default=True,
    help="Retries of an HTTP request that fails to connect or gets a 5xx answer (http).",
)
@click.option(
    "--output",
    default=None,
    help="The JSON-lines file to write (file transport), replaced whole; - for standard "
    "output; a FIFO or a device is written in place.",
)
@click.option("--topic", default=None, help="The Kafka topic (kafka transport).")
@click.option(
    "--namespace",
    "job_namespace",
    default=None,
    help="The jobs' namespace (default: $OPENLINEAGE_NAMESPACE, else dbt, as dbt-ol).",
)
@options.project_dir
@options.profiles_dir
@options.target
@options.dbt_vars
@options.target_path
@options.lineage_path
def openlineage(
    run_results_file: str | None,
    invocation_id: str | None,
    since: str | None,
    transport: str | None,
    url: str | None,
    endpoint: str,
    api_key_env: str | None,
    timeout: float,
    retries: int,
    output: str | None,
    topic: str | None,
    job_namespace: str | None,
    project_dir: str,
    profiles_dir: str | None,
    target: str | None,
    cli_vars: str | None,
    target_path: str | None,
    lineage_file: str | None,
) -> None:
    """Emit a dbt invocation's runs as OpenLineage events, with column lineage.

    One parent run per invocation and a START and COMPLETE/FAIL per executed model, seed
    and snapshot. Reads run_results.json, or (--invocation, --since) the run history
    tables the dbt_lineage.record_run hook writes. Names datasets through dbt's profile.
    """
    chosen = [
        flag
        for flag, value in (
            ("--run-results", run_results_file),
            ("--invocation", invocation_id),
            ("--since", since),
        )
        if value
    ]
    if len(chosen) > 1:
        raise DbtLineageError(
            f"give one of --run-results, --invocation, --since (got {' and '.join(chosen)})"
        )
    destination = dataclasses.replace(
        _destination(transport, url, endpoint, api_key_env, output, topic),
        timeout=timeout,
        retries=retries,
    )
    artifacts = load_project(project_dir, target_path)
    graph = _graph(project_dir, artifacts, lineage_file)
    moment = _since(since) if since else None
    with open_warehouse(
        project_dir, profiles_dir=profiles_dir, target=target, cli_vars=cli_vars
    ) as warehouse:
        credentials = warehouse.adapter.config.credentials
        adapter_type = credentials.type
        dataset_namespace = namespace(adapter_type, _fields(credentials))
        if not (invocation_id or moment or run_results_file):
            invocation_id = _last_recorded(artifacts.target_path / "run_results.json", warehouse)
        if invocation_id or moment:
            recorded = invocation_history(warehouse, invocation_id=invocation_id, since=moment)
            executions = [from_history(run) for run in recorded]
        else:
            path = (
                Path(run_results_file)
                if run_results_file
                else artifacts.target_path / "run_results.json"
            )
            if not path.is_file():
                raise ArtifactError(
                    "no run_results.json: run dbt build, or pass --run-results or --invocation",
                    path=path,
                )
            executions = [from_run_results(load_run_results(path), artifacts.manifest)]
    if not executions:
        click.echo(
            f"No invocation recorded since {moment.isoformat(sep=' ')}: nothing to emit.", err=True
        )
        return
    relations = artifacts.manifest.relation_nodes()
    ephemeral = {node_id for node_id, node in relations.items() if node.is_ephemeral}
    context = ExportContext(
        manifest=artifacts.manifest,
        graph=graph,
        index=lineage_index(graph, ephemeral),
        adapter_type=adapter_type,
        dataset_namespace=dataset_namespace,
        job_namespace=job_namespace or os.environ.get("OPENLINEAGE_NAMESPACE") or "dbt",
        source=source_code(project_dir, version=_git_sha(executions)),
        code_checksums=_code_checksums(artifacts) if invocation_id or moment else {},
    )
    stream = (event for execution in executions for event in events(execution, context))
    sent = emit(stream, destination, write=click.echo)
    click.echo(_summary(executions, sent, destination), err=True)


def _code_checksums(artifacts: ProjectArtifacts) -> dict[str, frozenset[str]]:
    """Each model's checksums under either dbt scheme, for runs recorded by another dbt
    version (1.11's checksums differ from 1.12's for the same file: compare code)."""
    code = raw_code(artifacts.target_path / "manifest.json")
    return {node_id: code_checksums(text) for node_id, text in code.items()}


def _last_recorded(path: Path, warehouse: t.Any) -> str | None:
    """The invocation to emit from the hook's tables when target/run_results.json is missing
    or was written by a command that executes nothing (``dbt docs generate``): the last one
    recorded, said on standard error; None to read run_results.json (as it is, or for its
    error when the tables hold nothing either)."""
    why = "there is no target/run_results.json"
    if path.is_file():
        idle = idle_command(load_run_results(path))
        if idle is None:
            return None
        why = f"target/run_results.json is from `{idle}`, which executes no model"
    found = last_invocation(warehouse)
    if found is not None:
        click.echo(f"Emitting the last run the hook recorded, {found}: {why}.", err=True)
    return found


def _destination(
    transport: str | None,
    url: str | None,
    endpoint: str,
    api_key_env: str | None,
    output: str | None,
    topic: str | None,
) -> Destination:
    kind = transport or ("file" if output else "http" if url else "console")
    if output and not is_stream(output):
        Path(output).parent.mkdir(parents=True, exist_ok=True)
    api_key = None
    if api_key_env:
        api_key = os.environ.get(api_key_env)
        if not api_key:
            raise DbtLineageError(
                f"--api-key-env {api_key_env}: that environment variable is not set or empty"
            )
    return Destination(
        kind,
        url=url,
        endpoint=endpoint,
        api_key=api_key,
        output=output or None,
        topic=topic,
    )


def _graph(project_dir: str, artifacts: ProjectArtifacts, lineage_file: str | None) -> LineageGraph:
    """lineage.json, built first (as ``dbt-lineage build`` does) when it is missing."""
    path = Path(lineage_file) if lineage_file else artifacts.target_path / "lineage.json"
    if path.is_file() or lineage_file:
        graph = load_graph(path)
        if not lineage_file:
            manifest = artifacts.target_path / "manifest.json"
            warn([stale(path, manifest, graph.metadata.manifest_checksum)])
        return graph
    cache = LineageCache(artifacts.target_path / CACHE_FILE)
    lineage = resolve_project(artifacts, project_dir=project_dir, cache=cache)
    graph = build_graph(artifacts, lineage)
    save_graph(graph, path)
    click.echo(f"No lineage.json yet: built {path}", err=True)
    return graph


def _since(text: str) -> datetime.datetime:
    try:
        moment = datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise DbtLineageError(
            f"--since {text}: not a date or time; write 2024-05-01 or 2024-05-01T06:00"
        ) from None
    if moment.tzinfo is not None:
        moment = moment.astimezone(datetime.timezone.utc).replace(tzinfo=None)
    return moment


def _fields(credentials: t.Any) -> dict[str, t.Any]:
    fields = dict(credentials.to_dict()) if hasattr(credentials, "to_dict") else {}
    for name in ("host", "port", "path", "account", "server", "method"):
        if name not in fields and getattr(credentials, name, None) is not None:
            fields[name] = getattr(credentials, name)
    return fields


def _git_sha(executions: t.Sequence[InvocationExecution]) -> str | None:
    shas = {execution.git_sha for execution in executions}
    return shas.pop() if len(shas) == 1 else None


def _summary(
    executions: t.Sequence[InvocationExecution], sent: int, destination: Destination
) -> str:
    nodes = [node for execution in executions for node in execution.nodes]
    failed = sum(node.failed for node in nodes)
    where = {
        "console": "stdout",
        "file": describe(destination.output or ""),
        "http": f"{destination.url}",
        "kafka": f"topic {destination.topic}",
    }[destination.transport]
    which = (
        executions[0].invocation_id if len(executions) == 1 else f"{len(executions)} invocations"
    )
    runs = f"{len(nodes)} node runs, {failed} failed"
    return f"Sent {sent} OpenLineage events for {which} ({runs}) to {where}."
