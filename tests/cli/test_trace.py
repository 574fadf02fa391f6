"""``dbt-lineage trace`` end to end: real dbt with the record_run hook, twice, on DuckDB (the
template) and on the PostgreSQL server (fixtures/postgres_shop), then trace a mart.

``hooked_project`` is shared with test_publish.py and tests/queries/test_provenance.py: it
copies a project the way tests/dbt_projects.py does, and adds the dbt package and the hook
when the project does not have them yet.
"""

from __future__ import annotations

import contextlib
import json
import os
import typing as t
import uuid
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from tests.dbt_projects import PG_HOST, PG_PORT, REPO, copy_project, dbt
from tests.dbt_run import run_dbt

from dbt_lineage.cli import main

pytestmark = pytest.mark.slow

HOOK = 'on-run-end: ["{{ dbt_lineage.record_run(results) }}"]\n'


def hooked_project(source: Path, tmp_root: Path, profiles: str) -> Path:
    """A copy of ``source`` with the dbt_lineage package and hook, and these profiles."""
    project = copy_project(source, tmp_root)
    if not (project / "packages.yml").exists():
        (project / "packages.yml").write_text("packages:\n  - local: ../\n")
    config = (project / "dbt_project.yml").read_text()
    if "record_run" not in config:
        (project / "dbt_project.yml").write_text(f"{config.rstrip()}\n\n{HOOK}")
    (project / "profiles.yml").write_text(profiles)
    return project


def duckdb_profiles(project_name: str, path: Path) -> str:
    """Two targets on one DuckDB file: ``dev`` (schema main) and ``elsewhere``."""
    outputs = "".join(
        f"    {name}:\n      type: duckdb\n      path: '{path}'\n      schema: {schema}\n"
        f"      threads: 4\n"
        for name, schema in (("dev", "main"), ("elsewhere", "elsewhere"))
    )
    return f"{project_name}:\n  target: dev\n  outputs:\n{outputs}"


def postgres_profiles(project_name: str, schema: str) -> str:
    return (
        f"{project_name}:\n  target: dev\n  outputs:\n    dev:\n      type: postgres\n"
        f"      host: {PG_HOST}\n      port: {PG_PORT}\n      user: postgres\n"
        f"      password: ''\n      dbname: postgres\n      schema: {schema}\n      threads: 4\n"
    )


def invocation_id(project: Path) -> str:
    results = json.loads((project / "target" / "run_results.json").read_text())
    return results["metadata"]["invocation_id"]


def lineage(project: Path, *args: str) -> Result:
    """Runs ``dbt-lineage <args>`` in-process from the project directory, as a user would."""
    previous = Path.cwd()
    os.chdir(project)
    dirs = ["--project-dir", str(project)]
    if args[0] in ("publish", "trace"):
        dirs += ["--profiles-dir", str(project)]
    try:
        return CliRunner().invoke(main.cli, [*args, *dirs])
    finally:
        os.chdir(previous)


def trace_json(project: Path, *args: str) -> dict[str, t.Any]:
    result = lineage(project, "trace", *args, "--format", "json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def drop_postgres_schemas(prefix: str) -> None:
    import psycopg2

    with contextlib.closing(
        psycopg2.connect(host=PG_HOST, port=PG_PORT, user="postgres", dbname="postgres")
    ) as conn:
        conn.autocommit = True
        with conn.cursor() as cursor:
            cursor.execute(
                "select schema_name from information_schema.schemata where schema_name like %s",
                (f"{prefix}%",),
            )
            for (schema,) in cursor.fetchall():
                cursor.execute(f'drop schema "{schema}" cascade')


def postgres_rows(sql: str, params: tuple[t.Any, ...] = ()) -> list[tuple[t.Any, ...]]:
    import psycopg2

    with (
        contextlib.closing(
            psycopg2.connect(host=PG_HOST, port=PG_PORT, user="postgres", dbname="postgres")
        ) as conn,
        conn.cursor() as cursor,
    ):
        cursor.execute(sql, params)
        return cursor.fetchall()


def duckdb_rows(path: Path, sql: str, params: list[t.Any] | None = None) -> list[tuple[t.Any, ...]]:
    import duckdb

    with contextlib.closing(duckdb.connect(str(path))) as conn:
        return conn.execute(sql, params or []).fetchall()


def inputs_by_id(run: dict[str, t.Any]) -> dict[str, dict[str, t.Any]]:
    return {item["unique_id"]: item for item in run["inputs"]}


def leaves(run: dict[str, t.Any]) -> t.Iterator[dict[str, t.Any]]:
    for item in run.get("inputs", ()):
        if "run" in item:
            yield from leaves(item["run"])
        else:
            yield item


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, str]:
    """The template on DuckDB with the hook, built twice: (project, first and second
    invocation ids)."""
    root = tmp_path_factory.mktemp("trace_duckdb")
    source = REPO / "dbt_project_template"
    project = hooked_project(source, root, duckdb_profiles("shop", root / "shop.duckdb"))
    dbt(project, "build")
    first = invocation_id(project)
    dbt(project, "build")
    return project, first, invocation_id(project)


def test_trace_names_the_invocation_that_built_the_mart(shop: tuple[Path, str, str]) -> None:
    project, _, second = shop
    traced = trace_json(project, "customers")
    assert traced["unique_id"] == "model.shop.customers"
    assert traced["invocation_id"] == second
    assert traced["status"] == "success"
    assert traced["invocation"]["command"] == "build"
    (latest,) = duckdb_rows(
        project.parent / "shop.duckdb",
        "select invocation_id from main_lineage.lineage_node_runs where unique_id = ? "
        "and status = 'success' order by execute_completed_at desc limit 1",
        ["model.shop.customers"],
    )
    assert latest[0] == second
    recorded = dict(
        duckdb_rows(
            project.parent / "shop.duckdb",
            "select input_unique_id, input_invocation_id from main_lineage.lineage_run_inputs "
            "where invocation_id = ? and unique_id = ?",
            [second, "model.shop.customers"],
        )
    )
    inputs = inputs_by_id(traced)
    assert set(inputs) == set(recorded) == {"model.shop.orders", "model.shop.stg_customers"}
    for input_id, item in inputs.items():
        assert item["run"]["invocation_id"] == recorded[input_id] == second
        assert item["run"]["status"] == "success"


def test_trace_goes_back_to_sources_through_the_ephemeral_model(
    shop: tuple[Path, str, str],
) -> None:
    project, _, second = shop
    traced = trace_json(project, "model.shop.customers")
    orders = inputs_by_id(traced)["model.shop.orders"]["run"]
    ephemeral = inputs_by_id(orders)["model.shop.int_order_payments"]["run"]
    assert ephemeral["status"] == "ephemeral"
    payments = inputs_by_id(ephemeral)["model.shop.stg_payments"]["run"]
    assert payments["invocation_id"] == second
    seed = inputs_by_id(payments)["seed.shop.raw_payments"]["run"]
    assert seed["rows_affected"] == 75
    notes = {item["unique_id"]: item["note"] for item in leaves(traced)}
    assert notes["source.shop.ecom.raw_payments"] == "source"
    assert notes["source.shop.ecom.raw_customers"] == "source"
    assert set(notes.values()) == {"source"}


def test_text_output_is_an_indented_tree(shop: tuple[Path, str, str]) -> None:
    project, _, second = shop
    result = lineage(project, "trace", "customers")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith(
        f'model.shop.customers  "shop"."main"."customers"  invocation {second}'
    )
    assert "success" in lines[0]
    assert any(line.startswith("├─ model.shop.orders") for line in lines)
    assert any(line.startswith("└─ model.shop.stg_customers") for line in lines)
    assert any("source.shop.ecom.raw_orders  (source)" in line for line in lines)
    assert any("model.shop.int_order_payments  (ephemeral" in line for line in lines)


def test_stamp_traces_the_run_of_that_invocation(shop: tuple[Path, str, str]) -> None:
    project, first, _ = shop
    traced = trace_json(project, "customers", "--stamp", first)
    assert traced["invocation_id"] == first
    runs = [item["run"] for item in traced["inputs"]]
    assert {run["invocation_id"] for run in runs} == {first}


def test_unknown_stamp_is_a_one_line_error(shop: tuple[Path, str, str]) -> None:
    project, _, _ = shop
    result = lineage(project, "trace", "customers", "--stamp", "not-an-invocation")
    assert result.exit_code == 2
    assert "invocation not-an-invocation has no recorded run of model.shop.customers" in (
        result.stderr
    )


def test_names_are_resolved_against_the_manifest(shop: tuple[Path, str, str]) -> None:
    project, _, _ = shop
    result = lineage(project, "trace", "custmers")
    assert result.exit_code == 2
    assert "did you mean customers" in result.stderr
    result = lineage(project, "trace", "source:ecom.raw_orders")
    assert result.exit_code == 2
    assert "is a source" in result.stderr


def test_no_lineage_tables_says_how_to_add_the_hook(shop: tuple[Path, str, str]) -> None:
    project, _, _ = shop
    result = lineage(project, "trace", "customers", "--target", "elsewhere")
    assert result.exit_code == 2
    (line,) = result.stderr.strip().splitlines()
    assert "no lineage tables in schema elsewhere_lineage" in line
    assert "add the on-run-end hook (see README) and run dbt once" in line


@pytest.fixture(scope="module")
def postgres_shop(tmp_path_factory: pytest.TempPathFactory) -> t.Iterator[tuple[Path, str, str]]:
    schema = f"dbtl_trace_{uuid.uuid4().hex[:8]}"
    root = tmp_path_factory.mktemp("trace_postgres")
    source = REPO / "fixtures" / "postgres_shop"
    project = hooked_project(source, root, postgres_profiles("postgres_shop", schema))
    try:
        dbt(project, "build")
        first = invocation_id(project)
        dbt(project, "build")
        yield project, first, invocation_id(project)
    finally:
        drop_postgres_schemas(schema)


def test_trace_on_postgres(postgres_shop: tuple[Path, str, str]) -> None:
    project, first, second = postgres_shop
    traced = trace_json(project, "customer_ltv")
    assert traced["invocation_id"] == second
    schema = traced["relation_name"].split(".")[1].strip('"')
    recorded = dict(
        postgres_rows(
            f"select input_unique_id, input_invocation_id from {schema}_lineage."
            "lineage_run_inputs where invocation_id = %s and unique_id = %s",
            (second, "model.postgres_shop.customer_ltv"),
        )
    )
    inputs = inputs_by_id(traced)
    assert set(inputs) == set(recorded)
    assert {item["run"]["invocation_id"] for item in inputs.values()} == {second}
    # stg_orders feeds customer_ltv directly and through stg_order_items: shown once in full
    items = inputs["model.postgres_shop.stg_order_items"]["run"]
    again = inputs_by_id(items)["model.postgres_shop.stg_orders"]["run"]
    direct = inputs["model.postgres_shop.stg_orders"]["run"]
    assert [again.get("repeated"), direct.get("repeated")].count(True) == 1
    assert {item["note"] for item in leaves(traced)} == {"source"}
    stamped = trace_json(project, "customer_ltv", "--stamp", first)
    assert stamped["invocation_id"] == first


def test_a_skipped_run_shows_the_failed_run_of_its_input_and_a_disabled_model_is_traced(
    shop: tuple[Path, str, str],
) -> None:
    project, _, second = shop
    # A model that never built, and one that reads it (skipped when it fails).
    broken = project / "models" / "marts" / "broken_input.sql"
    broken.write_text("select * from no_such_table\n")
    reader = project / "models" / "marts" / "reads_broken.sql"
    reader.write_text("select * from {{ ref('broken_input') }}\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("DBT_")}
    failed = run_dbt(["run", "--profiles-dir", ".", "-s", "broken_input+"], project, env=env)
    assert failed.returncode == 1, failed.stdout[-3000:]
    third = invocation_id(project)

    skipped = trace_json(project, "reads_broken", "--stamp", third)
    assert skipped["status"] == "skipped"
    cause = inputs_by_id(skipped)["model.shop.broken_input"]
    assert not cause.get("note")
    assert cause["run"]["invocation_id"] == third
    assert cause["run"]["status"] == "error"
    text = lineage(project, "trace", "reads_broken", "--stamp", third).stdout
    assert "(not recorded)" not in text
    assert f"model.shop.broken_input  invocation {third}  error" in text
    broken.unlink()
    reader.unlink()

    # Disabled in today's manifest: its recorded runs are still traced.
    leaf = project / "models" / "marts" / "signups_by_country.sql"
    leaf.write_text("{{ config(enabled=false) }}\n" + leaf.read_text())
    dbt(project, "parse")
    traced = trace_json(project, "signups_by_country")
    assert traced["unique_id"] == "model.shop.signups_by_country"
    assert traced["invocation_id"] == second
    assert traced["status"] == "success"
