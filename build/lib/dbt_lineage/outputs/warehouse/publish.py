"""Write the schema layer to the warehouse: ``lineage_column_edges``, one version per manifest.

Each publish replaces the rows of its manifest checksum (a delete, then inserts, in one
transaction where the warehouse has them), so publishing the same manifest twice leaves
one copy, and other checksums' rows are kept: the table holds every published version.
The table is created on first use, and columns added later are appended to an existing
table (never renamed or dropped), as the dbt package does for its instance tables.
"""

from __future__ import annotations

import dataclasses
import datetime
import typing as t

from dbt_lineage.errors import WarehouseError
from dbt_lineage.outputs.warehouse.connection import Warehouse
from dbt_lineage.outputs.warehouse.edge_rows import EdgeRow

TABLE = "lineage_column_edges"

COLUMNS: tuple[tuple[str, str], ...] = (
    ("manifest_checksum", "text"),
    ("published_at", "timestamp"),
    ("project", "text"),
    ("origin", "text"),
    ("edge_type", "text"),
    ("kind", "text"),
    ("from_unique_id", "text"),
    ("from_column", "text"),
    ("to_unique_id", "text"),
    ("to_column", "text"),
    ("expression", "text"),
    ("layer", "text"),
)
"""The table's columns in order, with a logical type; append new ones at the end."""

MAX_ROWS_PER_INSERT = 5000


@dataclasses.dataclass(frozen=True)
class Published:
    """What a publish wrote: where, how many rows, in how many INSERT statements."""

    table: str
    rows: int
    statements: int
    manifest_checksum: str
    origin: str


def publish(
    warehouse: Warehouse,
    rows: t.Sequence[EdgeRow],
    *,
    manifest_checksum: str,
    origin: str,
    project: str | None = None,
    max_statement_bytes: int | None = None,
) -> Published:
    """Replace the rows of ``manifest_checksum`` in ``lineage_column_edges`` with ``rows``.

    Args:
        warehouse: an open connection (``connection()``).
        rows: the edges to write.
        manifest_checksum: the version the rows belong to.
        origin: what the rows were made from: ``lineage.json`` or ``manifest.json``.
        project: the dbt project name; the warehouse's project by default.
        max_statement_bytes: the size each INSERT stays under; the dialect's by default
            (under 1 MB, lower on BigQuery).

    Raises:
        WarehouseError: the warehouse refused; the transaction is rolled back where
            there is one, so the previous version of this checksum stays.
    """
    if not manifest_checksum:
        raise WarehouseError(
            "no manifest checksum to version the edges by: rerun dbt-lineage build"
        )
    dialect = warehouse.dialect
    relation = warehouse.relation(TABLE)
    now = datetime.datetime.now(datetime.timezone.utc).replace(tzinfo=None)
    constants = {
        "manifest_checksum": dialect.literal(manifest_checksum),
        "published_at": (
            f"cast({dialect.literal(now.isoformat(sep=' '))} as {dialect.timestamp_type})"
        ),
        "project": dialect.literal(project or warehouse.project_name),
        "origin": dialect.literal(origin),
    }
    statements = _inserts(
        relation,
        [_row_sql(row, constants, dialect.literal) for row in rows],
        max_statement_bytes or dialect.max_statement_bytes,
    )
    try:
        for sql in _ddl(warehouse, relation):
            warehouse.execute(sql, table=TABLE)
        warehouse.execute(
            f"delete from {relation} where manifest_checksum = {constants['manifest_checksum']}",
            table=TABLE,
        )
        for sql in statements:
            warehouse.execute(sql, table=TABLE)
        warehouse.commit()
    except WarehouseError:
        warehouse.rollback()
        raise
    return Published(relation, len(rows), len(statements), manifest_checksum, origin)


def _ddl(warehouse: Warehouse, relation: str) -> list[str]:
    """Create the table, or add the columns it lacks."""
    types = {"text": warehouse.dialect.text_type, "timestamp": warehouse.dialect.timestamp_type}
    existing = warehouse.columns(TABLE)
    if not existing:
        warehouse.create_schema()
        definitions = ",\n  ".join(f"{name} {types[kind]}" for name, kind in COLUMNS)
        return [f"create table if not exists {relation} (\n  {definitions}\n)"]
    add = "add columns" if warehouse.dialect.name in ("spark", "databricks") else "add column"
    return [
        f"alter table {relation} {add} {name} {types[kind]}"
        for name, kind in COLUMNS
        if name not in existing
    ]


def _row_sql(
    row: EdgeRow, constants: dict[str, str], literal: t.Callable[[str | None], str]
) -> str:
    values = [
        constants["manifest_checksum"],
        constants["published_at"],
        constants["project"],
        constants["origin"],
        literal(row.edge_type),
        literal(row.kind),
        literal(row.from_unique_id),
        literal(row.from_column),
        literal(row.to_unique_id),
        literal(row.to_column),
        literal(row.expression),
        literal(row.layer),
    ]
    return f"({', '.join(values)})"


def _inserts(relation: str, row_sqls: t.Sequence[str], max_bytes: int) -> list[str]:
    """INSERT statements each under ``max_bytes`` (UTF-8) and ``MAX_ROWS_PER_INSERT`` rows.

    A single row larger than the limit on its own gets a statement of its own.

    >>> rows = ["('a')", "('b')", "('c')"]
    >>> len(_inserts("t", rows, max_bytes=10**6)), len(_inserts("t", rows, max_bytes=1))
    (1, 3)
    """
    head = f"insert into {relation} ({', '.join(name for name, _ in COLUMNS)})\nvalues\n"
    head_bytes = len(head.encode())
    statements: list[str] = []
    batch: list[str] = []
    size = head_bytes
    for row_sql in row_sqls:
        row_bytes = len(row_sql.encode()) + 2
        if batch and (size + row_bytes > max_bytes or len(batch) >= MAX_ROWS_PER_INSERT):
            statements.append(head + ",\n".join(batch))
            batch, size = [], head_bytes
        batch.append(row_sql)
        size += row_bytes
    if batch:
        statements.append(head + ",\n".join(batch))
    return statements
