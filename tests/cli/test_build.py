"""``dbt-lineage build`` on real dbt projects: coverage, diagnostics, exit codes, cache."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from dbt_lineage.cli import main

pytestmark = pytest.mark.slow


def _build(project: Path, *args: str) -> Result:
    return CliRunner().invoke(main.cli, ["build", "--project-dir", str(project), *args])


def _lineage(project: Path) -> dict:
    return json.loads((project / "target" / "lineage.json").read_text())


def _unresolved(document: dict) -> dict[tuple[str, str], str]:
    return {
        (node_id, name): column["reason"]
        for node_id, node in document["nodes"].items()
        for name, column in node["columns"].items()
        if column.get("resolved") is False
    }


@pytest.fixture(scope="module")
def template(template_project: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A private copy of the built template, so cache tests can change its manifest."""
    copy = tmp_path_factory.mktemp("template") / "shop"
    shutil.copytree(template_project, copy, symlinks=True)
    return copy


def test_template_resolves_every_column(template: Path) -> None:
    result = _build(template, "--no-cache")
    assert result.exit_code == 0, result.output
    assert "(100.0%)" in result.output
    document = _lineage(template)
    assert _unresolved(document) == {}
    kinds = {node["type"] for node in document["nodes"].values()}
    assert kinds == {"source", "seed", "model", "snapshot", "exposure"}
    email = document["nodes"]["model.shop.stg_customers"]["columns"]["email"]
    assert email["meta"] == {"classification": "pii"}
    assert document["edges"]["direct"]["model.shop.stg_customers"]["email"] == [
        {
            "node": "source.shop.ecom.raw_customers",
            "column": "email",
            "layer": "schema",
            "kind": "transform",
            "expression": "LOWER(TRIM(email))",
        }
    ]
    exposure_parents = {
        e["node"] for e in document["edges"]["depends"]["exposure.shop.weekly_revenue"]
    }
    assert "model.shop.customers" in exposure_parents


def test_ephemeral_model_sits_between_its_reader_and_its_inputs(template: Path) -> None:
    _build(template)
    direct = _lineage(template)["edges"]["direct"]
    upstream = {(e["node"], e["column"]) for e in direct["model.shop.orders"]["credit_card_amount"]}
    assert upstream == {("model.shop.int_order_payments", "credit_card_amount")}
    assert {e["kind"] for e in direct["model.shop.int_order_payments"]["total_amount"]} == {
        "aggregate"
    }


def test_second_build_comes_from_cache_and_a_change_is_resolved_again(template: Path) -> None:
    assert _build(template).exit_code == 0
    warm = _build(template)
    assert "0 node(s) resolved, 12 from cache" in warm.output
    manifest_path = template / "target" / "manifest.json"
    manifest = json.loads(manifest_path.read_text())
    node = manifest["nodes"]["model.shop.customers"]
    node["compiled_code"] = node["compiled_code"].replace("as customer_type", "as customer_segment")
    manifest_path.write_text(json.dumps(manifest))
    changed = _build(template)
    # customers, and customer_contacts, which reads its columns (the catalog's, and the one
    # the SQL now adds)
    assert "2 node(s) resolved, 10 from cache" in changed.output
    columns = _lineage(template)["nodes"]["model.shop.customers"]["columns"]
    assert "customer_segment" in columns
    cold = _build(template, "--no-cache")
    assert "12 node(s) resolved, 0 from cache" in cold.output


def test_a_build_into_another_database_reuses_the_cache_and_gives_the_same_lineage(
    template: Path,
) -> None:
    """A production manifest against a CI build: every relation and every name dbt rendered
    into the SQL moves to another database. The cache still answers every node, and what it
    answers is what resolving the moved SQL gives."""
    # without lineage.json: a build that keeps it as current writes no cache
    (template / "target" / "lineage.json").unlink(missing_ok=True)
    assert _build(template).exit_code == 0
    manifest_path = template / "target" / "manifest.json"
    original = manifest_path.read_text()
    manifest = json.loads(original)
    database = manifest["nodes"]["model.shop.customers"]["database"]
    moved = 0
    for node in [*manifest["nodes"].values(), *manifest["sources"].values()]:
        if node.get("database") != database:
            continue
        node["database"] = f"{database}_ci"
        for field in ("relation_name", "compiled_code"):
            if node.get(field):
                text = node[field].replace(f'"{database}".', f'"{database}_ci".')
                moved += text != node[field]
                node[field] = text
    assert moved > 12
    manifest_path.write_text(json.dumps(manifest))
    try:
        warm = _build(template)
        assert "0 node(s) resolved, 12 from cache" in warm.output, warm.output
        from_cache = _lineage(template)
        cold = _build(template, "--no-cache")
        assert "12 node(s) resolved, 0 from cache" in cold.output
        fresh = _lineage(template)
    finally:
        manifest_path.write_text(original)
    subquery = 'order_date >= (SELECT MAX(order_date) FROM "shop_ci"."main"."fct_daily_revenue")'
    filters = from_cache["edges"]["indirect"]["model.shop.fct_daily_revenue"]["rows"]
    assert subquery in {edge.get("expression") for edge in filters}  # the head's name
    for part in ("nodes", "edges", "diagnostics"):
        assert from_cache[part] == fresh[part], part


def test_a_star_over_a_model_its_catalog_lags_reads_the_same_columns_cold_and_from_cache(
    template: Path,
) -> None:
    """The catalog lists a model's columns before a rename its SQL has since made; a reader's
    ``select *`` expands to what the SQL makes, whether the model resolved first, beside it
    on the other worker, or came from the cache."""
    manifest_path = template / "target" / "manifest.json"
    original = manifest_path.read_text()
    manifest = json.loads(original)
    customers = manifest["nodes"]["model.shop.customers"]
    # an earlier test of this module may have renamed it already
    customers["compiled_code"] = re.sub(
        r"as customer_(type|segment)\b", "as customer_tier", customers["compiled_code"]
    )
    reader = manifest["nodes"]["model.shop.customer_contacts"]
    reader["compiled_code"] = f"select * from {customers['relation_name']}"
    manifest_path.write_text(json.dumps(manifest))
    columns = []
    try:
        for flags in (["--no-cache"], ["--no-cache", "--jobs", "1"], []):
            (template / "target" / "lineage.json").unlink(missing_ok=True)
            assert _build(template, *flags).exit_code == 0
            columns.append(
                list(_lineage(template)["nodes"]["model.shop.customer_contacts"]["columns"])
            )
    finally:
        manifest_path.write_text(original)
    assert "customer_tier" in columns[0]
    assert columns[0] == columns[1] == columns[2]


def test_select_builds_the_node_and_what_it_reads(template: Path, tmp_path: Path) -> None:
    output = tmp_path / "lineage.json"
    result = _build(template, "--select", "stg_orders", "--output", str(output))
    assert result.exit_code == 0, result.output
    nodes = set(json.loads(output.read_text())["nodes"])
    assert "model.shop.stg_orders" in nodes and "source.shop.ecom.raw_orders" in nodes
    assert "model.shop.customers" not in nodes


def test_broken_models_become_diagnostics_and_the_rest_keeps_its_lineage(
    broken_project: Path,
) -> None:
    result = _build(broken_project, "--no-cache")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    [parse_line] = [line for line in lines if "model.broken.map_pick_rates" in line]
    assert "[models/map_pick_rates.sql]" in parse_line and "does not parse" in parse_line
    [missing_line] = [line for line in lines if "model.broken.player_kd_ratio" in line]
    assert "[models/player_kd_ratio.sql]" in missing_line and "headshots" in missing_line
    document = _lineage(broken_project)
    reasons = {item["node_id"]: item["reason"] for item in document["diagnostics"]}
    assert reasons == {
        "model.broken.map_pick_rates": "parse_error",
        "model.broken.player_kd_ratio": "unknown_column",
    }
    unresolved = _unresolved(document)
    assert unresolved[("model.broken.player_kd_ratio", "headshots")].startswith("unknown_column")
    assert {key for key in unresolved if key[0] not in reasons} == set()
    leaderboard = document["edges"]["direct"]["model.broken.player_leaderboard"]
    assert leaderboard and all(edges for edges in leaderboard.values())


def test_strict_fails_when_a_column_is_unresolved(broken_project: Path, tmp_path: Path) -> None:
    result = _build(broken_project, "--strict", "--output", str(tmp_path / "l.json"))
    assert result.exit_code == 1
    assert "--strict: 3 column(s) unresolved" in result.output


def test_unsupported_manifest_is_one_line_error(tmp_path: Path) -> None:
    target = tmp_path / "target"
    target.mkdir()
    (target / "manifest.json").write_text(
        json.dumps(
            {
                "metadata": {
                    "dbt_schema_version": "https://schemas.getdbt.com/dbt/manifest/v4.json"
                },
                "nodes": {},
            }
        )
    )
    result = _build(tmp_path)
    assert result.exit_code == 2
    assert result.output.count("\n") == 1
    assert result.output.startswith("Error: unsupported manifest version v4")
    assert "Traceback" not in result.output


def test_constructs_fixture_resolves_every_column(duckdb_constructs_project: Path) -> None:
    result = _build(duckdb_constructs_project, "--no-cache")
    assert result.exit_code == 0, result.output
    assert _unresolved(_lineage(duckdb_constructs_project)) == {}


def test_postgres_fixture_resolves_every_column(postgres_project: Path) -> None:
    result = _build(postgres_project, "--no-cache")
    assert result.exit_code == 0, result.output
    document = _lineage(postgres_project)
    assert document["metadata"]["adapter_type"] == "postgres"
    assert _unresolved(document) == {}


def test_snowflake_compiled_fixture_without_catalog(
    snowflake_compiled_project: Path, tmp_path: Path
) -> None:
    output = tmp_path / "lineage.json"
    result = _build(snowflake_compiled_project, "--no-cache", "--output", str(output))
    assert result.exit_code == 0, result.output
    assert "No catalog.json" in result.output
    document = json.loads(output.read_text())
    assert document["metadata"]["adapter_type"] == "snowflake"
    assert _unresolved(document) == {}


def test_node_without_compiled_sql_is_named(template: Path, tmp_path: Path) -> None:
    manifest_path = template / "target" / "manifest.json"
    original = manifest_path.read_text()
    manifest = json.loads(original)
    manifest["nodes"]["model.shop.stg_orders"]["compiled_code"] = None
    manifest_path.write_text(json.dumps(manifest))
    try:
        result = _build(template, "--no-cache", "--output", str(tmp_path / "l.json"))
    finally:
        manifest_path.write_text(original)
    assert result.exit_code == 0, result.output
    [line] = [line for line in result.output.splitlines() if "model.shop.stg_orders" in line]
    assert "[models/staging/stg_orders.sql]" in line and "no compiled SQL" in line
    document = json.loads((tmp_path / "l.json").read_text())
    columns = document["nodes"]["model.shop.stg_orders"]["columns"]
    assert columns and all(c["reason"] == "no_compiled_sql" for c in columns.values())
    assert "resolved" not in document["nodes"]["model.shop.stg_customers"]["columns"]["email"]
