"""``dbt-lineage upstream / downstream / impact`` through click, on a saved lineage.json."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from tests.queries.shop_graph import (
    CUSTOMER_ORDERS,
    ORDERS,
    RAW_ORDERS,
    STG_ORDERS,
    WEEKLY_REVENUE,
    shop_graph,
)

from dbt_lineage.cli import main
from dbt_lineage.graph.save import save_graph


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A project directory whose target/ holds the shop's lineage.json."""
    directory = tmp_path_factory.mktemp("shop")
    (directory / "target").mkdir()
    save_graph(shop_graph(), directory / "target" / "lineage.json")
    return directory


def _run(*args: str) -> Result:
    return CliRunner().invoke(main.cli, list(args), catch_exceptions=False)


def test_impact_text(project: Path) -> None:
    result = _run("impact", "stg_orders.amount_usd", "--project-dir", str(project))
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == (
        "Impact of model.shop.stg_orders.amount_usd: 5 columns, 4 relations, 2 exposures"
    )
    assert "Distance 1" in lines and "Distance 2" in lines
    assert any(
        line.split()[:3] == ["model.shop.customer_orders.revenue", "aggregate", "[aggregate]"]
        for line in lines
    )
    assert any(line.split()[2:4] == ["exposure.shop.weekly_revenue", "(Weekly"] for line in lines)


def test_impact_json_with_options(project: Path) -> None:
    result = _run(
        "impact",
        "source:ecom.raw_orders.status",
        "--project-dir",
        str(project),
        "--format",
        "json",
        "--include-indirect",
        "--depth",
        "2",
    )
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert document["target"] == {"node": RAW_ORDERS, "column": "status"}
    assert document["options"]["depth"] == 2
    assert document["options"]["include_indirect"] is True
    by_key = {(c["node"], c["column"]): c for c in document["columns"]}
    assert by_key[(STG_ORDERS, "status")]["kind"] == "identity"
    assert by_key[(STG_ORDERS, "amount_usd")]["kind"] == "filter"
    assert by_key[(CUSTOMER_ORDERS, "revenue")]["path_kinds"] == ["filter", "aggregate"]
    assert by_key[(CUSTOMER_ORDERS, "revenue")]["via"] == {
        "node": STG_ORDERS,
        "column": "amount_usd",
    }
    assert max(c["distance"] for c in document["columns"]) == 2
    assert WEEKLY_REVENUE in {e["node"] for e in document["exposures"]}


def test_impact_of_a_whole_node(project: Path) -> None:
    result = _run(
        "impact", "model.shop.stg_orders", "--project-dir", str(project), "--format", "json"
    )
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert document["target"] == {"node": STG_ORDERS, "column": None}
    assert "model.shop.legacy" in {r["node"] for r in document["relations"]}


def test_upstream_and_downstream(project: Path) -> None:
    lineage = str(project / "target" / "lineage.json")
    up = _run(
        "upstream", "customer_orders.revenue", "--lineage", lineage, "--format", "json",
        "--direct-only",
    )  # fmt: skip
    assert up.exit_code == 0, up.output
    assert [(c["node"], c["column"], c["kind"]) for c in json.loads(up.stdout)["columns"]] == [
        (STG_ORDERS, "amount_usd", "aggregate"),
        (RAW_ORDERS, "amount", "aggregate"),
    ]
    down = _run(
        "downstream", "stg_orders.amount_usd", "--target-path", str(project / "target"),
        "--kind", "identity",
    )  # fmt: skip
    assert down.exit_code == 0, down.output
    assert down.stdout.startswith("Downstream of model.shop.stg_orders.amount_usd: 2 columns")
    assert "Followed identity direct edges, to any depth." in down.stdout
    both = _run("upstream", "customer_orders.revenue", "--lineage", lineage, "--format", "json")
    kinds = {(c["node"], c["column"]): c["kind"] for c in json.loads(both.stdout)["columns"]}
    assert kinds[(STG_ORDERS, "customer_id")] == "join", "upstream shows row-set edges, marked"


def test_unknown_name_is_one_error_line(project: Path) -> None:
    result = _run("impact", "stg_ordrs.amount_usd", "--project-dir", str(project))
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.startswith("Error: no node named 'stg_ordrs'; did you mean stg_orders")
    assert result.stderr.endswith("?\n") and result.stderr.count("\n") == 1
    assert "Traceback" not in result.output


def test_unknown_column_is_one_error_line(project: Path) -> None:
    result = _run("downstream", "orders.amount", "--project-dir", str(project))
    assert result.exit_code == 2
    assert result.stderr == (
        f"Error: no column named 'amount' in {ORDERS}; did you mean amount_usd?\n"
    )


def test_upstream_of_a_whole_node_asks_for_a_column(project: Path) -> None:
    result = _run("upstream", "orders", "--project-dir", str(project))
    assert result.exit_code == 2
    assert result.stderr.startswith(
        f"Error: 'orders' names a node ({ORDERS}), not a column: give NODE.COLUMN; "
        "did you mean orders.order_id"
    )


def test_missing_lineage_json_says_to_build(tmp_path: Path) -> None:
    result = _run("impact", "orders", "--project-dir", str(tmp_path))
    assert result.exit_code == 2
    assert result.stderr.startswith("Error: no lineage.json: run `dbt-lineage build` first")
    assert "Traceback" not in result.output


def test_bad_depth_is_a_usage_error(project: Path) -> None:
    result = _run("impact", "orders", "--project-dir", str(project), "--depth", "0")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1, "one line"
    assert result.stderr.startswith("Error: Invalid value for '--depth'")
    assert "dbt-lineage impact --help" in result.stderr


@pytest.mark.parametrize(
    "args",
    [["impact", "orders", "--format", "xml"], ["build", "--jobs", "0"], ["nosuch"]],
)
def test_usage_errors_are_one_line_and_exit_2(args: list[str]) -> None:
    result = _run(*args)
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("Error: ")


def test_a_project_dir_that_does_not_exist_says_so(tmp_path: Path) -> None:
    result = _run("build", "--project-dir", str(tmp_path / "nope"))
    assert result.exit_code == 2
    assert "project directory does not exist" in result.stderr
