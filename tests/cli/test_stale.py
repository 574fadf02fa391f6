"""Stale lineage is never used in silence: after a model is added and ``dbt compile`` runs,
every query says on standard error that lineage.json is of an earlier manifest and how to
rebuild; a name only the new manifest has says why it is missing. ``dbt compile`` run again
on the same code is not another manifest. Real dbt on DuckDB."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from tests.dbt_projects import copy_project, dbt

from dbt_lineage.cli import main

pytestmark = pytest.mark.slow

NEW_MODEL = "select order_id, amount * 2 as doubled from {{ ref('orders') }}\n"
QUERIES = (
    ["impact", "orders.amount"],
    ["upstream", "orders.amount"],
    ["downstream", "orders.amount"],
    ["coverage"],
    ["classify"],
    ["docs", "--inherit"],
)


@pytest.fixture(scope="module")
def shop(template_project: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    project = copy_project(template_project, tmp_path_factory.mktemp("stale"))
    shutil.copytree(template_project / "target", project / "target", dirs_exist_ok=True)
    shutil.copy(template_project / "shop.duckdb", project / "shop.duckdb")
    return project


def _lineage(project: Path, *args: str) -> Result:
    return CliRunner().invoke(main.cli, [*args, "--project-dir", str(project)])


def _recorded_manifest(project: Path) -> str:
    with sqlite3.connect(project / "target" / "lineage.index.sqlite") as connection:
        (value,) = connection.execute("SELECT value FROM meta WHERE key = 'manifest'").fetchone()
    connection.close()
    return value


def test_queries_say_when_the_manifest_changed_since_the_build(shop: Path) -> None:
    assert _lineage(shop, "build").exit_code == 0
    for query in QUERIES:
        fresh = _lineage(shop, *query)
        assert fresh.exit_code == 0, fresh.output
        assert "Warning" not in fresh.stderr, (query, fresh.stderr)

    before = _recorded_manifest(shop)
    dbt(shop, "compile")  # the same code: a new file, the same content less its metadata
    again = _lineage(shop, "impact", "orders.amount")
    assert again.exit_code == 0 and "Warning" not in again.stderr, again.stderr
    assert _recorded_manifest(shop) != before, "the new file's size and time are recorded"

    (shop / "models" / "marts" / "order_doubles.sql").write_text(NEW_MODEL)
    dbt(shop, "compile")
    for query in QUERIES:
        stale = _lineage(shop, *query)
        assert stale.exit_code == 0, stale.output
        warning = stale.stderr.strip()
        assert warning.count("\n") == 0, warning
        assert "was built from another manifest.json" in warning, (query, warning)
        assert "run `dbt-lineage build`" in warning
    impact = _lineage(shop, "impact", "orders.amount")
    assert "order_doubles" not in impact.stdout, "the old lineage does not know the new model"

    missing = _lineage(shop, "impact", "order_doubles")
    assert missing.exit_code == 2
    assert "no node named 'order_doubles'" in missing.stderr
    assert "built from an earlier manifest.json" in missing.stderr
    assert "a node added since is not in it; run `dbt-lineage build`" in missing.stderr

    assert _lineage(shop, "build").exit_code == 0
    rebuilt = _lineage(shop, "impact", "orders.amount")
    assert rebuilt.exit_code == 0 and "Warning" not in rebuilt.stderr, rebuilt.stderr
    assert "model.shop.order_doubles" in rebuilt.stdout


def test_an_unknown_name_on_fresh_lineage_blames_nothing(shop: Path) -> None:
    assert _lineage(shop, "build").exit_code == 0
    result = _lineage(shop, "impact", "no_such_model")
    assert result.exit_code == 2
    assert "earlier manifest" not in result.stderr and "selected build" not in result.stderr
