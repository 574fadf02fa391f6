"""impact: reached columns with distances and kinds, relations, exposures, depth, indirect."""

from __future__ import annotations

import pytest
from tests.queries.shop_graph import (
    CUSTOMER_ORDERS,
    LEGACY,
    ORDERS,
    ORDERS_APP,
    RAW_ORDERS,
    REVENUE_SUMMARY,
    SNAPSHOT,
    STG_ORDERS,
    WEEKLY_REVENUE,
    chain_graph,
    shop_graph,
)

from dbt_lineage.errors import SelectionError
from dbt_lineage.queries.impact import ImpactReport, impact
from dbt_lineage.types import ColumnRef


def _columns(report: ImpactReport) -> dict[ColumnRef, tuple[int, str, tuple[str, ...], ColumnRef]]:
    return {c.ref: (c.distance, c.kind, c.path_kinds, c.via) for c in report.columns}


def _relations(report: ImpactReport) -> dict[str, int]:
    return {r.node_id: r.distance for r in report.relations}


def _exposures(report: ImpactReport) -> dict[str, tuple[int, tuple[str, ...]]]:
    return {e.node_id: (e.distance, e.via) for e in report.exposures}


def test_column_impact_reaches_marts_snapshot_and_exposures() -> None:
    amount = ColumnRef(STG_ORDERS, "amount_usd")
    report = impact(shop_graph(), amount)
    orders_amount = ColumnRef(ORDERS, "amount_usd")
    revenue = ColumnRef(CUSTOMER_ORDERS, "revenue")
    assert _columns(report) == {
        revenue: (1, "aggregate", ("aggregate",), amount),
        orders_amount: (1, "identity", ("identity",), amount),
        ColumnRef(ORDERS, "is_big"): (1, "transform", ("transform",), amount),
        ColumnRef(SNAPSHOT, "amount_usd"): (2, "identity", ("identity", "identity"), orders_amount),
        ColumnRef(REVENUE_SUMMARY, "total_revenue"): (
            2,
            "aggregate",
            ("aggregate", "aggregate"),
            revenue,
        ),
    }
    assert [c.distance for c in report.columns] == [1, 1, 1, 2, 2]
    assert _relations(report) == {CUSTOMER_ORDERS: 1, ORDERS: 1, REVENUE_SUMMARY: 2, SNAPSHOT: 2}
    assert [(r.node_id, r.type) for r in report.relations][-1] == (SNAPSHOT, "snapshot")
    assert _exposures(report) == {
        ORDERS_APP: (2, (ORDERS,)),
        WEEKLY_REVENUE: (2, (CUSTOMER_ORDERS, REVENUE_SUMMARY)),
    }
    assert report.exposures[1].name == "Weekly revenue"
    assert report.exposures[1].type == "dashboard"
    assert report.query == "impact" and report.target == amount
    assert not report.include_indirect


def test_depth_cuts_columns_and_relations() -> None:
    report = impact(shop_graph(), ColumnRef(STG_ORDERS, "amount_usd"), depth=1)
    assert {c.ref for c in report.columns} == {
        ColumnRef(CUSTOMER_ORDERS, "revenue"),
        ColumnRef(ORDERS, "amount_usd"),
        ColumnRef(ORDERS, "is_big"),
    }
    assert _relations(report) == {CUSTOMER_ORDERS: 1, ORDERS: 1}
    # exposures reading a reached relation are listed: they are where the line ends
    assert _exposures(report) == {
        ORDERS_APP: (2, (ORDERS,)),
        WEEKLY_REVENUE: (2, (CUSTOMER_ORDERS,)),
    }
    assert report.depth == 1


def test_a_source_column_with_only_a_filter_reaches_nothing_directly() -> None:
    report = impact(shop_graph(), ColumnRef(RAW_ORDERS, "status"))
    assert _columns(report) == {
        ColumnRef(STG_ORDERS, "status"): (
            1,
            "identity",
            ("identity",),
            ColumnRef(RAW_ORDERS, "status"),
        )
    }
    assert report.exposures == ()


def test_include_indirect_affects_every_column_of_a_filtered_relation() -> None:
    status = ColumnRef(RAW_ORDERS, "status")
    report = impact(shop_graph(), status, include_indirect=True)
    columns = _columns(report)
    # the direct path wins over the filter for the column it copies
    assert columns[ColumnRef(STG_ORDERS, "status")] == (1, "identity", ("identity",), status)
    for name in ("order_id", "customer_id", "amount_usd", "ordered_at"):
        assert columns[ColumnRef(STG_ORDERS, name)] == (1, "filter", ("filter",), status)
    # and on downstream from them, still "filter": the change is to which rows appear
    assert columns[ColumnRef(CUSTOMER_ORDERS, "revenue")] == (
        2,
        "filter",
        ("filter", "aggregate"),
        ColumnRef(STG_ORDERS, "amount_usd"),
    )
    assert columns[ColumnRef(ORDERS, "order_rank")][:3] == (2, "filter", ("filter", "window"))
    assert columns[ColumnRef(REVENUE_SUMMARY, "customers")][:2] == (3, "filter")
    assert _relations(report)[STG_ORDERS] == 1
    assert set(_exposures(report)) == {ORDERS_APP, WEEKLY_REVENUE}
    assert report.include_indirect


def test_include_indirect_join_key() -> None:
    key = ColumnRef(STG_ORDERS, "customer_id")
    by_default = impact(shop_graph(), key)
    assert [(c.ref, c.distance, c.kind) for c in by_default.columns] == [
        (ColumnRef(ORDERS, "order_rank"), 1, "window")
    ], "a window key changes the values of the column the window computes"
    assert not by_default.include_indirect
    report = impact(shop_graph(), key, include_indirect=True)
    columns = _columns(report)
    assert columns == {
        ColumnRef(CUSTOMER_ORDERS, "customer_id"): (1, "join", ("join",), key),
        ColumnRef(CUSTOMER_ORDERS, "name"): (1, "join", ("join",), key),
        ColumnRef(CUSTOMER_ORDERS, "order_count"): (1, "join", ("join",), key),
        ColumnRef(CUSTOMER_ORDERS, "revenue"): (1, "join", ("join",), key),
        ColumnRef(ORDERS, "order_rank"): (1, "window", ("window",), key),
        ColumnRef(REVENUE_SUMMARY, "customers"): (
            2,
            "join",
            ("join", "aggregate"),
            ColumnRef(CUSTOMER_ORDERS, "customer_id"),
        ),
        ColumnRef(REVENUE_SUMMARY, "total_revenue"): (
            2,
            "join",
            ("join", "aggregate"),
            ColumnRef(CUSTOMER_ORDERS, "revenue"),
        ),
    }
    assert _relations(report) == {CUSTOMER_ORDERS: 1, ORDERS: 1, REVENUE_SUMMARY: 2}


def test_whole_node_impact_adds_dependents_without_column_lineage() -> None:
    report = impact(shop_graph(), STG_ORDERS)
    assert _relations(report) == {
        CUSTOMER_ORDERS: 1,
        ORDERS: 1,
        LEGACY: 1,
        REVENUE_SUMMARY: 2,
        SNAPSHOT: 2,
    }
    assert {c.ref for c in report.columns if c.distance == 1} == {
        ColumnRef(CUSTOMER_ORDERS, "order_count"),
        ColumnRef(CUSTOMER_ORDERS, "revenue"),
        ColumnRef(ORDERS, "order_id"),
        ColumnRef(ORDERS, "amount_usd"),
        ColumnRef(ORDERS, "is_big"),
        ColumnRef(ORDERS, "order_rank"),
    }
    assert all(c.ref.node_id != STG_ORDERS for c in report.columns)
    assert _exposures(report) == {
        ORDERS_APP: (2, (ORDERS,)),
        WEEKLY_REVENUE: (2, (CUSTOMER_ORDERS, REVENUE_SUMMARY)),
    }


def test_whole_node_depth_cuts_dependents() -> None:
    report = impact(shop_graph(), STG_ORDERS, depth=1)
    assert _relations(report) == {CUSTOMER_ORDERS: 1, ORDERS: 1, LEGACY: 1}


def test_an_exposure_read_by_the_target_relation_is_one_away() -> None:
    report = impact(shop_graph(), ColumnRef(ORDERS, "is_big"))
    assert report.columns == () and report.relations == ()
    assert _exposures(report) == {ORDERS_APP: (1, (ORDERS,))}


def test_impact_of_an_exposure_is_empty() -> None:
    report = impact(shop_graph(), WEEKLY_REVENUE)
    assert (report.columns, report.relations, report.exposures) == ((), (), ())


def test_strongest_kind_over_every_path_and_strongest_shortest_path() -> None:
    a, b, c = ColumnRef("model.p.a", "x"), ColumnRef("model.p.b", "x"), ColumnRef("model.p.c", "y")
    d, e = ColumnRef("model.p.d", "s"), ColumnRef("model.p.e", "t")
    f, g, h = ColumnRef("model.p.f", "u"), ColumnRef("model.p.g", "v"), ColumnRef("model.p.h", "w")
    graph = chain_graph(
        [
            (a, b, "identity"),
            (b, c, "identity"),
            (a, d, "aggregate"),
            (d, e, "identity"),
            (e, c, "identity"),
            (a, h, "identity"),
            (h, g, "identity"),
            (a, f, "transform"),
            (f, g, "identity"),
            (c, a, "identity"),  # a cycle back to the target changes nothing
        ]
    )
    columns = _columns(impact(graph, a))
    # c: shortest path a > b > c is identity, but a > d > e > c aggregates
    assert columns[c] == (2, "aggregate", ("identity", "identity"), b)
    # g: two shortest paths; the one shown is the stronger
    assert columns[g] == (2, "transform", ("transform", "identity"), f)
    assert a not in columns
    assert len(columns) == 7


def test_unknown_target_is_refused() -> None:
    with pytest.raises(SelectionError, match="no node named 'model.shop.nope.x'"):
        impact(shop_graph(), ColumnRef("model.shop.nope", "x"))
    with pytest.raises(SelectionError, match="no node named 'model.shop.nope'"):
        impact(shop_graph(), "model.shop.nope")


def test_the_graph_index_is_built_once() -> None:
    graph = shop_graph()
    impact(graph, STG_ORDERS)
    index = graph.digraph()
    impact(graph, ColumnRef(STG_ORDERS, "amount_usd"), include_indirect=True)
    assert graph.digraph() is index
