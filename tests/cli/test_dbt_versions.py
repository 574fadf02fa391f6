"""One project, two dbt versions that checksum files differently: dbt 1.12 (the newest the
extras allow, in .venv) hashes a file's whitespace-normalized text, dbt 1.8 to 1.11 the text
itself (dbt 1.8 in .venv-dbt18, made by ./quickstart.sh). Code is compared, not checksums:

- ``diff`` across the upgrade lists no node as changed (each would otherwise be "comments or
  formatting only"), yet still sees a real edit;
- ``openlineage --since`` replaying runs the hook recorded under the older dbt, with the
  newer dbt's manifest, keeps every model's SQL and column lineage.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from tests.dbt_projects import DBT
from tests.macros.conftest import DbtProject
from tests.macros.test_dbt18 import DBT18, copy_package_and_template, dbt18_version

from dbt_lineage.cli import main
from dbt_lineage.queries.diff_side import checksum_scheme

pytestmark = pytest.mark.slow


def _version(dbt: Path) -> str:
    out = subprocess.run([str(dbt), "--version"], capture_output=True, text=True).stdout
    return next(line.split(":")[1].strip() for line in out.splitlines() if "installed:" in line)


@pytest.fixture(scope="module")
def upgraded(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The template built (with the hook) by dbt 1.8, then compiled by the newest dbt."""
    newest, oldest = _version(DBT), dbt18_version()
    assert checksum_scheme(newest) != checksum_scheme(oldest), (
        f"dbt {newest} in .venv and dbt {oldest} in .venv-dbt18 checksum alike: .venv should "
        "have the newest dbt the extras allow (1.12): rerun ./quickstart.sh --install-only"
    )
    root = tmp_path_factory.mktemp("versions")
    path = copy_package_and_template(root / "dbt-lineage")
    env = {"DBT_SHOP_DUCKDB_PATH": str(root / "shop.duckdb")}
    old = DbtProject(path=path, target="dev", env=env, dbt_bin=str(DBT18))
    old.dbt("deps")
    old.dbt("build")
    old.dbt("compile")  # with the tables there, as the newer dbt compiles (is_incremental())
    base = root / "base_target"
    shutil.copytree(path / "target", base)
    new = DbtProject(path=path, target="dev", env=env)
    new.dbt("compile")
    return {"project": path, "base": base, "head": path / "target", "root": root}


def _lineage(project: Path, *args: str) -> Result:
    previous = Path.cwd()
    os.chdir(project)
    try:
        return CliRunner().invoke(main.cli, [*args, "--project-dir", str(project)])
    finally:
        os.chdir(previous)


def test_the_two_manifests_differ_in_checksums_only(upgraded: dict[str, Path]) -> None:
    base, head = (json.loads((upgraded[s] / "manifest.json").read_text()) for s in ("base", "head"))
    models = [k for k in head["nodes"] if k.startswith("model.")]
    assert models
    differ = [k for k in models if base["nodes"][k]["checksum"] != head["nodes"][k]["checksum"]]
    assert differ, "the premise: dbt 1.12 checksums the same files differently"
    assert all(base["nodes"][k]["raw_code"] == head["nodes"][k]["raw_code"] for k in models)


def test_diff_across_the_upgrade_compares_code(upgraded: dict[str, Path]) -> None:
    project, base = upgraded["project"], str(upgraded["base"])
    result = _lineage(project, "diff", "--base", base, "--head", "target", "--format", "json")
    assert result.exit_code == 0, result.output
    changes = json.loads(result.stdout)["changes"]
    assert "comparing the nodes' code instead" in result.stderr
    # dbt 1.12 writes a snapshot's config as written (Jinja), earlier versions rendered: a
    # real difference of the artifacts, reported as metadata; no model, seed or source differs
    assert [(c["node"], c["class"]) for c in changes] in (
        [],
        [("snapshot.shop.orders_snapshot", "metadata")],
    ), changes

    edited = upgraded["root"] / "edited"
    shutil.copytree(project, edited, symlinks=True, ignore=shutil.ignore_patterns("target"))
    model = edited / "models" / "marts" / "orders.sql"
    model.write_text(model.read_text() + "\n-- a comment added on the upgrade branch\n")
    env = {"DBT_SHOP_DUCKDB_PATH": str(upgraded["root"] / "shop.duckdb")}
    DbtProject(path=edited, target="dev", env=env).dbt("compile")
    result = _lineage(edited, "diff", "--base", base, "--head", "target", "--format", "json")
    assert result.exit_code == 0, result.output
    changes = json.loads(result.stdout)["changes"]
    edits = [(c["node"], c["class"]) for c in changes if not c["node"].startswith("snapshot.")]
    assert edits == [("model.shop.orders", "none")], changes


def test_openlineage_replays_older_runs_with_their_sql_and_columns(
    upgraded: dict[str, Path],
) -> None:
    project = upgraded["project"]
    events = project / "events.jsonl"
    env = {"DBT_SHOP_DUCKDB_PATH": str(upgraded["root"] / "shop.duckdb")}
    previous = dict(os.environ)
    os.environ.update(env)
    try:
        result = _lineage(
            project, "openlineage", "--since", "2000-01-01", "--profiles-dir", ".",
            "--output", str(events),
        )  # fmt: skip
    finally:
        os.environ.clear()
        os.environ.update(previous)
    assert result.exit_code == 0, result.output
    models = [
        event
        for event in map(json.loads, events.read_text().splitlines())
        if event["eventType"] == "COMPLETE"
        and "parent" in event["run"]["facets"]
        and event["job"]["name"].endswith(".run")  # a model (seeds: .seed, snapshots: ...)
    ]
    assert len(models) >= 8, [event["job"]["name"] for event in models]
    lost = [
        event["job"]["name"]
        for event in models
        if "sql" not in event["job"]["facets"]
        or not any("columnLineage" in (o.get("facets") or {}) for o in event["outputs"])
    ]
    assert lost == [], f"SQL or column lineage dropped for {lost}"
