"""The scripted no-op pull request across databases moves what dbt renders (relation names,
calls qualified by the target database) and leaves what a model's code writes by hand, as a
real CI build does: a diff of it must find no change."""

from __future__ import annotations

import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "benchmarks"))

from benchkit.pull_requests import pull_request  # noqa: E402

_RAW = (
    "select o.id, {{ target.database }}.util.clean(o.note) as note,\n"
    "  'WAREHOUSE.marts.orders' as copied_from\n"
    "from {{ ref('orders') }} o\n"
    "join WAREHOUSE.marts.customers c on c.id = o.customer_id  -- WAREHOUSE.marts.x"
)
_COMPILED = (
    'select o.id, "WAREHOUSE".util.clean(o.note) as note,\n'
    "  'WAREHOUSE.marts.orders' as copied_from\n"
    'from "WAREHOUSE".marts.orders o\n'
    "join WAREHOUSE.marts.customers c on c.id = o.customer_id  -- WAREHOUSE.marts.x"
)


def _model(name: str, raw: str, compiled: str) -> dict:
    return {
        "resource_type": "model",
        "database": "WAREHOUSE",
        "schema": "marts",
        "relation_name": f'"WAREHOUSE".marts.{name}',
        "raw_code": raw,
        "compiled_code": compiled,
    }


def test_the_noop_moves_rendered_names_and_keeps_hand_written_ones() -> None:
    manifest = {
        "metadata": {"adapter_type": "snowflake"},
        "nodes": {
            "model.shop.orders": _model("orders", "select 1 as id", "select 1 as id"),
            "model.shop.report": _model("report", _RAW, _COMPILED),
        },
        "sources": {"source.shop.raw.events": {"database": "RAW"}},
    }
    head, what = pull_request(json.dumps(manifest), "noop_other_database")
    assert "WAREHOUSE" in what
    report = head["nodes"]["model.shop.report"]
    assert report["database"] == "WAREHOUSE_CI"
    assert report["relation_name"] == '"WAREHOUSE_CI".marts.report'
    assert report["raw_code"] == _RAW
    assert report["compiled_code"] == (
        'select o.id, "WAREHOUSE_CI".util.clean(o.note) as note,\n'
        "  'WAREHOUSE.marts.orders' as copied_from\n"  # a string literal: as written
        'from "WAREHOUSE_CI".marts.orders o\n'
        # a relation read without ref, and a comment: as written
        "join WAREHOUSE.marts.customers c on c.id = o.customer_id  -- WAREHOUSE.marts.x"
    )
