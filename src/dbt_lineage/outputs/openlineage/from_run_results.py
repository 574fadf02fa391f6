"""An ``InvocationExecution`` from dbt's ``run_results.json`` and the manifest."""

from __future__ import annotations

import datetime
import itertools
import typing as t

from dbt_lineage.artifacts.manifest import Manifest, ManifestNode
from dbt_lineage.artifacts.run_results import NodeResult, RunResults
from dbt_lineage.errors import ArtifactError
from dbt_lineage.outputs.openlineage.execution import (
    EXECUTED_TYPES,
    FAILED_STATUSES,
    InvocationExecution,
    NodeExecution,
    Relation,
    utc,
)

_NOT_EXECUTING = ("compile", "generate", "docs", "list", "ls", "parse", "show", "debug")
_SUBCOMMANDS = {"generate": "docs generate", "serve": "docs serve"}


def idle_command(run_results: RunResults) -> str | None:
    """The dbt command that wrote ``run_results`` (``dbt docs generate``), when it executes
    no model; None when it does (build, run, seed, snapshot...).

    The command is named as the user typed it, up to its first option (dbt records the
    command line as ``invocation_command``); else from dbt's ``which`` (``generate`` is
    ``dbt docs generate``).
    """
    which = str(run_results.args.get("which") or "")
    if which not in _NOT_EXECUTING:
        return None
    typed = str(run_results.args.get("invocation_command") or "").split()
    words = list(itertools.takewhile(lambda word: not word.startswith("-"), typed))
    if len(words) >= 2 and words[0].endswith("dbt"):
        return " ".join(["dbt", *words[1:]])
    return f"dbt {_SUBCOMMANDS.get(which, which)}"


def from_run_results(run_results: RunResults, manifest: Manifest) -> InvocationExecution:
    """The models, seeds and snapshots one invocation executed, with their timings.

    Raises:
        ArtifactError: the run results carry no invocation id, or come from a command that
            executes nothing (``dbt compile``, ``dbt docs generate``, ...).
    """
    invocation_id = run_results.metadata.invocation_id
    if not invocation_id:
        raise ArtifactError(
            "run_results.json has no metadata.invocation_id: rerun dbt", path=run_results.path
        )
    idle = idle_command(run_results)
    if idle is not None:
        raise ArtifactError(
            f"run_results.json was written by `{idle}`, which executes no model: "
            "run dbt build, run, seed or snapshot (or pass --run-results with its file)",
            path=run_results.path,
        )
    command = str(run_results.args.get("which") or "")
    nodes = manifest.relation_nodes()
    executed: list[NodeExecution] = []
    starts: list[datetime.datetime] = []
    other_failures = 0
    for result in run_results.results:
        started, completed = _timing(result, "execute")
        starts.extend(moment for moment in (*_timing(result, "compile"), started) if moment)
        node = nodes.get(result.unique_id)
        if node is None or node.resource_type not in EXECUTED_TYPES:
            other_failures += result.status in FAILED_STATUSES
            continue
        if result.status == "skipped" or node.is_ephemeral:
            continue
        if started is None:
            started, completed = _timing(result, "compile")
        executed.append(
            NodeExecution(
                unique_id=result.unique_id,
                resource_type=node.resource_type,
                status=result.status,
                relation=relation(node),
                started_at=started,
                completed_at=completed or started,
                message=result.message,
                rows_affected=_rows(result.adapter_response),
                checksum=str(node.checksum.get("checksum") or "") or None,
                inputs=tuple((upstream, None) for upstream in node.depends_on.nodes),
            )
        )
    ended = utc(run_results.metadata.generated_at) or max(
        (node.completed_at for node in executed if node.completed_at),
        default=datetime.datetime.now(datetime.timezone.utc),
    )
    started = utc(run_results.metadata.invocation_started_at) or min(
        starts, default=ended - datetime.timedelta(seconds=run_results.elapsed_time)
    )
    return InvocationExecution(
        invocation_id=invocation_id,
        project_name=manifest.metadata.project_name or "",
        command=command,
        dbt_version=run_results.metadata.dbt_version,
        started_at=min(started, ended),
        ended_at=ended,
        nodes=tuple(sorted(executed, key=_start_order)),
        other_failures=other_failures,
    )


def relation(node: ManifestNode) -> Relation:
    """Where dbt wrote (or, for a source, reads) the node."""
    if node.resource_type == "source":
        identifier = node.identifier or node.name
    else:
        identifier = node.alias or node.name
    return Relation(node.database or "", node.schema_name or "", identifier)


def _timing(
    result: NodeResult, phase: str
) -> tuple[datetime.datetime | None, datetime.datetime | None]:
    for step in result.timing:
        if step.get("name") == phase:
            return utc(step.get("started_at")), utc(step.get("completed_at"))
    return None, None


def _rows(response: t.Mapping[str, t.Any]) -> int | None:
    rows = response.get("rows_affected")
    return rows if isinstance(rows, int) and rows >= 0 else None


def _start_order(node: NodeExecution) -> tuple[datetime.datetime, str]:
    moment = node.started_at or datetime.datetime.min.replace(tzinfo=datetime.timezone.utc)
    return (moment, node.unique_id)
