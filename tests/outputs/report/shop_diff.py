"""A document in the layout `dbt-lineage diff --format json` writes, over the shop graph."""

from __future__ import annotations

import typing as t

from tests.queries.shop_graph import ORDERS, STG_ORDERS


def shop_diff() -> dict[str, t.Any]:
    """stg_orders changed (one column's logic, one renamed); orders still reads the old name."""
    return {
        "schema_version": 1,
        "verdict": "block",
        "changes": [
            {
                "node": STG_ORDERS,
                "change": "modified",
                "class": "partial",
                "columns": {"amount_usd": "logic", "ordered_at": "renamed_from:created_at"},
                "reasons": ["amount_usd: expression changed"],
                "sql": {
                    "base": "select\n  id as order_id,\n  amount as amount_usd",
                    "head": "select\n  id as order_id,\n  amount * 2 as amount_usd",
                },
            }
        ],
        "impacted": {
            "columns": [
                {
                    "node": ORDERS,
                    "column": "amount_usd",
                    "distance": 1,
                    "via": {"node": STG_ORDERS, "column": "amount_usd", "kind": "identity"},
                }
            ],
            "models": [{"node": ORDERS, "type": "model", "name": "orders", "distance": 1}],
            "exposures": [
                {
                    "node": "exposure.shop.orders_app",
                    "type": "application",
                    "owner": {"name": "Ops", "email": "ops@example.com"},
                    "distance": 2,
                }
            ],
        },
        "broken_references": [
            {
                "node": ORDERS,
                "column": None,
                "reference": {"node": STG_ORDERS, "column": "created_at"},
                "path": "models/orders.sql",
                "kind": "sql",
                "message": "orders still reads stg_orders.created_at",
            }
        ],
        "unknown": [],
        "notes": ["base compiled into analytics_prod, head into ci_pr_42"],
    }
