"""The text view of impact reports: grouped by distance, kinds on every line."""

from __future__ import annotations

from tests.queries.shop_graph import RAW_ORDERS, STG_ORDERS, WEEKLY_REVENUE, shop_graph

from dbt_lineage.outputs.impact_text import impact_text
from dbt_lineage.queries.impact import impact
from dbt_lineage.queries.upstream import upstream
from dbt_lineage.types import ColumnRef

EXPECTED = """\
Impact of model.shop.stg_orders.amount_usd: 5 columns, 4 relations, 2 exposures
Followed all direct and all column-scoped indirect edges, to any depth.

Distance 1
  model.shop.customer_orders.revenue        aggregate  [aggregate]              via model.shop.stg_orders.amount_usd
  model.shop.orders.amount_usd              identity   [identity]               via model.shop.stg_orders.amount_usd
  model.shop.orders.is_big                  transform  [transform]              via model.shop.stg_orders.amount_usd

Distance 2
  model.shop.revenue_summary.total_revenue  aggregate  [aggregate > aggregate]  via model.shop.customer_orders.revenue
  snapshot.shop.orders_snapshot.amount_usd  identity   [identity > identity]    via model.shop.orders.amount_usd

Relations
  1  model     model.shop.customer_orders
  1  model     model.shop.orders
  2  model     model.shop.revenue_summary
  2  snapshot  snapshot.shop.orders_snapshot

Exposures
  2  application  exposure.shop.orders_app (Orders app), reads model.shop.orders
  2  dashboard    exposure.shop.weekly_revenue (Weekly revenue), reads model.shop.customer_orders, model.shop.revenue_summary"""  # noqa: E501


def test_impact_text_golden() -> None:
    report = impact(shop_graph(), ColumnRef(STG_ORDERS, "amount_usd"))
    assert impact_text(report) == EXPECTED


def test_indirect_and_depth_are_said() -> None:
    report = impact(shop_graph(), ColumnRef(RAW_ORDERS, "status"), include_indirect=True, depth=1)
    text = impact_text(report)
    assert text.splitlines()[1] == (
        "Followed all direct and all row-set and column-scoped indirect edges, up to 1 edge away."
    )
    assert "  model.shop.stg_orders.amount_usd   filter    [filter]  " in text
    assert "Distance 2" not in text


def test_upstream_and_empty_reports() -> None:
    report = upstream(shop_graph(), ColumnRef(RAW_ORDERS, "id"), kinds=["identity"])
    assert impact_text(report).splitlines() == [
        "Upstream of source.shop.ecom.raw_orders.id: 0 columns, 0 relations",
        "Followed identity direct edges, to any depth.",
        "Nothing upstream.",
    ]
    assert impact_text(impact(shop_graph(), WEEKLY_REVENUE)).endswith("Nothing downstream.")


def test_a_relation_no_column_reaches_says_why() -> None:
    """model.shop.legacy depends on stg_orders in the manifest but selects none of the
    columns derived from raw_orders: listed, with the reason."""
    lines = impact_text(impact(shop_graph(), RAW_ORDERS)).splitlines()
    legacy = [line for line in lines if "model.shop.legacy" in line]
    assert legacy == [
        "  2  model     model.shop.legacy  (no column of it derives from the target's: reached "
        "through the manifest's dependencies only; --include-indirect also follows joins and "
        "filters)"
    ]
    orders = [line for line in lines if line.endswith("  model.shop.orders")]
    assert orders == ["  2  model     model.shop.orders"], "a relation columns reach: no note"
