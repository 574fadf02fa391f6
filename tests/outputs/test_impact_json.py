"""The JSON document of impact reports: stable, nested keys, documented layout."""

from __future__ import annotations

import json

from tests.queries.shop_graph import (
    CUSTOMER_ORDERS,
    ORDERS,
    RAW_ORDERS,
    STG_ORDERS,
    WEEKLY_REVENUE,
    shop_graph,
)

from dbt_lineage.outputs.impact_json import ImpactDocument, impact_json
from dbt_lineage.queries.impact import impact
from dbt_lineage.types import ColumnRef


def test_impact_json_golden() -> None:
    report = impact(shop_graph(), ColumnRef(ORDERS, "amount_usd"))
    assert json.loads(impact_json(report)) == {
        "schema_version": 2,
        "query": "impact",
        "target": {"node": ORDERS, "column": "amount_usd"},
        "options": {
            "depth": None,
            "include_indirect": False,
            "kinds": [
                "identity",
                "transform",
                "aggregate",
                "join",
                "filter",
                "group_by",
                "window",
                "sort",
                "distinct",
            ],
        },
        "columns": [
            {
                "node": "snapshot.shop.orders_snapshot",
                "column": "amount_usd",
                "distance": 1,
                "kind": "identity",
                "path_kinds": ["identity"],
                "via": {"node": ORDERS, "column": "amount_usd"},
            }
        ],
        "relations": [
            {
                "node": "snapshot.shop.orders_snapshot",
                "type": "snapshot",
                "name": "orders_snapshot",
                "distance": 1,
            }
        ],
        "exposures": [
            {
                "node": "exposure.shop.orders_app",
                "name": "Orders app",
                "type": "application",
                "distance": 1,
                "via": [ORDERS],
            }
        ],
        "summary": {"columns": 1, "relations": 1, "exposures": 1, "max_distance": 1},
    }


def test_node_target_and_indirect_options() -> None:
    document = json.loads(impact_json(impact(shop_graph(), STG_ORDERS, include_indirect=True)))
    assert document["target"] == {"node": STG_ORDERS, "column": None}
    assert document["options"]["include_indirect"] is True
    assert "join" in document["options"]["kinds"]
    kinds = {(c["node"], c["column"]): c["kind"] for c in document["columns"]}
    assert kinds[(CUSTOMER_ORDERS, "name")] == "join"
    assert kinds[(CUSTOMER_ORDERS, "revenue")] == "aggregate"
    assert {e["node"] for e in document["exposures"]} >= {WEEKLY_REVENUE}


def test_no_joined_keys_anywhere() -> None:
    report = impact(shop_graph(), ColumnRef(RAW_ORDERS, "amount"), include_indirect=True)
    document = json.loads(impact_json(report))

    def keys(value: object) -> set[str]:
        if isinstance(value, dict):
            return set(value) | {k for v in value.values() for k in keys(v)}
        if isinstance(value, list):
            return {k for v in value for k in keys(v)}
        return set()

    assert keys(document) == {
        "schema_version", "query", "target", "options", "columns", "relations", "exposures",
        "summary", "node", "column", "depth", "include_indirect", "kinds", "distance", "kind",
        "path_kinds", "via", "type", "name", "max_distance",
    }  # fmt: skip


def test_document_validates_against_its_model() -> None:
    text = impact_json(impact(shop_graph(), STG_ORDERS), indent=None)
    assert "\n" not in text
    document = ImpactDocument.model_validate_json(text)
    assert document.summary.max_distance == max(c.distance for c in document.columns)
    assert ImpactDocument.model_json_schema()["title"] == "ImpactDocument"
