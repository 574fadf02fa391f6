"""``lineage_breaks`` on the shop graph and a copy of it that lost an edge and a column's
resolution (the CLI test on the template covers a real rename)."""

from __future__ import annotations

import dataclasses

from tests.queries.shop_graph import ORDERS, STG_ORDERS, shop_graph

from dbt_lineage.queries.lineage_breaks import lineage_breaks
from dbt_lineage.types import ColumnRef


def _head() -> object:
    head = shop_graph()
    lost = (ColumnRef(STG_ORDERS, "amount_usd"), ColumnRef(ORDERS, "is_big"))
    head.edges = [edge for edge in head.edges if (edge.source, edge.target) != lost]
    order_id = head.columns[ORDERS]["order_id"]
    head.columns[ORDERS]["order_id"] = dataclasses.replace(
        order_id, resolved=False, reason="unknown_column: column order_id not in stg_orders"
    )
    return head


def test_an_unchanged_graph_has_no_breaks() -> None:
    assert lineage_breaks(shop_graph(), shop_graph()) == []


def test_lost_upstreams_and_newly_unresolved_columns_are_breaks() -> None:
    breaks = [item.to_dict() for item in lineage_breaks(shop_graph(), _head())]
    assert breaks == [
        {
            "node": ORDERS,
            "column": "is_big",
            "kind": "lost_upstream",
            "detail": f"{STG_ORDERS}.amount_usd",
            "upstream": {"node": STG_ORDERS, "column": "amount_usd"},
        },
        {
            "node": ORDERS,
            "column": "order_id",
            "kind": "newly_unresolved",
            "detail": "unknown_column: column order_id not in stg_orders",
        },
    ]


def test_a_model_whose_sql_changed_keeps_only_its_newly_unresolved_columns() -> None:
    breaks = lineage_breaks(shop_graph(), _head(), changed_sql={ORDERS})
    assert [(item.column, item.kind) for item in breaks] == [("order_id", "newly_unresolved")]
