"""The oldest dbt the extras allow (dbt-core 1.8, with dbt-duckdb and dbt-postgres 1.8, in
.venv-dbt18, made by ./quickstart.sh): the template as committed (its packages.yml and
package-lock.yml) installs the package with `dbt deps`, builds twice with the hook, and the
lineage tables agree with dbt 1.8's own run_results.json, on DuckDB and on PostgreSQL."""

from __future__ import annotations

import shutil
import subprocess
import uuid
from pathlib import Path

import pytest

from .conftest import REPO, DbtProject, drop_pg_schemas, postgres_available
from .test_template import PG_OUTPUT, assert_builds_recorded

pytestmark = pytest.mark.slow

DBT18 = REPO / ".venv-dbt18" / "bin" / "dbt"


def dbt18_version() -> str:
    if not DBT18.exists():
        pytest.fail(
            f"{DBT18} is missing: run ./quickstart.sh --install-only (it makes .venv-dbt18)"
        )
    out = subprocess.run([str(DBT18), "--version"], capture_output=True, text=True).stdout
    return next(line.split(":")[1].strip() for line in out.splitlines() if "installed:" in line)


def copy_package_and_template(dest: Path) -> Path:
    """The package (dbt_project.yml, macros/) with the template beside it, so that the
    template's committed `local: ../` and its lock file are what dbt deps reads."""
    dest.mkdir()
    shutil.copy(REPO / "dbt_project.yml", dest / "dbt_project.yml")
    shutil.copytree(REPO / "macros", dest / "macros")
    return Path(
        shutil.copytree(
            REPO / "dbt_project_template",
            dest / "template",
            ignore=shutil.ignore_patterns(
                "target", "dbt_packages", "logs", "spark", "*.duckdb*", ".user.yml"
            ),
        )
    )


@pytest.fixture(params=["duckdb", "postgres"])
def template18(request, tmp_path):
    assert dbt18_version().startswith("1.8."), "the oldest supported dbt is 1.8"
    target = request.param
    if target == "postgres" and not postgres_available():
        pytest.fail(
            "PostgreSQL is not reachable at 127.0.0.1:5432: start it with "
            "`pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start`"
        )
    path = copy_package_and_template(tmp_path / "dbt-lineage")
    lock = (path / "package-lock.yml").read_text()
    schema = "main" if target == "duckdb" else f"tpl18_{uuid.uuid4().hex[:10]}"
    profiles = path / "profiles.yml"
    profiles.write_text(profiles.read_text().rstrip("\n") + "\n" + PG_OUTPUT.format(schema=schema))
    project = DbtProject(
        path=path,
        target="dev" if target == "duckdb" else "postgres",
        env={
            "DBT_SHOP_DUCKDB_PATH": str(tmp_path / "shop.duckdb"),
            "DBT_LINEAGE_DUCKDB_PATH": str(tmp_path / "shop.duckdb"),
        },
        schema=schema,
        warehouse=target,
        dbt_bin=str(DBT18),
    )
    project.dbt("deps")  # reads the committed lock: dbt 1.8 rejected the one dbt 1.11 wrote
    assert (path / "package-lock.yml").read_text() == lock, "dbt deps rewrote the committed lock"
    yield project
    if target == "postgres":
        drop_pg_schemas(
            *[
                f"{schema}{suffix}"
                for suffix in (
                    "",
                    "_raw",
                    "_lineage",
                    "_snapshots",
                    "_staging",
                    "_intermediate",
                    "_marts",
                )
            ],
        )


def test_template_builds_twice_on_dbt_18(template18):
    template18.dbt("build")
    first = template18.run_results()
    template18.dbt("build")
    second = template18.run_results()
    assert first["metadata"]["dbt_version"].startswith("1.8.")
    assert_builds_recorded(template18, first, second)
    (invocation,) = template18.rows(
        "lineage_invocations", f"invocation_id = '{second['metadata']['invocation_id']}'"
    )
    assert invocation["dbt_version"].startswith("1.8.")


def test_committed_lock_is_accepted_by_the_newest_dbt(tmp_path):
    """The same committed lock, read by the dbt in .venv (the newest the extras allow)."""
    path = copy_package_and_template(tmp_path / "dbt-lineage")
    lock = (path / "package-lock.yml").read_text()
    project = DbtProject(path=path, target="dev")
    project.dbt("deps")
    assert (path / "package-lock.yml").read_text() == lock
    assert (path / "dbt_packages" / "dbt_lineage" / "macros" / "record_run.sql").exists()
