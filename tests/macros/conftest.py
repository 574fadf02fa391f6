"""Fixtures for the dbt package tests: a private copy of integration_tests/ per test,
real dbt runs (the dbt next to this Python) on DuckDB and on the PostgreSQL server."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import uuid
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.dbt_run import run_dbt

REPO = Path(__file__).resolve().parents[2]
DBT = str(Path(sys.executable).with_name("dbt"))
PG_DSN = "host=127.0.0.1 port=5432 user=postgres dbname=postgres"
JSON_MARK = "DBT_LINEAGE_TEST_JSON="


def postgres_available() -> bool:
    try:
        import psycopg2

        psycopg2.connect(PG_DSN, connect_timeout=3).close()
        return True
    except Exception:  # the server is an external precondition of these tests
        return False


@dataclass
class DbtProject:
    """A copy of a dbt project that installs this package from the repo root."""

    path: Path
    target: str
    env: dict[str, str] = field(default_factory=dict)
    schema: str = "shop"
    warehouse: str = ""  # duckdb or postgres; defaults to the target's name
    dbt_bin: str = DBT  # the dbt executable (tests/macros/test_dbt18.py runs dbt 1.8's)

    def __post_init__(self) -> None:
        self.warehouse = self.warehouse or self.target

    def dbt(self, *args: str, check: bool = True, env: dict[str, str] | None = None):
        run_env = {
            **os.environ,
            **self.env,
            **(env or {}),
            "DBT_SEND_ANONYMOUS_USAGE_STATS": "false",
        }
        cmd = [
            self.dbt_bin,
            *args,
            "--profiles-dir",
            str(self.path),
            "--project-dir",
            str(self.path),
        ]
        if args[0] not in ("deps", "clean"):
            cmd += ["--target", self.target]
        if self.dbt_bin == DBT:  # this Python's dbt: run it in this process
            proc = run_dbt(cmd[1:], cwd=self.path, env=run_env)
        else:
            proc = subprocess.run(cmd, cwd=self.path, env=run_env, capture_output=True, text=True)
        if check and proc.returncode != 0:
            raise AssertionError(f"{' '.join(cmd)} failed:\n{proc.stdout}\n{proc.stderr}")
        return proc

    def run_results(self) -> dict:
        return json.loads((self.path / "target" / "run_results.json").read_text())

    def operation_json(self, macro: str, args: dict | None = None, **kw) -> dict:
        cli = ["run-operation", macro]
        if args is not None:
            cli += ["--args", json.dumps(args, ensure_ascii=False)]
        proc = self.dbt(*cli, "--log-format", "json", **kw)
        for line in proc.stdout.splitlines():
            msg = json.loads(line).get("info", {}).get("msg", "") if line.startswith("{") else ""
            if msg.startswith(JSON_MARK):
                return json.loads(msg[len(JSON_MARK) :])
        raise AssertionError(f"no {JSON_MARK} line in:\n{proc.stdout}")

    def operation_log(self, macro: str, args: dict | None = None) -> list[str]:
        cli = ["run-operation", macro, "--log-format", "json"]
        if args is not None:
            cli += ["--args", json.dumps(args, ensure_ascii=False)]
        proc = self.dbt(*cli)
        return [
            json.loads(line)["info"]["msg"]
            for line in proc.stdout.splitlines()
            if line.startswith("{")
        ]

    # --- reading the warehouse -------------------------------------------------------
    @property
    def lineage_schema(self) -> str:
        return f"{self.schema}_lineage"

    def query(self, sql: str) -> list[tuple]:
        if self.warehouse == "duckdb":
            import duckdb

            con = duckdb.connect(self.env["DBT_LINEAGE_DUCKDB_PATH"], read_only=True)
            try:
                return con.execute(sql).fetchall()
            finally:
                con.close()
        import psycopg2

        con = psycopg2.connect(PG_DSN)
        try:
            with con.cursor() as cur:
                cur.execute(sql)
                return cur.fetchall() if cur.description else []
        finally:
            con.close()

    def execute(self, *statements: str) -> None:
        """Runs ``statements`` in the warehouse, each committed (to damage the tables)."""
        if self.warehouse == "duckdb":
            import duckdb

            con = duckdb.connect(self.env["DBT_LINEAGE_DUCKDB_PATH"])
            try:
                for sql in statements:
                    con.execute(sql)
            finally:
                con.close()
            return
        import psycopg2

        con = psycopg2.connect(PG_DSN)
        con.autocommit = True
        try:
            with con.cursor() as cur:
                for sql in statements:
                    cur.execute(sql)
        finally:
            con.close()

    def rows(self, table: str, where: str = "true") -> list[dict]:
        sql = f"select * from {self.lineage_schema}.{table} where {where}"
        if self.warehouse == "duckdb":
            import duckdb

            con = duckdb.connect(self.env["DBT_LINEAGE_DUCKDB_PATH"], read_only=True)
            try:
                cur = con.execute(sql)
                names = [d[0] for d in cur.description]
                return [dict(zip(names, r, strict=True)) for r in cur.fetchall()]
            finally:
                con.close()
        import psycopg2

        con = psycopg2.connect(PG_DSN)
        try:
            with con.cursor() as cur:
                cur.execute(sql)
                names = [d[0] for d in cur.description]
                return [dict(zip(names, r, strict=True)) for r in cur.fetchall()]
        finally:
            con.close()


def copy_project(source: Path, dest: Path) -> Path:
    shutil.copytree(
        source,
        dest,
        ignore=shutil.ignore_patterns(
            "target", "dbt_packages", "logs", "spark", "*.duckdb*", ".user.yml"
        ),
    )
    (dest / "packages.yml").write_text(f"packages:\n  - local: {REPO}\n")
    lock = dest / "package-lock.yml"
    if lock.exists():
        lock.unlink()
    return dest


def install_package(project: DbtProject) -> None:
    """What `dbt deps` does for our `local:` package: a symlink in dbt_packages/ (the
    template's tests run `dbt deps` itself)."""
    (project.path / "dbt_packages").mkdir()
    (project.path / "dbt_packages" / "dbt_lineage").symlink_to(REPO)


def drop_pg_schemas(*schemas: str) -> None:
    import psycopg2

    con = psycopg2.connect(PG_DSN)
    con.autocommit = True
    with con.cursor() as cur:
        for schema in schemas:
            cur.execute(f'drop schema if exists "{schema}" cascade')
    con.close()


@pytest.fixture(params=["duckdb", "postgres"])
def shop(request, tmp_path) -> DbtProject:
    """integration_tests/ copied to tmp_path, deps installed, on each warehouse."""
    target = request.param
    if target == "postgres" and not postgres_available():
        pytest.fail(
            "PostgreSQL is not reachable at 127.0.0.1:5432: start it with "
            "`pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start`"
        )
    path = copy_project(REPO / "integration_tests", tmp_path / "shop")
    schema = "shop" if target == "duckdb" else f"it_{uuid.uuid4().hex[:10]}"
    env = {
        "DBT_LINEAGE_DUCKDB_PATH": str(tmp_path / "warehouse.duckdb"),
        "DBT_LINEAGE_PG_SCHEMA": schema,
    }
    project = DbtProject(path=path, target=target, env=env, schema=schema)
    install_package(project)
    yield project
    if target == "postgres":
        drop_pg_schemas(schema, f"{schema}_lineage")


@pytest.fixture
def duckdb_shop(tmp_path) -> DbtProject:
    path = copy_project(REPO / "integration_tests", tmp_path / "shop")
    project = DbtProject(
        path=path,
        target="duckdb",
        env={"DBT_LINEAGE_DUCKDB_PATH": str(tmp_path / "warehouse.duckdb")},
    )
    install_package(project)
    return project


@pytest.fixture
def pg_shop(tmp_path) -> DbtProject:
    """integration_tests/ on PostgreSQL, in a schema of its own."""
    if not postgres_available():
        pytest.fail(
            "PostgreSQL is not reachable at 127.0.0.1:5432: start it with "
            "`pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start`"
        )
    schema = f"it_{uuid.uuid4().hex[:10]}"
    project = DbtProject(
        path=copy_project(REPO / "integration_tests", tmp_path / "shop"),
        target="postgres",
        env={"DBT_LINEAGE_PG_SCHEMA": schema},
        schema=schema,
    )
    install_package(project)
    yield project
    drop_pg_schemas(schema, f"{schema}_lineage")
