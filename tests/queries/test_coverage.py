"""Coverage by group on the shop graph: every figure, and the thresholds."""

from __future__ import annotations

import pytest
from tests.queries.shop_graph import (
    CUSTOMER_ORDERS,
    LEGACY,
    ORDERS,
    RAW_CUSTOMERS,
    REVENUE_SUMMARY,
    SNAPSHOT,
    STG_CUSTOMERS,
    STG_ORDERS,
    shop_graph,
)

from dbt_lineage.queries.coverage import coverage
from dbt_lineage.types import ColumnRef


def test_by_resource_type() -> None:
    graph = shop_graph()
    report = coverage(
        graph,
        by="resource_type",
        tests=[ColumnRef(STG_ORDERS, "ORDER_ID"), ColumnRef(RAW_CUSTOMERS, "id")],
        classified=[ColumnRef(RAW_CUSTOMERS, "email"), ColumnRef(STG_CUSTOMERS, "email")],
    )
    groups = {group.group: group for group in report.groups}
    assert set(groups) == {"model", "snapshot", "source"}
    model = groups["model"]
    assert (model.relations, model.models, model.columns) == (6, 6, 19)
    assert (model.lineage_columns, model.resolved) == (19, 18)  # legacy.whatever unresolved
    assert model.tested == 1  # stg_orders.order_id, matched ignoring case
    assert model.classified == 1
    # orders_app reads orders; weekly_revenue reads customer_orders and revenue_summary
    assert model.no_exposure == (LEGACY,)
    source = groups["source"]
    assert (source.lineage_columns, source.resolved, source.percent("resolved")) == (0, 0, None)
    assert source.tested == 1
    assert report.total is not None and report.total.columns == 29  # 19 + 2 + 8


def test_reach_and_orphans() -> None:
    report = coverage(shop_graph(), by="resource_type")
    groups = {group.group: group for group in report.groups}
    # the snapshot's columns: nothing reads them and no exposure reads the snapshot
    assert (groups["snapshot"].orphans, groups["snapshot"].reach_exposure) == (2, 0)
    # raw_customers.name -> customer_orders.name, read by weekly_revenue: reaches it;
    # raw_orders.created_at -> stg_orders.ordered_at -> (window key of) orders.order_rank,
    # read by orders_app: reaches it too. raw_orders.status only filters stg_orders and
    # raw_customers.email stops at stg_customers: 6 of 8 reach one.
    assert groups["source"].reach_exposure == 6
    assert groups["source"].orphans == 0


def test_by_layer_folder_and_owner() -> None:
    graph = shop_graph()
    layers = {g.group for g in coverage(graph, by="layer").groups}
    assert layers == {"staging", "models", "snapshots", "sources"}
    owners = coverage(graph, by="owner", owners={ORDERS: "Sales"})
    assert {g.group: g.relations for g in owners.groups} == {"Sales": 1, "(no owner)": 8}
    with pytest.raises(ValueError, match="by must be one of"):
        coverage(graph, by="colour")


def test_thresholds() -> None:
    report = coverage(shop_graph(), by="layer")
    resolved, documented = report.check({"resolved": 95.0, "documented": 0.0})
    assert (resolved.actual, resolved.passed) == (95.2, True)  # 20 of 21
    assert documented.passed
    [failed] = report.check({"resolved": 99.5, "documented": None})
    assert not failed.passed


def test_without_grouping_the_build_summary_figures_stay() -> None:
    report = coverage(shop_graph())
    assert report.groups == () and report.total is None
    assert (report.columns_total, report.columns_resolved) == (21, 20)
    assert set(report.unresolved) == {"parse_error"}
    assert CUSTOMER_ORDERS not in report.no_upstream and SNAPSHOT not in report.orphans
    assert REVENUE_SUMMARY not in report.no_upstream
