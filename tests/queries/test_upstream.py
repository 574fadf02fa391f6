"""upstream: what a column derives from, back to sources."""

from __future__ import annotations

import pytest
from tests.queries.shop_graph import (
    CUSTOMER_ORDERS,
    ORDERS,
    RAW_CUSTOMERS,
    RAW_ORDERS,
    REVENUE_SUMMARY,
    STG_CUSTOMERS,
    STG_ORDERS,
    shop_graph,
)

from dbt_lineage.errors import SelectionError
from dbt_lineage.queries.upstream import upstream
from dbt_lineage.types import ColumnRef


def test_upstream_back_to_sources_with_kinds() -> None:
    total = ColumnRef(REVENUE_SUMMARY, "total_revenue")
    report = upstream(shop_graph(), total, include_indirect=False)
    assert {c.ref: (c.distance, c.kind, c.path_kinds, c.via) for c in report.columns} == {
        ColumnRef(CUSTOMER_ORDERS, "revenue"): (1, "aggregate", ("aggregate",), total),
        ColumnRef(STG_ORDERS, "amount_usd"): (
            2,
            "aggregate",
            ("aggregate", "aggregate"),
            ColumnRef(CUSTOMER_ORDERS, "revenue"),
        ),
        ColumnRef(RAW_ORDERS, "amount"): (
            3,
            "aggregate",
            ("aggregate", "aggregate", "transform"),
            ColumnRef(STG_ORDERS, "amount_usd"),
        ),
    }
    assert [(r.node_id, r.type, r.distance) for r in report.relations] == [
        (CUSTOMER_ORDERS, "model", 1),
        (STG_ORDERS, "model", 2),
        (RAW_ORDERS, "source", 3),
    ]
    assert report.exposures == ()
    assert report.query == "upstream"


def test_upstream_identity_only_and_depth() -> None:
    snapshot_amount = ColumnRef("snapshot.shop.orders_snapshot", "amount_usd")
    identity = upstream(shop_graph(), snapshot_amount, kinds=["identity"])
    assert [c.ref for c in identity.columns] == [
        ColumnRef(ORDERS, "amount_usd"),
        ColumnRef(STG_ORDERS, "amount_usd"),
    ]
    shallow = upstream(shop_graph(), snapshot_amount, depth=1)
    assert [c.ref for c in shallow.columns] == [ColumnRef(ORDERS, "amount_usd")]


def test_upstream_shows_the_columns_that_steer_rows_by_default() -> None:
    revenue = ColumnRef(CUSTOMER_ORDERS, "revenue")
    report = upstream(shop_graph(), revenue)
    assert report.include_indirect
    columns = {c.ref: (c.distance, c.kind) for c in report.columns}
    assert columns[ColumnRef(STG_ORDERS, "amount_usd")] == (1, "aggregate")
    assert columns[ColumnRef(STG_ORDERS, "customer_id")] == (1, "join")
    assert columns[ColumnRef(STG_CUSTOMERS, "customer_id")] == (1, "join")
    assert columns[ColumnRef(RAW_CUSTOMERS, "id")] == (2, "join")
    assert columns[ColumnRef(RAW_ORDERS, "amount")] == (2, "aggregate")
    assert columns[ColumnRef(RAW_ORDERS, "status")] == (2, "filter")
    assert ColumnRef(STG_CUSTOMERS, "name") not in columns


def test_upstream_of_a_window_column_follows_its_keys() -> None:
    rank = ColumnRef(ORDERS, "order_rank")
    report = upstream(shop_graph(), rank, include_indirect=False)
    columns = {c.ref: (c.distance, c.kind) for c in report.columns}
    assert columns[ColumnRef(STG_ORDERS, "ordered_at")] == (1, "window")
    assert columns[ColumnRef(STG_ORDERS, "customer_id")] == (1, "window")
    assert columns[ColumnRef(RAW_ORDERS, "created_at")] == (2, "window")
    assert upstream(shop_graph(), rank, kinds=["window"]).columns[0].kind == "window"


def test_unknown_kind_is_refused_with_suggestions() -> None:
    with pytest.raises(SelectionError, match="no edge kind 'identiy'; did you mean identity"):
        upstream(shop_graph(), ColumnRef(ORDERS, "is_big"), kinds=["identiy"])
