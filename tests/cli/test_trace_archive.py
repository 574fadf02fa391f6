"""``dbt-lineage trace --include-archive``: runs that dbt_lineage.archive_history moved out
of the live tables are traced from the archive schema (real dbt on DuckDB, the template
built twice, the first build archived)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.cli.test_trace import duckdb_profiles, hooked_project, invocation_id, lineage
from tests.dbt_projects import REPO, dbt

pytestmark = pytest.mark.slow

ARCHIVE_VARS = "{dbt_lineage_archive_schema: main_archive}"


@pytest.fixture(scope="module")
def archived(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, str]:
    root = tmp_path_factory.mktemp("trace_archive")
    database = root / "shop.duckdb"
    project = hooked_project(REPO / "dbt_project_template", root, duckdb_profiles("shop", database))
    dbt(project, "build")
    first = invocation_id(project)
    dbt(project, "build")
    second = invocation_id(project)
    import duckdb

    with duckdb.connect(str(database)) as con:
        con.execute(
            "update main_lineage.lineage_invocations set started_at = started_at - "
            f"interval 100 day where invocation_id = '{first}'"
        )
    dbt(
        project, "run-operation", "dbt_lineage.archive_history",
        "--args", "{days: 90}", "--vars", ARCHIVE_VARS,
    )  # fmt: skip
    with duckdb.connect(str(database), read_only=True) as con:
        moved = con.execute("select invocation_id from main_archive.lineage_invocations")
        assert moved.fetchall() == [(first,)]
    return project, first, second


def test_an_archived_run_is_traced_only_with_include_archive(archived) -> None:
    project, first, second = archived
    live_only = lineage(project, "trace", "customers", "--stamp", first)
    assert live_only.exit_code != 0 and first in live_only.output

    result = lineage(
        project, "trace", "customers", "--stamp", first, "--include-archive",
        "--vars", ARCHIVE_VARS, "--format", "json",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    traced = json.loads(result.stdout)
    assert traced["invocation_id"] == first and traced["invocation"]["command"] == "build"
    assert {item["run"]["invocation_id"] for item in traced["inputs"]} == {first}

    latest = lineage(
        project, "trace", "customers", "--include-archive", "--vars", ARCHIVE_VARS,
        "--format", "json",
    )  # fmt: skip
    assert json.loads(latest.stdout)["invocation_id"] == second


def test_include_archive_without_an_archive_schema_says_what_to_set(archived) -> None:
    project, first, _ = archived
    result = lineage(project, "trace", "customers", "--include-archive")
    assert result.exit_code != 0
    assert "set the var dbt_lineage_archive_schema" in result.output
    result = lineage(
        project, "trace", "customers", "--include-archive",
        "--vars", "{dbt_lineage_archive_schema: nowhere}",
    )  # fmt: skip
    assert result.exit_code != 0
    assert "no archive tables in schema nowhere" in result.output
