"""Row-set changes in words, from real SQL on every dialect: the clause texts the diff
compares (``sql.inlined_columns``) of a base and a head query, then ``row_set_words``."""

from __future__ import annotations

import pytest

from dbt_lineage.queries.row_set_words import row_set_words
from dbt_lineage.sql.inlined_columns import inlined_columns
from dbt_lineage.sql.normal_form import normal_form

DIALECTS = ("snowflake", "bigquery", "databricks", "redshift", "postgres", "duckdb")
NAMES = {"where": "WHERE", "join": "JOIN", "union": "UNION branches", "distinct": "DISTINCT"}
SELECT = "select o.id, c.name from shop.orders as o"
CASES = [
    # (clause kind, base SQL, head SQL, words)
    ("where", f"{SELECT} join shop.customers as c on o.cid = c.id",
     f"{SELECT} join shop.customers as c on o.cid = c.id where o.amount > 0", "WHERE added"),
    ("where", f"{SELECT} join shop.customers as c on o.cid = c.id where o.amount > 0",
     f"{SELECT} join shop.customers as c on o.cid = c.id", "WHERE removed"),
    ("where", f"{SELECT} join shop.customers as c on o.cid = c.id where o.amount > 0",
     f"{SELECT} join shop.customers as c on o.cid = c.id where o.amount > 10", "WHERE changed"),
    ("join", f"{SELECT} left join shop.customers as c on o.cid = c.id",
     f"{SELECT} inner join shop.customers as c on o.cid = c.id",
     "LEFT JOIN -> INNER JOIN (customers)"),
    ("join", f"{SELECT} left outer join shop.customers as c on o.cid = c.id",
     f"{SELECT} join shop.customers as c on o.cid = c.id",
     "LEFT JOIN -> INNER JOIN (customers)"),
    ("join", f"{SELECT} join shop.customers as c on o.cid = c.id",
     f"{SELECT} join shop.customers as c on o.customer_id = c.id",
     "INNER JOIN (customers) condition changed"),
    ("join", f"{SELECT} join shop.customers as c on o.cid = c.id",
     f"{SELECT} join shop.customers as c on o.cid = c.id "
     "left join shop.payments as p on p.oid = o.id", "LEFT JOIN (payments) added"),
    ("union", "select id from shop.orders union all select id from shop.refunds",
     "select id from shop.orders union distinct select id from shop.refunds",
     "UNION ALL -> UNION DISTINCT"),
    ("distinct", "select id from shop.orders", "select distinct id from shop.orders",
     "DISTINCT added"),
]  # fmt: skip


def _rows(sql: str, dialect: str) -> dict[str, str]:
    tree = normal_form(sql, dialect, lambda parts: f"model.shop.{parts[-1].lower()}")
    return inlined_columns(tree, {}).rows


@pytest.mark.parametrize("dialect", DIALECTS)
@pytest.mark.parametrize(("kind", "base", "head", "words"), CASES)
def test_row_set_change_in_words(kind: str, base: str, head: str, words: str, dialect: str) -> None:
    if kind == "union" and dialect in ("snowflake", "redshift", "postgres", "duckdb"):
        # UNION DISTINCT is BigQuery's and Spark's spelling; the others write UNION
        head = head.replace("union distinct", "union")
    before, after = _rows(base, dialect), _rows(head, dialect)
    assert before[kind] != after[kind]
    assert row_set_words(NAMES[kind], before[kind], after[kind]) == words
