"""downstream: the columns a column feeds, filtered by kind."""

from __future__ import annotations

from tests.queries.shop_graph import (
    CUSTOMER_ORDERS,
    ORDERS,
    RAW_ORDERS,
    REVENUE_SUMMARY,
    SNAPSHOT,
    STG_ORDERS,
    shop_graph,
)

from dbt_lineage.queries.downstream import downstream
from dbt_lineage.queries.impact import impact
from dbt_lineage.types import ColumnRef


def test_downstream_is_impact_of_a_column() -> None:
    amount = ColumnRef(STG_ORDERS, "amount_usd")
    graph = shop_graph()
    report = downstream(graph, amount)
    assert report.query == "downstream"
    assert report.columns == impact(graph, amount).columns
    assert report.exposures == impact(graph, amount).exposures


def test_downstream_follows_only_the_kinds_asked_for() -> None:
    amount = ColumnRef(RAW_ORDERS, "amount")
    identity = downstream(shop_graph(), amount, kinds=["identity"])
    assert identity.columns == ()
    report = downstream(shop_graph(), amount, kinds=["transform", "identity"])
    assert [(c.ref, c.kind) for c in report.columns] == [
        (ColumnRef(STG_ORDERS, "amount_usd"), "transform"),
        (ColumnRef(ORDERS, "amount_usd"), "transform"),
        (ColumnRef(ORDERS, "is_big"), "transform"),
        (ColumnRef(SNAPSHOT, "amount_usd"), "transform"),
    ]
    assert report.kinds == ("identity", "transform")
    assert CUSTOMER_ORDERS not in {r.node_id for r in report.relations}


def test_downstream_of_a_filter_column_by_indirect_kind_only() -> None:
    status = ColumnRef(RAW_ORDERS, "status")
    assert downstream(shop_graph(), status, kinds=["filter"]).columns == ()
    report = downstream(shop_graph(), status, kinds=["filter"], include_indirect=True)
    assert {c.ref.node_id for c in report.columns} == {STG_ORDERS}
    assert all(c.kind == "filter" for c in report.columns)
    everything = downstream(shop_graph(), status, include_indirect=True)
    assert REVENUE_SUMMARY in {r.node_id for r in everything.relations}
