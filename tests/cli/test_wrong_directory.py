"""Commands run from the wrong directory say what to do and leave nothing behind: ``trace``
does not create an empty DuckDB file where profiles.yml's relative path points, and a
missing manifest says to run dbt compile."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from dbt_lineage.cli import main

pytestmark = pytest.mark.slow


def _from(cwd: Path, *args: str) -> Result:
    previous = Path.cwd()
    os.chdir(cwd)
    try:
        return CliRunner().invoke(main.cli, list(args))
    finally:
        os.chdir(previous)


def test_trace_from_elsewhere_creates_no_database(template_project: Path, tmp_path: Path) -> None:
    project = str(template_project)
    result = _from(tmp_path, "trace", "orders", "--project-dir", project, "--profiles-dir", project)
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1, result.stderr
    assert "no DuckDB database at" in result.stderr and "nothing was created" in result.stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("command", [["trace", "orders"], ["publish"]])
def test_no_manifest_says_run_dbt_compile(tmp_path: Path, command: list[str]) -> None:
    (tmp_path / "dbt_project.yml").write_text("name: shop\nprofile: shop\n")
    result = _from(tmp_path, *command)
    assert result.exit_code == 2
    assert "run `dbt compile`" in result.stderr, result.stderr
