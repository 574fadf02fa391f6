"""The benchmark project generator writes dbt artifacts whose SQL and columns are real.

Every model's compiled SQL is run in DuckDB, in dependency order, over source tables created
with the declared columns and a few rows; what DuckDB reports for each relation must be what
the catalog says.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import deque
from pathlib import Path

import duckdb
import pytest
import sqlglot
from sqlglot import exp

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "benchmarks" / "generate_project.py"
N_MODELS = 30

# A value per type for the rows of the source tables, from the row number ``i``.
VALUES = {
    "INTEGER": "case when i % 11 = 0 then null else (i % 17)::INTEGER end",
    "BIGINT": "i * 1000",
    "DOUBLE": "case when i % 7 = 0 then null else i * 1.5 end",
    "DECIMAL(18,2)": "(i * 2.25)::DECIMAL(18,2)",
    "VARCHAR": "case when i % 13 = 0 then '' else 'v' || (i % 5)::VARCHAR end",
    "DATE": "DATE '2020-01-01' + (i % 400)::INTEGER",
    "TIMESTAMP": "TIMESTAMP '2020-01-01 00:00:00' + i * INTERVAL 1 HOUR",
    "BOOLEAN": "i % 3 = 0",
}


def _generate(out: Path, *extra: str) -> None:
    cmd = [sys.executable, str(SCRIPT), "--models", str(N_MODELS), "--out", str(out), *extra]
    subprocess.run(cmd, check=True, capture_output=True, text=True)


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict, dict]:
    out = tmp_path_factory.mktemp("bench30")
    _generate(out)
    target = out / "target"
    manifest = json.loads((target / "manifest.json").read_text())
    catalog = json.loads((target / "catalog.json").read_text())
    return manifest, catalog


def _topological(manifest: dict) -> list[str]:
    models = {k for k, v in manifest["nodes"].items() if v["resource_type"] == "model"}
    pending = {m: sum(p in models for p in manifest["parent_map"][m]) for m in models}
    ready = deque(sorted(m for m, n in pending.items() if n == 0))
    order = []
    while ready:
        uid = ready.popleft()
        order.append(uid)
        for child in manifest["child_map"][uid]:
            if child in pending:
                pending[child] -= 1
                if pending[child] == 0:
                    ready.append(child)
    assert len(order) == len(models), "the DAG has a cycle"
    return order


def _describe(con: duckdb.DuckDBPyConnection, relation: str) -> dict[str, str]:
    return {row[0]: row[1] for row in con.execute(f"describe {relation}").fetchall()}


def _catalog_columns(entry: dict) -> dict[str, str]:
    cols = sorted(entry["columns"].values(), key=lambda c: c["index"])
    return {c["name"]: c["type"] for c in cols}


def test_every_model_runs_in_duckdb_with_the_catalog_columns(project: tuple[dict, dict]) -> None:
    manifest, catalog = project
    con = duckdb.connect(config={"max_temp_directory_size": "1GB"})
    con.execute("attach ':memory:' as bench")
    for uid, src in manifest["sources"].items():
        con.execute(f'create schema if not exists "bench"."{src["schema"]}"')
        cols = _catalog_columns(catalog["sources"][uid])
        ddl = ", ".join(f'"{name}" {ty}' for name, ty in cols.items())
        con.execute(f"create table {src['relation_name']} ({ddl})")
        # Unique keys keep joins from multiplying rows down the DAG.
        values = ", ".join("i" if c == "id" else VALUES[ty] for c, ty in cols.items())
        con.execute(f"insert into {src['relation_name']} select {values} from range(60) t(i)")
        assert _describe(con, src["relation_name"]) == cols

    order = _topological(manifest)
    for uid in order:
        node = manifest["nodes"][uid]
        kind = "view" if node["config"]["materialized"] == "view" else "table"
        con.execute(f"create {kind} {node['relation_name']} as {node['compiled_code']}")
        con.execute(f"select count(*) from {node['relation_name']}").fetchall()
        assert _describe(con, node["relation_name"]) == _catalog_columns(catalog["nodes"][uid]), uid
    assert len(order) == N_MODELS


def test_models_have_the_promised_shape(project: tuple[dict, dict]) -> None:
    manifest, catalog = project
    models = [n for n in manifest["nodes"].values() if n["resource_type"] == "model"]
    assert {m["name"].split("_")[0] for m in models} >= {"stg", "int"}
    for node in models:
        tree = sqlglot.parse_one(node["compiled_code"], dialect="duckdb")
        assert 3 <= len(tree.find(exp.With).expressions) <= 6, node["unique_id"]
        assert 10 <= len(catalog["nodes"][node["unique_id"]]["columns"]) <= 40
        assert 1 <= len(node["depends_on"]["nodes"]) <= 3
        for parent in node["depends_on"]["nodes"]:
            parent_rel = manifest["nodes"].get(parent) or manifest["sources"][parent]
            assert parent_rel["relation_name"] in node["compiled_code"]
        if node["columns"]:
            declared = {c["name"]: c["data_type"] for c in node["columns"].values()}
            in_catalog = _catalog_columns(catalog["nodes"][node["unique_id"]])
            assert declared == {k: v.lower() for k, v in in_catalog.items()}
    sql = "\n".join(n["compiled_code"] for n in models).lower()
    for construct in ("join ", "group by", " over (", "select *", "case when", "coalesce("):
        assert construct in sql, construct


def test_manifest_and_maps(project: tuple[dict, dict]) -> None:
    manifest, _ = project
    meta = manifest["metadata"]
    assert meta["dbt_schema_version"] == "https://schemas.getdbt.com/dbt/manifest/v12.json"
    assert meta["adapter_type"] == "duckdb"
    assert len(manifest["exposures"]) == 1
    for uid, node in {**manifest["nodes"], **manifest["exposures"]}.items():
        assert manifest["parent_map"][uid] == sorted(node["depends_on"]["nodes"])
        for parent in node["depends_on"]["nodes"]:
            assert uid in manifest["child_map"][parent]


def test_same_seed_same_bytes_and_no_catalog(tmp_path: Path) -> None:
    _generate(tmp_path / "a", "--seed", "7")
    _generate(tmp_path / "b", "--seed", "7", "--no-catalog")
    a = (tmp_path / "a" / "target" / "manifest.json").read_bytes()
    b = (tmp_path / "b" / "target" / "manifest.json").read_bytes()
    assert a == b
    assert not (tmp_path / "b" / "target" / "catalog.json").exists()
