"""The template built with real dbt on DuckDB, with two models added for these tests.

``customer_contacts`` hashes the PII email (a masking derivation) and ``broken_orders``
fails at run time (a FAIL event with dbt's message). ``dbt build`` exits 1 because of it;
the other nodes run, and the hook records the invocation. ``docs generate`` then writes
the catalog, and the build's ``run_results.json`` is put back, as a user would keep it.
"""

from __future__ import annotations

import json
import os
import shutil
import typing as t
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from tests.dbt_projects import DBT, REPO, copy_project, dbt, run
from tests.dbt_run import run_dbt

from dbt_lineage.cli import main

MASKED_MODEL = """select
    customer_id,
    md5(email) as email_hash,
    country_code
from {{ ref('stg_customers') }}
"""
BROKEN_MODEL = """select order_id, no_such_column
from {{ ref('stg_orders') }}
"""


@pytest.fixture(scope="session")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The built template (with the two models), its build's run_results.json in target/."""
    project = copy_project(REPO / "dbt_project_template", tmp_path_factory.mktemp("ol_shop"))
    marts = project / "models" / "marts"
    (marts / "customer_contacts.sql").write_text(MASKED_MODEL)
    (marts / "broken_orders.sql").write_text(BROKEN_MODEL)
    dbt(project, "seed")
    build = run_dbt(
        ["build", "--profiles-dir", "."],
        project,
        env={**os.environ, "DBT_SEND_ANONYMOUS_USAGE_STATS": "false"},
    )
    assert build.returncode == 1, build.stdout[-3000:]
    kept = project / "build_run_results.json"
    shutil.copy(project / "target" / "run_results.json", kept)
    run([str(DBT), "docs", "generate", "--profiles-dir", "."], project)
    shutil.copy(kept, project / "target" / "run_results.json")
    return project


def lineage(project: Path, *args: str, env: dict[str, str] | None = None) -> Result:
    """``dbt-lineage <args>`` in-process from the project directory, as a user runs it."""
    previous = Path.cwd()
    os.chdir(project)
    try:
        return CliRunner().invoke(
            main.cli,
            [*args, "--project-dir", str(project), "--profiles-dir", str(project)],
            env=env,
        )
    finally:
        os.chdir(previous)


def emitted(project: Path, *args: str, name: str = "events.jsonl") -> list[dict[str, t.Any]]:
    """The events ``dbt-lineage openlineage`` writes to a file, parsed."""
    path = project / name
    result = lineage(project, "openlineage", "--output", str(path), *args)
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in path.read_text().splitlines()]
