"""The compact document the report embeds: interned strings, integer ids, typed edges."""

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

from dbt_lineage.outputs.report.project_facts import ProjectFacts
from dbt_lineage.outputs.report.report_data import EDGE_KINDS, report_data
from dbt_lineage.outputs.report.run_facts import RunFact
from dbt_lineage.types import ColumnRef


def _decoded(data: dict) -> dict:
    """Columns and edges back to readable keys, as the page rebuilds them."""
    s = data["strings"]
    ids = [s[i] for i in data["nodes"]["id"]]
    cols = [
        ColumnRef(ids[node], s[name])
        for node, name in zip(data["columns"]["node"], data["columns"]["name"], strict=True)
    ]
    edges = {
        (cols[a], cols[b], EDGE_KINDS[k])
        for a, b, k in zip(
            data["edges"]["src"], data["edges"]["dst"], data["edges"]["kind"], strict=True
        )
    }
    rows = {
        (cols[a], ids[b], EDGE_KINDS[k])
        for a, b, k in zip(
            data["rows"]["src"], data["rows"]["dst"], data["rows"]["kind"], strict=True
        )
    }
    depends = {
        (ids[a], ids[b])
        for a, b in zip(data["depends"]["src"], data["depends"]["dst"], strict=True)
    }
    return {"ids": ids, "cols": cols, "edges": edges, "rows": rows, "depends": depends}


def test_every_string_is_stored_once_and_referred_to_by_index() -> None:
    data = report_data(shop_graph())
    strings = data["strings"]
    assert strings[0] == ""
    assert len(strings) == len(set(strings))
    # A column name used by several relations is one string.
    assert strings.count("customer_id") == 1
    assert all(isinstance(value, int) for value in data["columns"]["name"])


def test_direct_window_and_row_set_edges_keep_their_kind_and_scope() -> None:
    decoded = _decoded(report_data(shop_graph()))
    assert (
        ColumnRef(STG_ORDERS, "amount_usd"),
        ColumnRef(CUSTOMER_ORDERS, "revenue"),
        "aggregate",
    ) in decoded["edges"]
    # Column-scoped (window keys) go column to column, with the values they change.
    assert (
        ColumnRef(STG_ORDERS, "ordered_at"),
        ColumnRef(ORDERS, "order_rank"),
        "window",
    ) in decoded["edges"]
    # Row-set edges go to the relation whose rows they decide.
    assert (ColumnRef(RAW_ORDERS, "status"), STG_ORDERS, "filter") in decoded["rows"]
    assert (CUSTOMER_ORDERS, WEEKLY_REVENUE) in decoded["depends"]
    assert len(decoded["cols"]) == sum(len(c) for c in shop_graph().columns.values())


def test_sql_tests_and_runs_land_on_their_nodes() -> None:
    facts = ProjectFacts(
        sql={ORDERS: "select 1 as order_id"},
        node_tests={ORDERS: ["unique_combination"]},
        column_tests={ColumnRef(ORDERS, "order_id"): ["not_null", "unique"]},
    )
    runs = {ORDERS: RunFact(ORDERS, "success", "inv-1", "2026-01-01", 3, 0.2, "", "build")}
    data = report_data(shop_graph(), project=facts, runs=runs)
    s = data["strings"]
    decoded = _decoded(data)
    orders = decoded["ids"].index(ORDERS)
    assert s[data["nodes"]["sql"][orders]] == "select 1 as order_id"
    assert [s[i] for i in data["nodes"]["tests"][orders]] == ["unique_combination"]
    order_id = decoded["cols"].index(ColumnRef(ORDERS, "order_id"))
    assert [[order_id, [s.index("not_null"), s.index("unique")]]] == data["columns"]["tests"]
    assert data["runs"]["node"] == [orders]
    assert s[data["runs"]["status"][0]] == "success" and data["runs"]["rows"] == [3]
    assert data["runs"]["source"] == "run_results"


def test_a_diff_document_is_embedded_with_base_and_head_sql() -> None:
    diff = {
        "schema_version": 1,
        "verdict": "review",
        "changes": [
            {
                "node": ORDERS,
                "change": "modified",
                "class": "partial",
                "columns": {"amount_usd": "logic"},
                "reasons": ["amount_usd: expression changed"],
            },
            {"node": "model.shop.gone", "change": "removed", "class": "breaking", "columns": {}},
        ],
        "impacted": {"columns": [], "models": [], "exposures": []},
        "broken_references": [],
        "unknown": [],
    }
    data = report_data(
        shop_graph(),
        project=ProjectFacts(sql={ORDERS: "select 2"}),
        diff=diff,
        base_sql={ORDERS: "select 1", "model.shop.gone": "select 0"},
    )
    assert data["diff"]["verdict"] == "review"
    assert data["diff"]["sql"][ORDERS] == {"base": "select 1", "head": "select 2"}
    assert data["diff"]["sql"]["model.shop.gone"] == {"base": "select 0", "head": ""}
    json.dumps(data)  # plain JSON values throughout
