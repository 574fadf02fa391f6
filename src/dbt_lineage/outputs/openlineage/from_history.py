"""An ``InvocationExecution`` from an invocation recorded in the run history tables."""

from __future__ import annotations

import datetime

from dbt_lineage.outputs.openlineage.execution import (
    EXECUTED_TYPES,
    FAILED_STATUSES,
    InvocationExecution,
    NodeExecution,
    Relation,
    utc,
)
from dbt_lineage.outputs.warehouse.invocation_history import RecordedInvocation


def from_history(recorded: RecordedInvocation) -> InvocationExecution:
    """The models, seeds and snapshots the recorded invocation executed.

    Relations are the ones the hook recorded (the invocation's own target), not the
    current manifest's.
    """
    executed = []
    other_failures = 0
    for run in recorded.node_runs:
        if run.resource_type not in EXECUTED_TYPES:
            other_failures += run.status in FAILED_STATUSES
            continue
        if run.status == "skipped" or run.materialization == "ephemeral":
            continue
        started = utc(run.execute_started_at) or utc(run.compile_started_at)
        executed.append(
            NodeExecution(
                unique_id=run.unique_id,
                resource_type=run.resource_type,
                status=run.status,
                relation=Relation.parse(run.relation_name) if run.relation_name else None,
                started_at=started,
                completed_at=utc(run.execute_completed_at) or started,
                message=run.message,
                rows_affected=run.rows_affected,
                checksum=run.checksum,
                inputs=tuple(
                    (unique_id, Relation.parse(name) if name else None)
                    for unique_id, name in run.inputs
                ),
            )
        )
    ended = utc(recorded.ended_at) or max(
        (node.completed_at for node in executed if node.completed_at),
        default=datetime.datetime.now(datetime.timezone.utc),
    )
    started = utc(recorded.started_at) or min(
        (node.started_at for node in executed if node.started_at), default=ended
    )
    return InvocationExecution(
        invocation_id=recorded.invocation_id,
        project_name=recorded.project_name,
        command=recorded.command,
        dbt_version=recorded.dbt_version,
        started_at=started,
        ended_at=max(ended, started),
        nodes=tuple(executed),
        git_sha=recorded.git_sha,
        other_failures=other_failures,
    )
