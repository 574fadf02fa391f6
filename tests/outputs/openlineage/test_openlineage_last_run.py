"""``openlineage`` after ``dbt docs generate`` (the README's order): run_results.json names the
real command, and the last run comes from the hook's tables; an unreachable endpoint is one
error line, with no retry warnings."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from .conftest import lineage

pytestmark = pytest.mark.slow


@pytest.fixture
def documented(shop: Path, tmp_path: Path) -> Path:
    """A copy of the shop whose target/run_results.json is `dbt docs generate`'s."""
    project = tmp_path / "shop"
    shutil.copytree(shop, project, symlinks=True)
    results = json.loads((project / "target" / "run_results.json").read_text())
    results["args"]["which"] = "generate"
    results["args"]["invocation_command"] = "dbt docs generate --profiles-dir ."
    (project / "target" / "run_results.json").write_text(json.dumps(results))
    return project


def test_after_docs_generate_the_last_recorded_run_is_emitted(documented: Path) -> None:
    build = json.loads((documented / "build_run_results.json").read_text())
    events = documented / "events.jsonl"
    result = lineage(documented, "openlineage", "--output", str(events))
    assert result.exit_code == 0, result.output
    assert (
        f"Emitting the last run the hook recorded, {build['metadata']['invocation_id']}: "
        "target/run_results.json is from `dbt docs generate`, which executes no model."
        in result.stderr
    )
    parents = {json.loads(line)["run"]["runId"] for line in events.read_text().splitlines()[:1]}
    assert parents == {build["metadata"]["invocation_id"]}


def test_a_run_results_of_docs_generate_names_the_command(documented: Path) -> None:
    path = documented / "target" / "run_results.json"
    result = lineage(documented, "openlineage", "--run-results", str(path))
    assert result.exit_code == 2
    assert "was written by `dbt docs generate`, which executes no model" in result.stderr


def test_an_unreachable_endpoint_is_one_line(shop: Path) -> None:
    result = lineage(
        shop, "openlineage", "--url", "http://127.0.0.1:9", "--retries", "1", "--timeout", "2"
    )
    assert result.exit_code == 2
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("Error: http transport failed after 0 event(s) to http://127.0.0.1:9")
    assert last.endswith("Connection refused"), last
    assert "Retrying" not in result.stderr and "WARNING" not in result.stderr
