"""``normal_form`` and ``inlined_columns``: what a diff sees of two versions of a query.

Each case is a base and a head query with what must (not) differ: adding a case is adding
a row.
"""

from __future__ import annotations

import pytest

from dbt_lineage.errors import SqlError
from dbt_lineage.sql.inlined_columns import inlined_columns
from dbt_lineage.sql.normal_form import normal_form

RELATIONS = {
    ("shop", "prod", "orders"): "model.shop.orders",
    ("shop", "ci_pr_42", "orders"): "model.shop.orders",
    ("shop", "prod", "customers"): "model.shop.customers",
    ("shop", "ci_pr_42", "customers"): "model.shop.customers",
}
SCHEMA = {
    "model.shop.orders": {"id": "int", "customer_id": "int", "amount": "int", "status": "text"},
    "model.shop.customers": {"id": "int", "name": "text"},
}


def _tree(sql: str):  # noqa: ANN202 - an opaque NormalTree
    return normal_form(sql, "duckdb", RELATIONS.get)


def _columns(sql: str):  # noqa: ANN202
    return inlined_columns(_tree(sql), SCHEMA)


SAME = [
    # comments and formatting
    (
        "select id, amount from shop.prod.orders",
        "-- a comment\nSELECT\n    id,   /* another */\n    amount\nFROM shop.prod.orders",
    ),
    # environment schemas: the same relation in prod and in a pull request's schema
    (
        'select o.id from "shop"."prod"."orders" as o join shop.prod.customers c on o.id = c.id',
        'select o.id from "shop"."ci_pr_42"."orders" as o join shop.ci_pr_42.customers c '
        "on o.id = c.id",
    ),
    # letter case DuckDB ignores
    ("select ID from SHOP.PROD.ORDERS", "select id from shop.prod.orders"),
]


@pytest.mark.parametrize(("base", "head"), SAME)
def test_comments_formatting_and_environment_schemas_make_no_difference(
    base: str, head: str
) -> None:
    assert _tree(base).text == _tree(head).text


ROWS = [
    # (base, head, the row clause kind that changes)
    (
        "select id from shop.prod.orders where status <> 'returned'",
        "select id from shop.prod.orders",
        "where",
    ),
    (
        "select o.id from shop.prod.orders o left join shop.prod.customers c "
        "on o.customer_id = c.id",
        "select o.id from shop.prod.orders o inner join shop.prod.customers c "
        "on o.customer_id = c.id",
        "join",
    ),
    (
        "select customer_id, sum(amount) as total from shop.prod.orders group by customer_id",
        "select customer_id, sum(amount) as total from shop.prod.orders group by 1, status",
        "group_by",
    ),
    ("select id from shop.prod.orders", "select distinct id from shop.prod.orders", "distinct"),
    (
        "select id from shop.prod.orders order by id limit 10",
        "select id from shop.prod.orders order by id limit 20",
        "limit",
    ),
    (
        "select id from shop.prod.orders",
        "select id from shop.prod.orders qualify row_number() over (partition by id) = 1",
        "qualify",
    ),
    (
        "select id from shop.prod.orders union all select id from shop.prod.customers",
        "select id from shop.prod.orders union select id from shop.prod.customers",
        "union",
    ),
    # an is_incremental() filter that changed
    (
        "select id from shop.prod.orders where id > (select max(id) from shop.prod.customers)",
        "select id from shop.prod.orders where id >= (select max(id) from shop.prod.customers)",
        "where",
    ),
    # a filter on a column a CTE redefines: the filter's text is the same, its meaning is not
    (
        "with s as (select id, status from shop.prod.orders) select id from s where status = 'x'",
        "with s as (select id, upper(status) as status from shop.prod.orders) select id from s "
        "where status = 'x'",
        "where",
    ),
]


@pytest.mark.parametrize(("base", "head", "kind"), ROWS)
def test_row_set_changes_show_in_their_clause(base: str, head: str, kind: str) -> None:
    before, after = _columns(base), _columns(head)
    changed = [k for k in before.rows if before.rows[k] != after.rows[k]]
    assert kind in changed


def test_a_new_column_in_a_cte_leaves_the_row_set_alone() -> None:
    before = _columns("with s as (select id from shop.prod.orders) select * from s")
    after = _columns(
        "with s as (select id, amount * 2 as double from shop.prod.orders) select * from s"
    )
    assert before.rows == after.rows
    assert set(after.columns) - set(before.columns) == {"double"}


def test_columns_are_inlined_through_ctes_and_stars() -> None:
    found = _columns(
        "with a as (select id, amount * 100 as cents from shop.ci_pr_42.orders), "
        "b as (select * from a) select id, cents + 1 as total from b"
    )
    assert found.columns["total"].expression == '("model.shop.orders".amount * 100) + 1'
    assert found.columns["id"].expression == '"model.shop.orders".id'


def test_a_changed_cast_differs_only_in_its_typed_form() -> None:
    before = _columns("select cast(amount as decimal(12, 2)) as amount from shop.prod.orders")
    after = _columns("select cast(amount as decimal(14, 2)) as amount from shop.prod.orders")
    assert before.columns["amount"].expression != after.columns["amount"].expression
    assert before.columns["amount"].untyped == after.columns["amount"].untyped


def test_sql_that_does_not_parse_is_an_error() -> None:
    with pytest.raises(SqlError, match="does not parse"):
        _tree("select from where (")
