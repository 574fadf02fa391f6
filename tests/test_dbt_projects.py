"""What a user checks first in each dbt project we ship: dbt built it, and its artifacts say so."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow


def artifact(project: Path, name: str) -> dict:
    return json.loads((project / "target" / name).read_text())


def models(manifest: dict) -> dict[str, dict]:
    return {k: n for k, n in manifest["nodes"].items() if n["resource_type"] == "model"}


def assert_compiled(manifest: dict, adapter_type: str, at_least: int) -> None:
    assert manifest["metadata"]["adapter_type"] == adapter_type
    assert len(models(manifest)) >= at_least
    missing = [k for k, n in models(manifest).items() if not n.get("compiled_code")]
    assert missing == []


def assert_catalogued(manifest: dict, catalog: dict) -> None:
    """Every non-ephemeral model and seed has its columns in the catalog."""
    expected = {
        k
        for k, n in manifest["nodes"].items()
        if n["resource_type"] in {"model", "seed", "snapshot"}
        and n["config"]["materialized"] != "ephemeral"
    }
    assert expected <= set(catalog["nodes"])
    assert all(catalog["nodes"][k]["columns"] for k in expected)


def test_template_builds_with_every_layer(template_project: Path) -> None:
    manifest = artifact(template_project, "manifest.json")
    assert_compiled(manifest, "duckdb", at_least=8)
    assert_catalogued(manifest, artifact(template_project, "catalog.json"))
    materialized = {n["name"]: n["config"]["materialized"] for n in models(manifest).values()}
    assert materialized["int_order_payments"] == "ephemeral"
    assert materialized["fct_daily_revenue"] == "incremental"
    assert "snapshot.shop.orders_snapshot" in manifest["nodes"]
    assert set(manifest["sources"]) == {
        f"source.shop.ecom.raw_{t}" for t in ("customers", "orders", "payments")
    }
    results = artifact(template_project, "run_results.json")["results"]
    assert any(r["unique_id"].startswith("test.") for r in results)


def test_template_tags_pii_and_exposes_the_dashboard(template_project: Path) -> None:
    manifest = artifact(template_project, "manifest.json")
    pii = {"classification": "pii"}
    assert manifest["nodes"]["model.shop.stg_customers"]["columns"]["email"]["meta"] == pii
    assert manifest["sources"]["source.shop.ecom.raw_customers"]["columns"]["email"]["meta"] == pii
    exposure = manifest["exposures"]["exposure.shop.weekly_revenue"]
    assert exposure["type"] == "dashboard"
    assert exposure["owner"]["email"]
    assert "model.shop.fct_daily_revenue" in exposure["depends_on"]["nodes"]


def test_duckdb_constructs_build(duckdb_constructs_project: Path) -> None:
    manifest = artifact(duckdb_constructs_project, "manifest.json")
    assert_compiled(manifest, "duckdb", at_least=20)
    catalog = artifact(duckdb_constructs_project, "catalog.json")
    assert_catalogued(manifest, catalog)
    quoted = catalog["nodes"]["model.duckdb_constructs.quoted_identifiers"]["columns"]
    assert set(quoted) == {"UserId", "Display Name", "COUNTRY"}


def test_broken_project_compiles_every_model(broken_project: Path) -> None:
    manifest = artifact(broken_project, "manifest.json")
    assert_compiled(manifest, "duckdb", at_least=6)
    assert not (broken_project / "target" / "catalog.json").exists()
    sql = models(manifest)["model.broken.player_kd_ratio"]["compiled_code"]
    assert "headshots" in sql


def test_postgres_shop_builds_on_the_server(postgres_project: Path) -> None:
    manifest = artifact(postgres_project, "manifest.json")
    assert_compiled(manifest, "postgres", at_least=8)
    assert_catalogued(manifest, artifact(postgres_project, "catalog.json"))
    snapshot = manifest["nodes"]["snapshot.postgres_shop.customers_snapshot"]
    assert snapshot["relation_name"] == (
        '"postgres"."dbt_lineage_fixture_pg_snapshots"."customers_snapshot"'
    )


def test_snowflake_artifacts_come_from_dbt_snowflake(snowflake_compiled_project: Path) -> None:
    manifest = artifact(snowflake_compiled_project, "manifest.json")
    assert_compiled(manifest, "snowflake", at_least=7)
    assert manifest["metadata"]["dbt_schema_version"].endswith("/manifest/v12.json")
    stg_events = manifest["nodes"]["model.snowflake_compiled.stg_events"]["compiled_code"]
    assert "payload:user.id::number" in stg_events
    assert not (snowflake_compiled_project / "target" / "catalog.json").exists()
