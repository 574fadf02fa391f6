"""A build whose inputs have not changed keeps lineage.json (and says so) instead of
resolving and writing the same lineage again."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from dbt_lineage.api.build_inputs import unchanged
from dbt_lineage.cli import main


def _build(project: Path, *args: str) -> Result:
    result = CliRunner().invoke(main.cli, ["build", "--project-dir", str(project), *args])
    assert result.exit_code == 0, result.output
    return result


@pytest.fixture
def project(snowflake_compiled_project: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "project"
    shutil.copytree(snowflake_compiled_project, copy)
    for stale in ("lineage.json", "lineage.index.sqlite", "dbt_lineage_cache.json.gz"):
        (copy / "target" / stale).unlink(missing_ok=True)
    return copy


def _lines(result: Result) -> list[str]:
    return result.stdout.splitlines()


def test_a_second_build_keeps_lineage_json_and_prints_the_same_summary(project: Path) -> None:
    first = _build(project)
    lineage = project / "target" / "lineage.json"
    written = lineage.stat().st_mtime_ns
    second = _build(project, "--jobs", "2")
    assert "node(s) resolved" in _lines(second)[-1], "other options: resolved again"
    third = _build(project, "--jobs", "2")
    assert _lines(third)[:-1] == _lines(second)[:-1] == _lines(first)[:-1]
    assert _lines(third)[-1].startswith(f"Kept {lineage}: ")
    assert "0 node(s) resolved, 8 from cache" in _lines(third)[-1]
    assert lineage.stat().st_mtime_ns > written
    kept = lineage.stat().st_mtime_ns
    _build(project, "--jobs", "2")
    assert lineage.stat().st_mtime_ns == kept, "not written again"


@pytest.mark.parametrize("change", ["manifest", "catalog", "lineage", "no-cache", "select"])
def test_a_change_builds_again(project: Path, change: str) -> None:
    target = project / "target"
    _build(project)
    args: list[str] = []
    if change == "manifest":
        manifest = json.loads((target / "manifest.json").read_text())
        node = manifest["nodes"]["model.snowflake_compiled.user_summary"]
        node["compiled_code"] = node["compiled_code"].replace("as value_band", "as band")
        (target / "manifest.json").write_text(json.dumps(manifest))
    elif change == "catalog":
        catalog = {
            "metadata": {
                "dbt_schema_version": "https://schemas.getdbt.com/dbt/catalog/v1.json",
                "dbt_version": "1.11.0",
                "generated_at": "2026-11-29T12:02:33Z",
                "invocation_id": "0",
                "env": {},
            },
            "nodes": {},
            "sources": {},
            "errors": None,
        }
        (target / "catalog.json").write_text(json.dumps(catalog))
    elif change == "lineage":
        _build(project, "--select", "stg_users")
    elif change == "no-cache":
        args = ["--no-cache"]
    else:
        args = ["--select", "stg_users"]
    assert not _lines(_build(project, *args))[-1].startswith("Kept")
    if change == "manifest":
        columns = json.loads((target / "lineage.json").read_text())["nodes"]
        assert "BAND" in columns["model.snowflake_compiled.user_summary"]["columns"]
    if change != "select":
        assert _lines(_build(project))[-1].startswith("Kept")


def test_a_changed_seed_file_is_a_change(tmp_path: Path) -> None:
    seed = tmp_path / "seeds" / "codes.csv"
    seed.parent.mkdir()
    seed.write_text("code,label\n")
    status = seed.stat()
    recorded = {"code": "x", "seeds": [["seeds/codes.csv", status.st_size, status.st_mtime_ns]]}
    assert unchanged(recorded, {"code": "x"}, tmp_path)
    assert not unchanged(recorded, {"code": "y"}, tmp_path)
    seed.write_text("code,label,extra\n")
    assert not unchanged(recorded, {"code": "x"}, tmp_path)
