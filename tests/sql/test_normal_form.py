"""``normal_form`` and ``inlined_columns``: what a diff sees of two versions of a query.

Each case is a base and a head query with what must (not) differ: adding a case is adding
a row. Every case runs on each dialect a dbt adapter we support compiles to.
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


DIALECTS = ("snowflake", "bigquery", "redshift", "databricks", "postgres", "duckdb")
_QUALIFY = {"snowflake", "bigquery", "databricks", "duckdb"}


def _relation(parts: tuple[str, ...]) -> str | None:
    return RELATIONS.get(tuple(part.casefold() for part in parts))


def _tree(sql: str, dialect: str = "duckdb"):  # noqa: ANN202 - an opaque NormalTree
    return normal_form(sql, dialect, _relation)


def _columns(sql: str, dialect: str = "duckdb"):  # noqa: ANN202
    return inlined_columns(_tree(sql, dialect), SCHEMA)


def _column(found, name: str):  # noqa: ANN001, ANN202 - a column whatever case the dialect folds to
    return next(form for key, form in found.columns.items() if key.casefold() == name)


dialects = pytest.mark.parametrize("dialect", DIALECTS)


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


@dialects
@pytest.mark.parametrize(("base", "head"), SAME)
def test_comments_formatting_and_environment_schemas_make_no_difference(
    base: str, head: str, dialect: str
) -> None:
    if dialect in ("bigquery", "databricks") and '"' in base:
        base, head = base.replace('"', "`"), head.replace('"', "`")
    if dialect == "bigquery" and base.upper() != base.lower() and "ORDERS" in base:
        return  # BigQuery's table names are case-sensitive: not the same relation there
    assert _tree(base, dialect).text == _tree(head, dialect).text


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


@dialects
@pytest.mark.parametrize(("base", "head", "kind"), ROWS)
def test_row_set_changes_show_in_their_clause(
    base: str, head: str, kind: str, dialect: str
) -> None:
    if kind == "qualify" and dialect not in _QUALIFY:
        return  # no QUALIFY in this dialect's SQL
    if dialect == "bigquery":
        head = head.replace(" union select", " union distinct select")  # BigQuery wants it
    before, after = _columns(base, dialect), _columns(head, dialect)
    changed = [k for k in before.rows if before.rows[k] != after.rows[k]]
    assert kind in changed


@dialects
def test_a_new_column_in_a_cte_leaves_the_row_set_alone(dialect: str) -> None:
    before = _columns("with s as (select id from shop.prod.orders) select * from s", dialect)
    after = _columns(
        "with s as (select id, amount * 2 as doubled from shop.prod.orders) select * from s",
        dialect,
    )
    assert before.rows == after.rows
    assert {k.casefold() for k in set(after.columns) - set(before.columns)} == {"doubled"}


@dialects
def test_columns_are_inlined_through_ctes_and_stars(dialect: str) -> None:
    found = _columns(
        "with a as (select id, amount * 100 as cents from shop.ci_pr_42.orders), "
        "b as (select * from a) select id, cents + 1 as total from b",
        dialect,
    )
    total = _column(found, "total").expression.replace("`", '"')
    assert total.casefold() == '("model.shop.orders".amount * 100) + 1'
    assert _column(found, "id").expression.replace("`", '"').casefold() == (
        '"model.shop.orders".id'
    )


@dialects
def test_columns_of_unknown_type_are_inlined(dialect: str) -> None:
    """A relation whose columns have no type (no catalog): BigQuery's qualify parses every
    type it is given, and an empty one failed it."""
    tree = _tree("select id, amount + 1 as total from shop.prod.orders", dialect)
    found = inlined_columns(tree, {"model.shop.orders": {"id": "", "amount": ""}})
    assert _column(found, "total").expression.casefold().endswith(".amount + 1")


CASTS = [
    ("cast(amount as decimal(12, 2))", "cast(amount as decimal(14, 2))"),
    ("cast(amount as varchar)", "cast(amount as int)"),
    ("cast(amount as decimal(12, 2)) / 100", "cast(amount as double precision) / 100"),
    ("amount::varchar", "amount::timestamp"),
]


@dialects
@pytest.mark.parametrize(("old", "new"), CASTS)
def test_a_changed_cast_differs_only_in_its_typed_form(old: str, new: str, dialect: str) -> None:
    """The crash of issue 19: a CAST's type blanked as a Var failed the Snowflake, Redshift
    and Databricks generators (they want a DataType)."""
    if dialect == "bigquery" and ("::" in old or "decimal" in new):
        return  # no `::` in BigQuery; sqlglot writes its NUMERIC casts without precision
    before = _columns(f"select {old} as amount from shop.prod.orders", dialect)
    after = _columns(f"select {new} as amount from shop.prod.orders", dialect)
    assert _column(before, "amount").expression != _column(after, "amount").expression
    assert _column(before, "amount").untyped == _column(after, "amount").untyped
    assert "?" in _column(after, "amount").untyped


def test_sql_that_does_not_parse_is_an_error() -> None:
    with pytest.raises(SqlError, match="does not parse"):
        _tree("select from where (")


@dialects
def test_user_functions_qualified_by_the_target_are_renamed_as_relations_are(
    dialect: str,
) -> None:
    """Issue 19: production's manifest and a CI build qualify a user function by their own
    database and schema; both read the same once the place is named alike."""
    places = {
        ("prod_db", "analytics"): ("db", "analytics"),
        ("ci_db", "pr_42"): ("db", "analytics"),
    }

    def place(parts: tuple[str, ...]) -> tuple[str, ...] | None:
        return places.get(tuple(part.casefold() for part in parts))

    def text(qualifier: str) -> str:
        sql = f"select {qualifier}.clean_email(name) as email from shop.prod.customers"
        return normal_form(sql, dialect, _relation, place).text

    assert text("prod_db.analytics") == text("ci_db.pr_42")
    assert text("prod_db.analytics") != text("other_db.analytics")  # not the target's
