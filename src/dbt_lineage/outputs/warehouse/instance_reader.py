"""Read the instance tables the dbt package's on-run-end hook writes.

``lineage_invocations``, ``lineage_node_runs`` and ``lineage_run_inputs`` (docs/hook.md),
in the lineage schema, through the same dbt adapter connection. Lookups by key go in
batches of ``IN`` lists, so a trace costs a few queries per level of the DAG, not one
per node. Only completely recorded invocations are read: the hook writes an invocation's
row last (``recorded_complete`` true), so node runs of a hook that died half-way, on a
warehouse without transactions, are skipped. Given an archive (the same tables in another
schema, filled by the package's ``archive_history``), each table is read as its live and
archived rows together (``union all``; docs/run-history.md).
"""

from __future__ import annotations

import dataclasses
import datetime
import typing as t

from dbt_lineage.errors import WarehouseError
from dbt_lineage.outputs.warehouse.connection import Warehouse
from dbt_lineage.queries.instance_graph import InvocationRow, NodeRunRow, RunInputRow
from dbt_lineage.types import RunRef

TABLES = ("lineage_invocations", "lineage_node_runs", "lineage_run_inputs")

_IN_LIST_SIZE = 500

_NODE_RUN_COLUMNS = (
    "invocation_id",
    "unique_id",
    "status",
    "relation_name",
    "resource_type",
    "materialization",
    "rows_affected",
    "execute_started_at",
    "execute_completed_at",
    "execution_time",
    "message",
    "checksum",
)
_RUN_INPUT_COLUMNS = (
    "invocation_id",
    "unique_id",
    "input_unique_id",
    "input_relation_name",
    "input_invocation_id",
)
_INVOCATION_COLUMNS = (
    "invocation_id",
    "command",
    "dbt_version",
    "target_name",
    "started_at",
    "ended_at",
)

_READ_COLUMNS = {
    "lineage_invocations": _INVOCATION_COLUMNS,
    "lineage_node_runs": _NODE_RUN_COLUMNS,
    "lineage_run_inputs": _RUN_INPUT_COLUMNS,
}


class InstanceReader:
    """An ``InstanceSource`` (queries/instance_graph.py) over the warehouse tables."""

    def __init__(self, warehouse: Warehouse, archive: Warehouse | None = None) -> None:
        self.warehouse = warehouse
        self.archive = archive
        self.literal = warehouse.dialect.literal
        self._complete_row = warehouse.recorded_complete()
        #: SQL condition on a row's ``invocation_id``: its invocation is completely recorded
        self.complete = (
            f"invocation_id in (select invocation_id from "
            f"{self._from('lineage_invocations')} where {self._complete_row})"
        )

    def _from(self, table: str) -> str:
        """The table as a FROM item: the relation, or its live and archived rows."""
        live = self.warehouse.relation(table)
        if self.archive is None:
            return live
        columns = _READ_COLUMNS[table]
        if table == "lineage_invocations" and self._complete_row != "1 = 1":
            columns = (*columns, "recorded_complete")
        listed = ", ".join(columns)
        return (
            f"(select {listed} from {live} union all "
            f"select {listed} from {self.archive.relation(table)}) as {table}"
        )

    def last_build(self, unique_id: str) -> NodeRunRow | None:
        rows = self._select(
            "lineage_node_runs",
            _NODE_RUN_COLUMNS,
            f"unique_id = {self.literal(unique_id)} and status = 'success'"
            f" and execute_completed_at is not null and {self.complete}",
            order="execute_completed_at desc, invocation_id desc",
            limit=1,
        )
        return NodeRunRow(**rows[0]) if rows else None

    def node_runs(self, keys: t.Sequence[RunRef]) -> list[NodeRunRow]:
        return [
            NodeRunRow(**row) for row in self._by_keys("lineage_node_runs", _NODE_RUN_COLUMNS, keys)
        ]

    def run_inputs(self, keys: t.Sequence[RunRef]) -> list[RunInputRow]:
        return [
            RunInputRow(**row)
            for row in self._by_keys("lineage_run_inputs", _RUN_INPUT_COLUMNS, keys)
        ]

    def invocations(self, invocation_ids: t.Sequence[str]) -> list[InvocationRow]:
        found: list[InvocationRow] = []
        for chunk in _chunks(sorted(set(invocation_ids))):
            rows = self._select(
                "lineage_invocations",
                _INVOCATION_COLUMNS,
                f"invocation_id in ({self._list(chunk)}) and {self._complete_row}",
            )
            found.extend(InvocationRow(**row) for row in rows)
        return found

    def builds_before(
        self, unique_ids: t.Sequence[str], before: datetime.datetime
    ) -> list[NodeRunRow]:
        dialect = self.warehouse.dialect
        moment = f"cast({self.literal(before.isoformat(sep=' '))} as {dialect.timestamp_type})"
        found: list[NodeRunRow] = []
        for chunk in _chunks(sorted(set(unique_ids))):
            columns = ", ".join(_NODE_RUN_COLUMNS)
            ranked = (
                f"(select {columns}, row_number() over (partition by unique_id"
                " order by execute_completed_at desc, invocation_id desc) as recency"
                f" from {self._from('lineage_node_runs')}"
                f" where status = 'success' and execute_completed_at <= {moment}"
                f" and unique_id in ({self._list(chunk)}) and {self.complete}) as ranked"
            )
            rows = self.warehouse.fetch(
                f"select {columns} from {ranked} where recency = 1", table="lineage_node_runs"
            )
            found.extend(NodeRunRow(**_typed(row)) for row in rows)
        return found

    def _by_keys(
        self, table: str, columns: t.Sequence[str], keys: t.Sequence[RunRef]
    ) -> list[dict[str, t.Any]]:
        """Rows whose (invocation_id, unique_id) is one of ``keys``: filtered by both IN
        lists in SQL (portable; row-value IN is not), then exactly here."""
        wanted = set(keys)
        found: list[dict[str, t.Any]] = []
        for chunk in _chunks(sorted(wanted)):
            invocations = self._list(sorted({key.invocation_id for key in chunk}))
            unique_ids = self._list(sorted({key.unique_id for key in chunk}))
            rows = self._select(
                table,
                columns,
                f"invocation_id in ({invocations}) and unique_id in ({unique_ids})"
                f" and {self.complete}",
            )
            found.extend(
                row for row in rows if RunRef(row["invocation_id"], row["unique_id"]) in wanted
            )
        return found

    def _select(
        self,
        table: str,
        columns: t.Sequence[str],
        where: str,
        order: str = "",
        limit: int | None = None,
    ) -> list[dict[str, t.Any]]:
        sql = f"select {', '.join(columns)} from {self._from(table)} where {where}"
        if order:
            sql += f" order by {order}"
        if limit is not None:
            sql += f" limit {limit:d}"
        return [_typed(row) for row in self.warehouse.fetch(sql, table=table)]

    def _list(self, values: t.Iterable[str]) -> str:
        return ", ".join(self.literal(value) for value in values)


def instance_reader(warehouse: Warehouse, archive_schema: str | None = None) -> InstanceReader:
    """A reader of the instance tables, once they are known to exist; with
    ``archive_schema``, of their live and archived rows together.

    Raises:
        WarehouseError: the tables are not there: the hook has not run yet, or nothing was
            archived to ``archive_schema``.
    """
    missing = [table for table in TABLES if not warehouse.columns(table)]
    if missing:
        raise WarehouseError(
            f"no lineage tables in schema {warehouse.schema} ({', '.join(missing)} missing): "
            "add the on-run-end hook (see README) and run dbt once"
        )
    if archive_schema is None:
        return InstanceReader(warehouse)
    archive = dataclasses.replace(warehouse, schema=archive_schema)
    missing = [table for table in TABLES if not archive.columns(table)]
    if missing:
        raise WarehouseError(
            f"no archive tables in schema {archive_schema} ({', '.join(missing)} missing): "
            "run `dbt run-operation dbt_lineage.archive_history` first, or name the schema it "
            "archived to in the var dbt_lineage_archive_schema"
        )
    return InstanceReader(warehouse, archive)


def _chunks(values: t.Sequence[t.Any]) -> t.Iterator[t.Sequence[t.Any]]:
    for start in range(0, len(values), _IN_LIST_SIZE):
        yield values[start : start + _IN_LIST_SIZE]


def _typed(row: dict[str, t.Any]) -> dict[str, t.Any]:
    """Text columns back to text: dbt's agate tables can read ``'123'`` as a number."""
    return {
        name: str(value)
        if value is not None and name in _TEXT_COLUMNS and not isinstance(value, str)
        else value
        for name, value in row.items()
    }


_TEXT_COLUMNS = frozenset(
    {
        "invocation_id",
        "unique_id",
        "status",
        "relation_name",
        "resource_type",
        "materialization",
        "message",
        "checksum",
        "input_unique_id",
        "input_relation_name",
        "input_invocation_id",
        "command",
        "dbt_version",
        "target_name",
    }
)
