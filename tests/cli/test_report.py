"""``dbt-lineage report`` end to end on the template built with real dbt (DuckDB)."""

from __future__ import annotations

import base64
import gzip
import json
import os
import re
import shutil
import time
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from dbt_lineage.cli import main

pytestmark = pytest.mark.slow


@pytest.fixture()
def project(template_project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private copy of the built template, without lineage.json yet."""
    copy = tmp_path / "shop"
    shutil.copytree(template_project, copy, symlinks=True)
    for name in ("lineage.json", "lineage.html", "dbt_lineage_cache.json.gz"):
        (copy / "target" / name).unlink(missing_ok=True)
    monkeypatch.setenv("DBT_SHOP_DUCKDB_PATH", str(copy / "shop.duckdb"))
    return copy


def _report(project: Path, *args: str) -> Result:
    return CliRunner().invoke(
        main.cli, ["report", "--project-dir", str(project), *args], catch_exceptions=False
    )


def _data(path: Path) -> dict:
    page = path.read_text(encoding="utf-8")
    block = re.search(r'<script type="application/json" id="dbt-lineage-data">(.*?)</script>', page)
    outer = json.loads(block.group(1))
    if outer.get("encoding") == "gzip+base64":
        return json.loads(gzip.decompress(base64.b64decode(outer["data"])))
    return outer


def _node_ids(data: dict) -> set[str]:
    return {data["strings"][i] for i in data["nodes"]["id"]}


def test_report_builds_lineage_when_missing_or_stale_and_writes_one_file(project: Path) -> None:
    first = _report(project)
    assert first.exit_code == 0, first.output
    assert "Building lineage.json first (it does not exist yet)" in first.stderr
    html = project / "target" / "lineage.html"
    assert f"Wrote {html}" in first.stdout
    assert (project / "target" / "lineage.json").is_file()
    page = html.read_text(encoding="utf-8")
    assert "connect-src 'none'" in page
    data = _data(html)
    assert "model.shop.stg_payments" in _node_ids(data)
    assert "exposure.shop.weekly_revenue" in _node_ids(data)
    sql = [data["strings"][i] for i in data["nodes"]["sql"]]
    assert any("raw_payments" in text for text in sql), "compiled SQL is embedded"
    tests = {data["strings"][i] for pair in data["columns"]["tests"] for i in pair[1]}
    assert {"not_null", "unique", "accepted_values"} <= tests

    again = _report(project)
    assert again.exit_code == 0 and "Building" not in again.stderr

    catalog = project / "target" / "catalog.json"
    later = time.time() + 5
    os.utime(catalog, (later, later))
    stale = _report(project, "--title", "Shop lineage")
    assert "Building lineage.json first (catalog.json is newer)" in stale.stderr
    assert _data(html)["meta"]["title"] == "Shop lineage"


def test_select_keeps_a_node_and_its_lineage_only(project: Path, tmp_path: Path) -> None:
    output = tmp_path / "payments.html"
    result = _report(project, "--select", "stg_payments", "--output", str(output))
    assert result.exit_code == 0, result.output
    ids = _node_ids(_data(output))
    assert {"model.shop.stg_payments", "model.shop.orders", "model.shop.customers"} <= ids
    assert "exposure.shop.weekly_revenue" in ids
    assert "model.shop.stg_customers" not in ids


def test_with_runs_reads_the_hook_tables(project: Path) -> None:
    result = _report(project, "--with-runs", "--profiles-dir", str(project))
    assert result.exit_code == 0, result.output
    data = _data(project / "target" / "lineage.html")
    runs = data["runs"]
    assert runs["source"] == "warehouse"
    s = data["strings"]
    by_node = {
        s[data["nodes"]["id"][node]]: s[status]
        for node, status in zip(runs["node"], runs["status"], strict=True)
    }
    assert by_node["model.shop.customers"] == "success"
    assert all(s[i] for i in runs["inv"])


def test_with_runs_falls_back_to_run_results(project: Path) -> None:
    result = _report(
        project,
        "--with-runs",
        "--profiles-dir",
        str(project),
        "--vars",
        "{dbt_lineage_schema: no_such_schema}",
    )
    assert result.exit_code == 0, result.output
    assert "Run facts from target/run_results.json" in result.stderr
    runs = _data(project / "target" / "lineage.html")["runs"]
    assert runs["source"] == "run_results"
    assert runs["node"]


def test_no_manifest_is_one_error_line(tmp_path: Path) -> None:
    result = _report(tmp_path)
    assert result.exit_code == 2
    assert result.stderr.startswith("Error: no manifest.json")
    assert len(result.stderr.strip().splitlines()) == 1
