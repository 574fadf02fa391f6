"""The calls around each column of an edge's expression, as classification reads them."""

from __future__ import annotations

import pytest

from dbt_lineage.errors import SqlError
from dbt_lineage.sql.enclosing_calls import enclosing_calls


def _chains(expression: str, dialect: str) -> dict[str, list[str]]:
    return {
        use.column: [call.name for call in use.calls]
        for use in enclosing_calls(expression, dialect)
    }


@pytest.mark.parametrize(
    ("expression", "dialect", "expected"),
    [
        ("MD5(LOWER(c.email))", "duckdb", {"email": ["lower", "md5"]}),
        ("TO_HEX(SHA256(c.email))", "bigquery", {"email": ["sha256", "to_hex"]}),
        ("SHA2(c.email, 256)", "snowflake", {"email": ["sha2"]}),
        ("COUNT(DISTINCT o.customer_id)", "duckdb", {"customer_id": ["count"]}),
        ("COUNT(*) FILTER(WHERE c.email IS NOT NULL)", "duckdb", {"email": ["count"]}),
        ("mask_email(c.email)", "postgres", {"email": ["mask_email"]}),
        ("c.email", "duckdb", {"email": []}),
    ],
)
def test_chains(expression: str, dialect: str, expected: dict[str, list[str]]) -> None:
    assert _chains(expression, dialect) == expected


def test_aggregates_are_marked() -> None:
    [use] = enclosing_calls("ROUND(AVG(o.amount), 2)", "duckdb")
    assert [(call.name, call.aggregate) for call in use.calls] == [
        ("avg", True),
        ("round", False),
    ]


def test_text_that_does_not_parse_raises() -> None:
    with pytest.raises(SqlError, match="does not parse"):
        enclosing_calls("MD5(c.email", "duckdb")
