"""Read whole recorded invocations back from the tables the dbt package's hook writes.

Where ``instance_reader`` answers provenance questions run by run, this reads invocations
whole, for exports that replay them (``dbt-lineage openlineage --invocation/--since``): the
invocation row, every node run of it, and the inputs each node run read. Lookups go in
batches of ``IN`` lists, so back-filling a month of invocations costs a few queries.
"""

from __future__ import annotations

import dataclasses
import datetime
import typing as t

from dbt_lineage.errors import WarehouseError
from dbt_lineage.outputs.warehouse.connection import Warehouse

_IN_LIST_SIZE = 500

_INVOCATION_COLUMNS = (
    "invocation_id",
    "project_name",
    "command",
    "dbt_version",
    "target_name",
    "target_type",
    "started_at",
    "ended_at",
    "git_sha",
)
_NODE_RUN_COLUMNS = (
    "invocation_id",
    "unique_id",
    "resource_type",
    "relation_name",
    "materialization",
    "status",
    "rows_affected",
    "compile_started_at",
    "execute_started_at",
    "execute_completed_at",
    "message",
    "checksum",
)
_RUN_INPUT_COLUMNS = ("invocation_id", "unique_id", "input_unique_id", "input_relation_name")


@dataclasses.dataclass(frozen=True)
class RecordedNodeRun:
    """One row of ``lineage_node_runs``, with the inputs ``lineage_run_inputs`` lists for it."""

    unique_id: str
    resource_type: str
    relation_name: str | None
    materialization: str | None
    status: str
    rows_affected: int | None
    compile_started_at: datetime.datetime | None
    execute_started_at: datetime.datetime | None
    execute_completed_at: datetime.datetime | None
    message: str | None
    checksum: str | None
    inputs: tuple[tuple[str, str | None], ...] = ()
    """(input unique id, its relation name) pairs, in the order recorded."""


@dataclasses.dataclass(frozen=True)
class RecordedInvocation:
    """One row of ``lineage_invocations`` and its node runs (ordered by start time)."""

    invocation_id: str
    project_name: str
    command: str
    dbt_version: str
    target_name: str
    target_type: str
    started_at: datetime.datetime | None
    ended_at: datetime.datetime | None
    git_sha: str | None
    node_runs: tuple[RecordedNodeRun, ...]


def invocation_history(
    warehouse: Warehouse,
    *,
    invocation_id: str | None = None,
    since: datetime.datetime | None = None,
) -> list[RecordedInvocation]:
    """The recorded invocations with this id, or that started at or after ``since``.

    Args:
        warehouse: an open connection (``connection.connection``).
        invocation_id: one invocation to read.
        since: read every invocation that started at or after this UTC time, oldest first.

    Raises:
        WarehouseError: the lineage tables are missing (the hook never ran), or the
            invocation asked for is not recorded.
    """
    missing = [
        table
        for table in ("lineage_invocations", "lineage_node_runs", "lineage_run_inputs")
        if not warehouse.columns(table)
    ]
    if missing:
        raise WarehouseError(
            f"no lineage tables in schema {warehouse.schema} ({', '.join(missing)} missing): "
            "add the on-run-end hook (see README) and run dbt once"
        )
    literal = warehouse.dialect.literal
    if invocation_id is not None:
        where = f"invocation_id = {literal(invocation_id)}"
    elif since is not None:
        moment = literal(since.replace(tzinfo=None).isoformat(sep=" "))
        where = f"started_at >= cast({moment} as {warehouse.dialect.timestamp_type})"
    else:
        raise WarehouseError("give an invocation id or a start time to read invocations")
    complete = _select(
        warehouse,
        "lineage_invocations",
        _INVOCATION_COLUMNS,
        f"{where} and {warehouse.recorded_complete()}",
    )
    if invocation_id is not None and not complete:
        if _select(warehouse, "lineage_invocations", ("invocation_id",), where):
            raise WarehouseError(
                f"invocation {invocation_id} is only partly recorded in {warehouse.schema}:"
                " its on-run-end hook was interrupted; run the command again to record it"
            )
    rows = complete
    if invocation_id is not None and not rows:
        raise WarehouseError(
            f"invocation {invocation_id} is not recorded in {warehouse.schema}.lineage_invocations:"
            " check the id (dbt prints it as invocation_id in target/run_results.json)"
        )
    ids = [row["invocation_id"] for row in rows]
    node_runs = _by_invocation(warehouse, "lineage_node_runs", _NODE_RUN_COLUMNS, ids)
    inputs = _by_invocation(warehouse, "lineage_run_inputs", _RUN_INPUT_COLUMNS, ids)
    inputs_of: dict[tuple[str, str], list[tuple[str, str | None]]] = {}
    for row in sorted(inputs, key=lambda row: (row["invocation_id"], row["input_unique_id"])):
        key = (row["invocation_id"], row["unique_id"])
        inputs_of.setdefault(key, []).append((row["input_unique_id"], row["input_relation_name"]))
    runs_of: dict[str, list[RecordedNodeRun]] = {}
    for row in node_runs:
        key = (row["invocation_id"], row["unique_id"])
        run = RecordedNodeRun(
            **{name: row[name] for name in _NODE_RUN_COLUMNS if name != "invocation_id"},
            inputs=tuple(inputs_of.get(key, ())),
        )
        runs_of.setdefault(row["invocation_id"], []).append(run)
    invocations = [
        RecordedInvocation(
            **{name: row[name] for name in _INVOCATION_COLUMNS},
            node_runs=tuple(sorted(runs_of.get(row["invocation_id"], ()), key=_run_order)),
        )
        for row in rows
    ]
    return sorted(invocations, key=lambda run: (_sortable(run.started_at), run.invocation_id))


EXECUTING_COMMANDS = ("build", "run", "seed", "snapshot", "retry")
"""The dbt commands whose invocations executed models, seeds or snapshots."""


def last_invocation(warehouse: Warehouse) -> str | None:
    """The id of the last completely recorded invocation of a command that executes nodes
    (``EXECUTING_COMMANDS``); None when the lineage tables are missing or hold none."""
    if not warehouse.columns("lineage_invocations"):
        return None
    commands = ", ".join(warehouse.dialect.literal(name) for name in EXECUTING_COMMANDS)
    rows = _select(
        warehouse,
        "lineage_invocations",
        ("invocation_id", "started_at"),
        f"command in ({commands}) and {warehouse.recorded_complete()} "
        "order by started_at desc, invocation_id desc limit 1",
    )
    return str(rows[0]["invocation_id"]) if rows else None


def _by_invocation(
    warehouse: Warehouse, table: str, columns: t.Sequence[str], ids: t.Sequence[str]
) -> list[dict[str, t.Any]]:
    found: list[dict[str, t.Any]] = []
    for start in range(0, len(ids), _IN_LIST_SIZE):
        chunk = ids[start : start + _IN_LIST_SIZE]
        listed = ", ".join(warehouse.dialect.literal(value) for value in chunk)
        found.extend(_select(warehouse, table, columns, f"invocation_id in ({listed})"))
    return found


def _select(
    warehouse: Warehouse, table: str, columns: t.Sequence[str], where: str
) -> list[dict[str, t.Any]]:
    sql = f"select {', '.join(columns)} from {warehouse.relation(table)} where {where}"
    return [_typed(row) for row in warehouse.fetch(sql, table=table)]


def _typed(row: dict[str, t.Any]) -> dict[str, t.Any]:
    """Text back to text and times to datetimes: agate may read ``'123'`` as a number and
    some adapters return timestamps as strings."""
    typed: dict[str, t.Any] = {}
    for name, value in row.items():
        if value is not None and name.endswith(("_at",)) and isinstance(value, str):
            value = datetime.datetime.fromisoformat(value)
        elif value is not None and name == "rows_affected":
            value = int(value)
        elif value is not None and not name.endswith("_at") and not isinstance(value, str):
            value = str(value)
        typed[name] = value
    return typed


def _sortable(moment: datetime.datetime | None) -> datetime.datetime:
    return moment.replace(tzinfo=None) if moment else datetime.datetime.min


def _run_order(run: RecordedNodeRun) -> tuple[datetime.datetime, str]:
    return (_sortable(run.execute_started_at or run.compile_started_at), run.unique_id)
