"""The last run of each node from the tables the dbt package's on-run-end hook writes."""

from __future__ import annotations

import datetime
import typing as t

from dbt_lineage.outputs.report.run_facts import RunFact
from dbt_lineage.outputs.warehouse.instance_reader import InstanceReader

_CHUNK = 500


def warehouse_runs(reader: InstanceReader, unique_ids: t.Sequence[str]) -> dict[str, RunFact]:
    """Each node's latest run (any status) in ``lineage_node_runs``, with its invocation.

    Args:
        reader: a reader of the instance tables (``instance_reader(warehouse)``).
        unique_ids: the nodes to look up; those never recorded are left out.

    Raises:
        WarehouseError: the warehouse refused the query.
    """
    warehouse = reader.warehouse
    columns = (
        "invocation_id, unique_id, status, rows_affected, execute_completed_at,"
        " execution_time, message"
    )
    table = warehouse.relation("lineage_node_runs")
    latest: list[dict[str, t.Any]] = []
    ids = sorted(set(unique_ids))
    for start in range(0, len(ids), _CHUNK):
        listed = ", ".join(
            warehouse.dialect.literal(value) for value in ids[start : start + _CHUNK]
        )
        ranked = (
            f"select {columns}, row_number() over (partition by unique_id"
            " order by coalesce(execute_completed_at, execute_started_at) desc,"
            " invocation_id desc) as recency"
            f" from {table} where unique_id in ({listed}) and {reader.complete}"
        )
        latest.extend(
            warehouse.fetch(
                f"select {columns} from ({ranked}) as ranked where recency = 1",
                table="lineage_node_runs",
            )
        )
    commands = {
        row.invocation_id: row.command
        for row in reader.invocations([str(row["invocation_id"]) for row in latest])
    }
    facts: dict[str, RunFact] = {}
    for row in latest:
        invocation = str(row["invocation_id"])
        rows = row["rows_affected"]
        seconds = row["execution_time"]
        facts[str(row["unique_id"])] = RunFact(
            unique_id=str(row["unique_id"]),
            status=str(row["status"] or ""),
            invocation_id=invocation,
            completed_at=_text(row["execute_completed_at"]),
            rows_affected=int(rows) if isinstance(rows, int | float) and rows >= 0 else None,
            execution_time=float(seconds) if isinstance(seconds, int | float) else None,
            message=str(row["message"] or ""),
            command=commands.get(invocation) or "",
            source="warehouse",
        )
    return facts


def _text(value: t.Any) -> str:
    if isinstance(value, datetime.datetime):
        return value.isoformat(sep=" ", timespec="seconds")
    return "" if value is None else str(value)
