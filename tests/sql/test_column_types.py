"""``column_types`` and ``type_match`` on each dialect: the query written in DuckDB's SQL and
transpiled, as the diff pairs are; a type is checked as the dialect reads it."""

from __future__ import annotations

import pytest
import sqlglot

from dbt_lineage.sql.column_types import column_types
from dbt_lineage.sql.normal_form import normal_form
from dbt_lineage.sql.type_match import type_match

DIALECTS = ("duckdb", "snowflake", "bigquery", "redshift", "databricks", "postgres")

IDS = {("orders",): "model.p.orders", ("payments",): "model.p.payments"}
SCHEMA = {
    "model.p.orders": {"id": "BIGINT", "amount": "DECIMAL(12, 2)", "status": ""},
    "model.p.payments": {"order_id": "BIGINT", "paid": "DATE"},
}

# (query in DuckDB's SQL, {column: expected type in DuckDB's words, or None: not inferred})
CASES = [
    (
        "select cast(status as varchar) as s, amount from orders",
        {"s": "VARCHAR", "amount": "DECIMAL(12, 2)"},
    ),
    ("select id, amount * 2 as a, status from orders", {"id": "BIGINT", "a": None, "status": None}),
    (
        "select 'x' as c, true as b, 1 as n, null as z from orders",
        {"c": "VARCHAR", "b": "BOOLEAN", "n": None, "z": None},
    ),
    (
        "with f as (select id, cast(amount as double) as amount from orders) "
        "select max(amount) as m, min(id) as i, any_value(id) as v, sum(amount) as s from f",
        {"m": "DOUBLE", "i": "BIGINT", "v": "BIGINT", "s": None},
    ),
    (
        "select o.id, p.paid from orders as o join (select order_id, paid from payments) as p "
        "on o.id = p.order_id",
        {"id": "BIGINT", "paid": "DATE"},
    ),
    (
        "select id, cast(amount as double) as a from orders union all "
        "select order_id, cast(paid as varchar) from payments",
        {"id": "BIGINT", "a": None},  # the branches disagree
    ),
    ("select * from payments", {"order_id": "BIGINT", "paid": "DATE"}),
]


def _relation(parts: tuple[str, ...]) -> str | None:
    return IDS.get(tuple(part.casefold() for part in parts))  # Snowflake's are upper case


@pytest.mark.parametrize("dialect", DIALECTS)
@pytest.mark.parametrize(("sql", "expected"), CASES)
def test_column_types(sql: str, expected: dict[str, str | None], dialect: str) -> None:
    written = sqlglot.transpile(sql, read="duckdb", write=dialect)[0]
    schema = {
        table: {
            name: sqlglot.exp.DataType.build(kind, dialect="duckdb").sql(dialect) if kind else ""
            for name, kind in columns.items()
        }
        for table, columns in SCHEMA.items()
    }
    found = column_types(normal_form(written, dialect, _relation), schema)
    found = {name.casefold(): kind for name, kind in found.items()}
    assert set(found) == set(expected), written
    for column, kind in expected.items():
        if kind is None:
            assert found[column] is None, (column, found[column], written)
        else:
            as_written = sqlglot.exp.DataType.build(kind, dialect="duckdb").sql(dialect)
            assert found[column] is not None, (column, written)
            assert type_match(as_written, found[column], dialect) is True, (column, found)


@pytest.mark.parametrize(
    ("declared", "inferred", "dialect", "same"),
    [
        ("varchar", "TEXT", "duckdb", True),
        ("string", "VARCHAR", "snowflake", True),
        ("NUMBER(38,0)", "INT", "snowflake", True),
        ("int64", "BIGINT", "bigquery", True),
        ("numeric", "DECIMAL", "postgres", True),
        ("integer", "int4", "postgres", True),
        ("double precision", "float8", "redshift", True),
        ("string", "VARCHAR", "databricks", True),
        ("decimal(12, 2)", "VARCHAR", "duckdb", False),
        ("date", "TIMESTAMP", "snowflake", False),
        ("boolean", "INT", "postgres", False),
        ("varchar", "TEXT", "postgres", None),  # two types of one family: not told apart
        ("int", "BIGINT", "duckdb", None),
        ("timestamp", "DATETIME", "bigquery", None),
        ("my_domain", "TEXT", "postgres", None),  # a user type
    ],
)
def test_type_match(declared: str, inferred: str, dialect: str, same: bool | None) -> None:
    assert type_match(declared, inferred, dialect) is same
