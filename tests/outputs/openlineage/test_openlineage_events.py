"""What the events of the template's run say: runs, failures, column lineage, stable ids."""

from __future__ import annotations

import json
import typing as t
import uuid
from pathlib import Path

import pytest
from tests.outputs.openlineage.conftest import emitted, lineage

pytestmark = pytest.mark.slow

NS = "duckdb://shop.duckdb"


def _end(events: list[dict[str, t.Any]], job_prefix: str) -> dict[str, t.Any]:
    return next(
        e
        for e in events
        if e["job"]["name"].startswith(job_prefix) and e["eventType"] in ("COMPLETE", "FAIL")
    )


def _inputs(field: dict[str, t.Any]) -> dict[tuple[str, str], list[tuple[str, str, bool]]]:
    return {
        (item["name"], item["field"]): [
            (change["type"], change["subtype"], change["masking"])
            for change in item["transformations"]
        ]
        for item in field
    }


def test_parent_run_and_one_start_and_end_per_executed_node(shop: Path) -> None:
    events = emitted(shop)
    results = json.loads((shop / "target" / "run_results.json").read_text())
    invocation = results["metadata"]["invocation_id"]
    executed = [
        r["unique_id"]
        for r in results["results"]
        if r["unique_id"].split(".")[0] in ("model", "seed", "snapshot")
    ]
    assert events[0]["eventType"] == "START" and events[0]["job"]["name"] == "dbt-run-shop"
    assert events[-1]["job"]["name"] == "dbt-run-shop" and events[-1]["eventType"] == "FAIL"
    assert events[0]["run"]["runId"] == invocation
    nodes = events[1:-1]
    assert len(nodes) == 2 * len(executed)
    for event in nodes:
        parent = event["run"]["facets"]["parent"]
        assert parent["run"]["runId"] == invocation
        assert parent["job"] == {"namespace": "dbt", "name": "dbt-run-shop", "facets": {}}
    by_run: dict[str, list[str]] = {}
    for event in nodes:
        by_run.setdefault(event["run"]["runId"], []).append(event["eventType"])
    assert all(types[0] == "START" and len(types) == 2 for types in by_run.values())
    times = [event["eventTime"] for event in events]
    assert times == sorted(times)
    seed_end = _end(events, "shop.main_raw.shop.raw_orders.build.seed")
    assert seed_end["outputs"][0]["name"] == "shop.main_raw.raw_orders"
    assert seed_end["outputs"][0]["outputFacets"]["outputStatistics"]["rowCount"] > 0


def test_a_failed_model_gives_a_fail_event_with_its_message(shop: Path) -> None:
    events = emitted(shop)
    failed = _end(events, "shop.main.shop.broken_orders")
    assert failed["eventType"] == "FAIL"
    error = failed["run"]["facets"]["errorMessage"]
    assert "no_such_column" in error["message"] and error["programmingLanguage"] == "SQL"
    assert "1 node(s) failed" in events[-1]["run"]["facets"]["errorMessage"]["message"]
    start = next(
        e for e in events if e["run"]["runId"] == failed["run"]["runId"] and e is not failed
    )
    assert start["eventType"] == "START" and start["eventTime"] <= failed["eventTime"]


def test_column_lineage_carries_kinds_scopes_and_masking(shop: Path) -> None:
    events = emitted(shop)
    customers = _end(events, "shop.main.shop.customers.build")["outputs"][0]
    facet = customers["facets"]["columnLineage"]
    fields = facet["fields"]
    assert _inputs(fields["customer_id"]["inputFields"]) == {
        ("shop.main.stg_customers", "customer_id"): [("DIRECT", "IDENTITY", False)]
    }
    assert ("DIRECT", "AGGREGATION", False) in _inputs(fields["lifetime_value"]["inputFields"])[
        ("shop.main.orders", "amount")
    ]
    rows = _inputs(facet["dataset"])
    assert ("INDIRECT", "JOIN", False) in rows[("shop.main.stg_customers", "customer_id")]
    assert ("INDIRECT", "GROUP_BY", False) in rows[("shop.main.orders", "customer_id")]
    assert {item["namespace"] for item in facet["dataset"]} == {NS}

    ranked = _end(events, "shop.main.shop.int_customer_orders")["outputs"][0]
    rank = ranked["facets"]["columnLineage"]["fields"]["customer_order_number"]["inputFields"]
    assert _inputs(rank)[("shop.main.stg_orders", "customer_id")] == [("INDIRECT", "WINDOW", False)]

    masked = _end(events, "shop.main.shop.customer_contacts")["outputs"][0]
    contact = masked["facets"]["columnLineage"]["fields"]
    assert _inputs(contact["email_hash"]["inputFields"]) == {
        ("shop.main.stg_customers", "email"): [("DIRECT", "TRANSFORMATION", True)]
    }
    assert _inputs(contact["country_code"]["inputFields"])[
        ("shop.main.stg_customers", "country_code")
    ] == [("DIRECT", "IDENTITY", False)]

    orders = _end(events, "shop.main.shop.orders.build")
    inputs = {dataset["name"] for dataset in orders["inputs"]}
    assert inputs == {"shop.main.int_customer_orders", "shop.main.stg_payments"}
    payments = _inputs(orders["outputs"][0]["facets"]["columnLineage"]["dataset"])
    assert ("INDIRECT", "FILTER", False) in payments[("shop.main.stg_payments", "is_successful")]


def test_job_facets_hold_the_sql_and_source_location(shop: Path) -> None:
    events = emitted(shop)
    job = _end(events, "shop.main.shop.customers.build")["job"]
    assert "left join" in job["facets"]["sql"]["query"]
    assert job["facets"]["sql"]["dialect"] == "duckdb"
    location = job["facets"]["sourceCodeLocation"]
    assert location["url"].endswith("models/marts/customers.sql")
    assert job["facets"]["jobType"]["jobType"] == "MODEL"
    schema = _end(events, "shop.main.shop.customers.build")["outputs"][0]["facets"]["schema"]
    assert {"name": "customer_id", "type": "INTEGER"}.items() <= schema["fields"][0].items()


def test_re_emitting_gives_identical_run_ids(shop: Path) -> None:
    first = emitted(shop, name="first.jsonl")
    second = emitted(shop, name="second.jsonl")
    assert [e["run"]["runId"] for e in first] == [e["run"]["runId"] for e in second]
    assert first == second
    node_ids = {e["run"]["runId"] for e in first[1:-1]}
    assert all(uuid.UUID(run_id).version == 5 for run_id in node_ids)
    assert len(node_ids) == (len(first) - 2) // 2


def test_console_transport_prints_one_event_per_line(shop: Path) -> None:
    result = lineage(shop, "openlineage", "--transport", "console")
    assert result.exit_code == 0, result.output
    lines = [line for line in result.stdout.splitlines() if line.startswith("{")]
    assert len(lines) == len(emitted(shop))
    assert json.loads(lines[0])["job"]["name"] == "dbt-run-shop"


def test_bad_input_is_one_error_line(shop: Path) -> None:
    docs = shop / "docs_results.json"
    generate = json.loads((shop / "target" / "run_results.json").read_text())
    generate["args"]["which"] = "generate"
    docs.write_text(json.dumps(generate))
    result = lineage(shop, "openlineage", "--run-results", str(docs))
    assert result.exit_code == 2
    assert "executes no model" in result.output and "Traceback" not in result.output
    result = lineage(
        shop,
        "openlineage",
        "--transport",
        "http",
        "--url",
        "http://127.0.0.1:9",
        "--api-key-env",
        "DBT_LINEAGE_NO_SUCH_VARIABLE",
    )
    assert result.exit_code == 2 and "DBT_LINEAGE_NO_SUCH_VARIABLE" in result.output
    result = lineage(shop, "openlineage", "--invocation", "x", "--since", "2024-01-01")
    assert result.exit_code == 2 and "give one of" in result.output


def test_kafka_without_its_extra_says_what_to_install(shop: Path) -> None:
    """The dev environment does not install openlineage-python[kafka]: the command says
    what to install instead of failing with an import traceback."""
    result = lineage(
        shop, "openlineage", "--transport", "kafka", "--url", "127.0.0.1:9092", "--topic", "ol"
    )
    assert result.exit_code == 2
    assert "pip install 'openlineage-python[kafka]'" in result.output
