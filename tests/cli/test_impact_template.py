"""End to end on the template: dbt build -> dbt-lineage build -> dbt-lineage impact."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from dbt_lineage.cli import main

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def built(template_project: Path) -> Path:
    result = CliRunner().invoke(main.cli, ["build", "--project-dir", str(template_project)])
    assert result.exit_code == 0, result.output
    return template_project


def _impact(project: Path, target: str) -> dict:
    result = CliRunner().invoke(
        main.cli, ["impact", target, "--project-dir", str(project), "--format", "json"]
    )
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_staging_amount_reaches_marts_and_the_exposure(built: Path) -> None:
    document = _impact(built, "stg_payments.amount")
    kinds = {(c["node"], c["column"]): c["kind"] for c in document["columns"]}
    assert kinds[("model.shop.orders", "amount")] == "aggregate"
    assert kinds[("model.shop.customers", "lifetime_value")] == "aggregate"
    assert kinds[("model.shop.fct_daily_revenue", "revenue")] == "aggregate"
    relations = {r["node"] for r in document["relations"]}
    assert {"model.shop.orders", "model.shop.customers", "model.shop.fct_daily_revenue"} <= (
        relations
    )
    [exposure] = document["exposures"]
    assert exposure["node"] == "exposure.shop.weekly_revenue"
    assert exposure["type"] == "dashboard"
    assert exposure["distance"] >= 2


def test_staging_date_passes_through_as_identity(built: Path) -> None:
    document = _impact(built, "shop.stg_orders.order_date")
    by_key = {(c["node"], c["column"]): c for c in document["columns"]}
    assert by_key[("model.shop.orders", "order_date")]["kind"] == "identity"
    daily = by_key[("model.shop.fct_daily_revenue", "order_date")]
    assert daily["kind"] == "identity"
    assert set(daily["path_kinds"]) == {"identity"}
    assert "exposure.shop.weekly_revenue" in {e["node"] for e in document["exposures"]}


def test_a_window_order_key_reaches_the_ranking_column_without_include_indirect(
    built: Path,
) -> None:
    document = _impact(built, "stg_orders.order_date")
    assert document["options"]["include_indirect"] is False
    by_key = {(c["node"], c["column"]): c for c in document["columns"]}
    rank = by_key[("model.shop.int_customer_orders", "customer_order_number")]
    assert rank["kind"] == "window" and rank["distance"] == 1
    assert ("model.shop.orders", "is_first_order") in by_key, "and on downstream"
