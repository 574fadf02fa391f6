"""The warehouse connection: through dbt's profile, the one the user's project names."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from tests.dbt_projects import REPO, copy_project
from tests.dbt_run import run_dbt

from dbt_lineage.outputs.warehouse.connection import connection

pytestmark = pytest.mark.slow

_DATABASE_PATH = "select path from duckdb_databases() where database_name = current_database()"


def test_a_dbt_command_run_earlier_in_the_process_does_not_choose_the_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An orchestrator runs dbt through dbtRunner, then asks for lineage facts in the same
    process: dbt keeps the adapter its command registered, with that command's profile."""
    project = copy_project(REPO / "dbt_project_template", tmp_path)
    first, second = tmp_path / "first.duckdb", tmp_path / "second.duckdb"
    env = {**os.environ, "DBT_SHOP_DUCKDB_PATH": str(first)}
    for command in (["deps"], ["seed"]):
        assert run_dbt([*command, "--profiles-dir", "."], project, env).returncode == 0
    monkeypatch.setenv("DBT_SHOP_DUCKDB_PATH", str(second))
    with connection(project, profiles_dir=project) as warehouse:
        assert warehouse.fetch(_DATABASE_PATH) == [{"path": str(second)}]
