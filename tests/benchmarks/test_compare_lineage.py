"""benchmarks/compare_lineage.py: two lineage.json files compared by node, column and kind,
on a real build of a fixture project changed the way an engine fix changes it."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest

from dbt_lineage.api.build_lineage import build_lineage

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "benchmarks" / "compare_lineage.py"
GENERATE = REPO / "benchmarks" / "generate_project.py"


@pytest.fixture(scope="module")
def before(tmp_path_factory: pytest.TempPathFactory) -> Path:
    project = tmp_path_factory.mktemp("compare")
    subprocess.run(
        [sys.executable, str(GENERATE), "--models", "20", "--out", str(project), "--shapes"],
        check=True,
        capture_output=True,
    )
    return build_lineage(project, jobs=1).path


def _compare(old: Path, new: Path, *more: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), str(old), str(new), *more],
        capture_output=True,
        text=True,
        check=False,
    )


def test_the_same_build_compares_equal(before: Path) -> None:
    result = _compare(before, before, "--json")
    assert result.returncode == 0, result.stderr
    found = json.loads(result.stdout)
    for layer in ("direct", "indirect"):
        assert found[layer] == {"added": [], "removed": [], "kind_changed": []}
    assert found["coverage"]["before"] == found["coverage"]["after"]
    assert found["coverage"]["after"]["columns"] > 100


def test_added_removed_and_changed_edges_and_diagnostics(before: Path, tmp_path: Path) -> None:
    document = json.loads(before.read_text())
    changed = copy.deepcopy(document)
    direct = changed["edges"]["direct"]
    node = next(n for n in direct if n.startswith("model.shapes.base_"))
    column = next(iter(direct[node]))
    removed = direct[node].pop(column)
    other = next(c for c in direct[node] if c != column)
    direct[node][other][0]["kind"] = (
        "aggregate" if direct[node][other][0]["kind"] != "aggregate" else "identity"
    )
    direct[node][other].append(
        {"node": "source.shapes.new.t", "column": "X", "layer": "schema", "kind": "transform"}
    )
    changed["nodes"][node]["columns"][column]["resolved"] = False
    changed["diagnostics"].append(
        {"node_id": node, "reason": "unknown_column", "message": "m", "columns": [column]}
    )
    after = tmp_path / "after.json"
    after.write_text(json.dumps(changed))

    found = json.loads(_compare(before, after, "--json").stdout)
    assert [(r["node"], r["column"]) for r in found["direct"]["removed"]] == [
        (node, column) for _ in removed
    ]
    assert [
        (r["column"], r["upstream_node"], r["upstream_column"]) for r in found["direct"]["added"]
    ] == [(other, "source.shapes.new.t", "X")]
    assert [(r["column"], r["before"] != r["after"]) for r in found["direct"]["kind_changed"]] == [
        (other, True)
    ]
    reason = found["diagnostics"]["unknown_column"]
    assert reason["nodes_added"] == [node]
    assert reason["columns_after"] == reason["columns_before"] + 1
    cover = found["coverage"]
    assert cover["after"]["resolved"] == cover["before"]["resolved"] - 1

    text = _compare(before, after).stdout
    assert f"direct edges: 1 added, {len(removed)} removed, 1 kind changed" in text
    assert f"removed: {node}.{column} <- " in text
    assert "unknown_column: " in text


def test_a_file_that_is_not_lineage_is_a_one_line_error(before: Path, tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("[1, 2]")
    result = _compare(before, bad)
    assert result.returncode == 2
    assert result.stderr.strip() == f"Error: {bad} is not a lineage.json (no nodes and edges)"
