"""Session fixtures that build this repository's dbt projects with real dbt.

Each fixture copies a project into a session temporary directory, runs real dbt there (the
``dbt`` executable next to ``sys.executable``) and returns the copy's directory, whose
``target/`` holds the artifacts dbt just wrote. Nothing is written into the checkout, so
several sessions can run at once. Registered by ``tests/conftest.py``.

The copy sits in a directory that mirrors the repository root (every other top-level entry
is a symlink), so a ``packages.yml`` with ``local: ../`` keeps pointing at our dbt package.
"""

from __future__ import annotations

import fcntl
import os
import shlex
import shutil
import socket
import subprocess
import sys
import typing as t
import uuid
from pathlib import Path

import pytest

from tests.dbt_run import run_dbt

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "fixtures"
DBT = Path(sys.executable).with_name("dbt")
PG_HOST = os.environ.get("PGHOST", "127.0.0.1")
PG_PORT = int(os.environ.get("PGPORT", "5432"))
# Serialises the PostgreSQL fixture across concurrent pytest sessions (they share a schema).
PG_LOCK = Path("/tmp/dbt_lineage_fixture_pg.lock")
_IGNORED = shutil.ignore_patterns("target", "logs", "dbt_packages", "*.duckdb", "*.duckdb.wal")


def _env() -> dict[str, str]:
    """The environment for dbt: ours, minus any DBT_* setting that could redirect it."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("DBT_")}
    env.update(DBT=str(DBT), DBT_SEND_ANONYMOUS_USAGE_STATS="false")
    return env


def run(args: t.Sequence[str], cwd: Path) -> None:
    """Runs one command; on failure fails the requesting test with the command's output.
    Our dbt runs in this process (``tests/dbt_run.py``), anything else as a process."""
    if args and str(args[0]) == str(DBT):
        proc = run_dbt([str(a) for a in args[1:]], cwd, env=_env())
    else:
        proc = subprocess.run(
            list(args), cwd=cwd, env=_env(), capture_output=True, text=True, check=False
        )
    if proc.returncode != 0:
        output = (proc.stdout + proc.stderr).strip().splitlines()
        pytest.fail(
            f"`{' '.join(map(str, args))}` failed in {cwd} (exit {proc.returncode}):\n"
            + "\n".join(output[-60:]),
            pytrace=False,
        )


def copy_project(source: Path, tmp_root: Path) -> Path:
    """Copies a project under ``tmp_root``, which mirrors the repository root."""
    tmp_root.mkdir(parents=True, exist_ok=True)
    for entry in REPO.iterdir():
        if entry.name not in {".git", source.name} and not (tmp_root / entry.name).exists():
            (tmp_root / entry.name).symlink_to(entry)
    project = tmp_root / source.name
    shutil.copytree(source, project, ignore=_IGNORED)
    return project


def dbt(project: Path, *args: str) -> None:
    """Runs ``dbt <args> --profiles-dir .`` in ``project``, installing packages first."""
    if not DBT.exists():
        pytest.fail(f"no dbt executable next to {sys.executable}: install '.[dev]'")
    if (project / "packages.yml").exists() or (project / "dependencies.yml").exists():
        run([str(DBT), "deps", "--profiles-dir", "."], project)
    run([str(DBT), *args, "--profiles-dir", "."], project)


def regenerate(name: str, tmp_root: Path) -> Path:
    """Copies ``fixtures/<name>`` and runs the dbt commands of its own ``regenerate.sh``
    (its ``"$DBT" ...`` lines, in order) with our dbt, in this process. The script's other
    lines only locate dbt and clear ``target/`` and the database, which the copy leaves out."""
    project = copy_project(FIXTURES / name, tmp_root)
    commands = [
        shlex.split(line)[1:]
        for line in (project / "regenerate.sh").read_text().splitlines()
        if line.startswith('"$DBT" ')
    ]
    if not commands:
        pytest.fail(f"{project / 'regenerate.sh'} runs no dbt command", pytrace=False)
    for args in commands:
        run([str(DBT), *args], project)
    return project


def _require_postgres() -> None:
    try:
        socket.create_connection((PG_HOST, PG_PORT), timeout=3).close()
        return
    except OSError as exc:
        reason = str(exc)
    pytest.fail(
        f"PostgreSQL is not reachable at {PG_HOST}:{PG_PORT} ({reason}); the postgres_shop "
        "fixture needs it. Start it with: "
        "pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start",
        pytrace=False,
    )


@pytest.fixture(scope="session")
def template_project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``dbt_project_template/`` after ``dbt build`` and ``dbt docs generate`` on DuckDB."""
    project = copy_project(REPO / "dbt_project_template", tmp_path_factory.mktemp("template"))
    dbt(project, "build")
    dbt(project, "docs", "generate")
    return project


@pytest.fixture(scope="session")
def duckdb_constructs_project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``fixtures/duckdb_constructs`` built and documented on DuckDB."""
    return regenerate("duckdb_constructs", tmp_path_factory.mktemp("constructs"))


@pytest.fixture(scope="session")
def broken_project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``fixtures/broken`` compiled only: a manifest, no catalog."""
    return regenerate("broken", tmp_path_factory.mktemp("broken"))


@pytest.fixture(scope="session")
def postgres_project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``fixtures/postgres_shop`` built and documented on the local PostgreSQL server."""
    _require_postgres()
    with PG_LOCK.open("a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return regenerate("postgres_shop", tmp_path_factory.mktemp("postgres"))


@pytest.fixture(scope="session")
def no_catalog_project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``fixtures/no_catalog`` compiled only: sources that declare no columns, no catalog."""
    return regenerate("no_catalog", tmp_path_factory.mktemp("no_catalog"))


@pytest.fixture(scope="session")
def postgres_mixed_case_project(tmp_path_factory: pytest.TempPathFactory) -> t.Iterator[Path]:
    """``fixtures/postgres_mixed_case`` built and documented in a schema of its own."""
    _require_postgres()
    schema = f"mixed_case_{uuid.uuid4().hex[:10]}"
    os.environ["LINEAGE_PG_MIXED_CASE_SCHEMA"] = schema
    try:
        yield regenerate("postgres_mixed_case", tmp_path_factory.mktemp("mixed_case"))
    finally:
        os.environ.pop("LINEAGE_PG_MIXED_CASE_SCHEMA", None)
        subprocess.run(
            ["psql", "-q", "-h", PG_HOST, "-p", str(PG_PORT), "-U", "postgres", "-d", "postgres",
             "-c", f'drop schema if exists "{schema}" cascade'],
            capture_output=True, check=False,
        )  # fmt: skip


@pytest.fixture(scope="session")
def snowflake_compiled_project() -> Path:
    """``fixtures/snowflake_compiled``: its committed dbt-snowflake artifacts, not rebuilt."""
    project = FIXTURES / "snowflake_compiled"
    if not (project / "target" / "manifest.json").exists():
        pytest.fail(f"{project}/target/manifest.json is missing: run its regenerate.sh")
    return project
