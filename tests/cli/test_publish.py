"""``dbt-lineage publish`` end to end: real dbt, then the edges written through dbt's own
adapter to DuckDB (the template) and to the PostgreSQL server (fixtures/postgres_shop)."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import shutil
import typing as t
import uuid
from pathlib import Path

import pytest
from click.testing import CliRunner
from tests.cli.test_trace import (
    drop_postgres_schemas,
    duckdb_profiles,
    duckdb_rows,
    lineage,
    postgres_profiles,
    postgres_rows,
)
from tests.dbt_projects import PG_PORT, REPO, copy_project, dbt

from dbt_lineage.cli import main
from dbt_lineage.graph.io import load_graph
from dbt_lineage.graph.save import save_graph
from dbt_lineage.outputs.warehouse import publish as writer
from dbt_lineage.outputs.warehouse.connection import connection
from dbt_lineage.outputs.warehouse.edge_rows import EdgeRow
from dbt_lineage.types import EdgeKind

pytestmark = pytest.mark.slow

NASTY = (
    "it's a \"test\" $$ dollar $$ $tag$ \\backslash\\ \\' \n newline \r\n tab\t "
    "ünïcödé ✓ 漢字 '' -- not a comment; /* nor this */ end"
)


def json_edges(path: Path) -> list[tuple[t.Any, ...]]:
    """The edges of a lineage.json, read from the document itself, as table rows."""
    document = json.loads(path.read_text())
    edges = []
    for node, by_column in document["edges"]["direct"].items():
        for column, entries in by_column.items():
            edges += [("direct", e["node"], e.get("column"), node, column) for e in entries]
    for node, sections in document["edges"]["indirect"].items():
        entries = sections.get("rows", [])
        edges += [("indirect", e["node"], e.get("column"), node, None) for e in entries]
        for column, entries in sections.get("columns", {}).items():
            edges += [("indirect", e["node"], e.get("column"), node, column) for e in entries]
    for node, entries in document["edges"]["depends"].items():
        edges += [("depends", e["node"], e.get("column"), node, None) for e in entries]
    return edges


def manifest_edges(path: Path) -> set[tuple[str, str]]:
    """(parent, child) depends_on pairs between relations, and relations to exposures."""
    manifest = json.loads(path.read_text())
    relations = {
        uid: node
        for uid, node in manifest["nodes"].items()
        if node["resource_type"] in ("model", "seed", "snapshot")
        and node.get("config", {}).get("enabled", True)
    }
    relations.update(manifest["sources"])
    children = {**relations, **manifest.get("exposures", {})}
    return {
        (parent, child)
        for child, node in children.items()
        for parent in node.get("depends_on", {}).get("nodes", [])
        if parent in relations
    }


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The template on DuckDB (no hook: publish creates the lineage schema itself)."""
    root = tmp_path_factory.mktemp("publish_duckdb")
    project = copy_project(REPO / "dbt_project_template", root)
    (project / "profiles.yml").write_text(duckdb_profiles("shop", root / "shop.duckdb"))
    dbt(project, "build")
    result = lineage(project, "build")
    assert result.exit_code == 0, result.output
    return project


def edge_count(project: Path, checksum: str) -> int:
    ((count,),) = duckdb_rows(
        project.parent / "shop.duckdb",
        "select count(*) from main_lineage.lineage_column_edges where manifest_checksum = ?",
        [checksum],
    )
    return count


def test_publish_writes_every_edge_of_lineage_json_once(shop: Path) -> None:
    path = shop / "target" / "lineage.json"
    expected = json_edges(path)
    checksum = load_graph(path).metadata.manifest_checksum
    for _ in range(2):
        result = lineage(shop, "publish")
        assert result.exit_code == 0, result.output
        assert f"Published {len(expected)} edges from lineage.json" in result.stdout
        assert edge_count(shop, checksum) == len(expected)
    rows = duckdb_rows(
        shop.parent / "shop.duckdb",
        "select edge_type, from_unique_id, from_column, to_unique_id, to_column, layer, "
        "project, origin from main_lineage.lineage_column_edges where manifest_checksum = ?",
        [checksum],
    )
    assert sorted(row[:5] for row in rows) == sorted(expected)
    assert {row[5:] for row in rows} == {("schema", "shop", "lineage.json")}


def test_without_lineage_json_the_manifest_edges_are_published(shop: Path, tmp_path: Path) -> None:
    target = tmp_path / "target"
    target.mkdir()
    shutil.copy(shop / "target" / "manifest.json", target / "manifest.json")
    checksum = hashlib.sha256((target / "manifest.json").read_bytes()).hexdigest()
    result = lineage(shop, "publish", "--target-path", str(target))
    assert result.exit_code == 0, result.output
    assert "No lineage.json" in result.stderr
    assert "publishing the manifest's model-level edges" in result.stderr
    rows = duckdb_rows(
        shop.parent / "shop.duckdb",
        "select from_unique_id, to_unique_id, edge_type, from_column, origin "
        "from main_lineage.lineage_column_edges where manifest_checksum = ?",
        [checksum],
    )
    expected = manifest_edges(target / "manifest.json")
    assert expected and len(rows) == len(expected)
    assert {row[:2] for row in rows} == expected
    assert {row[2:] for row in rows} == {("depends", None, "manifest.json")}


@pytest.mark.parametrize("warehouse", ["duckdb", "postgres"])
def test_values_round_trip_exactly(
    warehouse: str, shop: Path, postgres_shop: tuple[Path, str], tmp_path: Path
) -> None:
    project = shop if warehouse == "duckdb" else postgres_shop[0]
    graph = load_graph(project / "target" / "lineage.json")
    checksum = f"roundtrip-{uuid.uuid4().hex}"
    edge = dataclasses.replace(graph.edges[0], expression=NASTY, kind=EdgeKind.IDENTITY)
    graph = dataclasses.replace(
        graph,
        edges=[edge],
        metadata=dataclasses.replace(graph.metadata, manifest_checksum=checksum),
    )
    save_graph(graph, tmp_path / "lineage.json")
    result = lineage(project, "publish", "--lineage", str(tmp_path / "lineage.json"))
    assert result.exit_code == 0, result.output
    sql = "select expression from {schema}.lineage_column_edges where manifest_checksum = "
    if warehouse == "duckdb":
        path = shop.parent / "shop.duckdb"
        rows = duckdb_rows(path, sql.format(schema="main_lineage") + "?", [checksum])
    else:
        rows = postgres_rows(sql.format(schema=postgres_shop[1]) + "%s", (checksum,))
    assert rows == [(NASTY,)]


def test_large_publishes_are_split_into_statements(shop: Path) -> None:
    rows = [
        EdgeRow(
            "direct", "transform", f"model.shop.a{i}", "x", "model.shop.b", "y", NASTY, "schema"
        )
        for i in range(3000)
    ]
    checksum = f"batches-{uuid.uuid4().hex}"
    with connection(shop, profiles_dir=shop) as warehouse:
        result = writer.publish(
            warehouse,
            rows,
            manifest_checksum=checksum,
            origin="lineage.json",
            max_statement_bytes=100_000,
        )
    size = sum(len(str(row).encode()) for row in rows)
    assert result.rows == 3000
    assert result.statements >= size // 100_000 > 1
    assert edge_count(shop, checksum) == 3000


def test_an_unknown_target_is_a_one_line_error(shop: Path) -> None:
    result = lineage(shop, "publish", "--target", "nowhere")
    assert result.exit_code == 2
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith("Error: cannot load the dbt project and profile:")
    assert "nowhere" in line


@pytest.fixture(scope="module")
def postgres_shop(tmp_path_factory: pytest.TempPathFactory) -> t.Iterator[tuple[Path, str]]:
    """fixtures/postgres_shop built in a schema of its own: (project, lineage schema)."""
    schema = f"dbtl_publish_{uuid.uuid4().hex[:8]}"
    root = tmp_path_factory.mktemp("publish_postgres")
    project = copy_project(REPO / "fixtures" / "postgres_shop", root)
    (project / "profiles.yml").write_text(postgres_profiles("postgres_shop", schema))
    try:
        dbt(project, "build")
        result = lineage(project, "build")
        assert result.exit_code == 0, result.output
        yield project, f"{schema}_lineage"
    finally:
        drop_postgres_schemas(schema)


def test_publish_on_postgres(postgres_shop: tuple[Path, str]) -> None:
    project, schema = postgres_shop
    path = project / "target" / "lineage.json"
    expected = json_edges(path)
    checksum = load_graph(path).metadata.manifest_checksum
    for _ in range(2):
        result = lineage(project, "publish")
        assert result.exit_code == 0, result.output
        ((count,),) = postgres_rows(
            f"select count(*) from {schema}.lineage_column_edges where manifest_checksum = %s",
            (checksum,),
        )
        assert count == len(expected)


def test_vars_choose_the_lineage_schema(shop: Path) -> None:
    result = lineage(shop, "publish", "--vars", "{dbt_lineage_schema: audit_lineage}")
    assert result.exit_code == 0, result.output
    assert '"shop"."audit_lineage"."lineage_column_edges"' in result.stdout
    ((count,),) = duckdb_rows(
        shop.parent / "shop.duckdb", "select count(*) from audit_lineage.lineage_column_edges"
    )
    assert count == len(json_edges(shop / "target" / "lineage.json"))


def test_an_unreachable_warehouse_is_a_one_line_error(
    postgres_shop: tuple[Path, str], tmp_path: Path
) -> None:
    project, _ = postgres_shop
    profiles = postgres_profiles("postgres_shop", "unused").replace(f"port: {PG_PORT}", "port: 1")
    (tmp_path / "profiles.yml").write_text(profiles)
    result = CliRunner().invoke(
        main.cli, ["publish", "--project-dir", str(project), "--profiles-dir", str(tmp_path)]
    )
    assert result.exit_code == 2
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith("Error: cannot connect to postgres (target dev):")


def test_a_graph_that_lost_lineage_is_published_only_with_force(shop: Path, tmp_path: Path) -> None:
    # The manifest of a selected command: the marts have no compiled SQL, no cache has it.
    manifest = json.loads((shop / "target" / "manifest.json").read_text())
    marts = [node for node in manifest["nodes"].values() if "/marts/" in node["original_file_path"]]
    assert marts
    for node in marts:
        node["compiled_code"] = None
    target = tmp_path / "target"
    target.mkdir()
    (target / "manifest.json").write_text(json.dumps(manifest))
    built = lineage(shop, "build", "--target-path", str(target))
    assert built.exit_code == 0, built.output
    assert "the manifest looks partial" in built.output
    checksum = load_graph(target / "lineage.json").metadata.manifest_checksum

    refused = lineage(shop, "publish", "--target-path", str(target))
    assert refused.exit_code == 2
    (line,) = refused.stderr.strip().splitlines()
    assert "lost their lineage for lack of compiled SQL" in line
    assert "--force" in line

    forced = lineage(shop, "publish", "--target-path", str(target), "--force")
    assert forced.exit_code == 0, forced.output
    assert edge_count(shop, checksum) > 0


def test_a_relative_duckdb_path_that_names_no_database_is_warned_about(
    shop: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    profiles = tmp_path / "profiles"
    profiles.mkdir()
    (profiles / "profiles.yml").write_text(duckdb_profiles("shop", Path("shop.duckdb")))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    args = ["publish", "--project-dir", str(shop), "--profiles-dir", str(profiles)]
    first = CliRunner().invoke(main.cli, args)
    assert first.exit_code == 0, first.output
    (warning,) = [line for line in first.stderr.splitlines() if line.startswith("warning:")]
    assert "the DuckDB database shop.duckdb did not exist" in warning
    assert str(elsewhere / "shop.duckdb") in warning
    # Now that the file exists, it is the database the user meant: no warning.
    second = CliRunner().invoke(main.cli, args)
    assert second.exit_code == 0, second.output
    assert "warning:" not in second.stderr
