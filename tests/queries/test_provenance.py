"""``provenance`` over real instance rows: the hooked template on DuckDB, run as a team
would (a full build, then partial runs, then a failing one), read back through dbt's
adapter by the warehouse reader."""

from __future__ import annotations

import json
import os
import typing as t
from pathlib import Path

import pytest
from tests.cli.test_trace import duckdb_profiles, hooked_project, invocation_id
from tests.dbt_projects import REPO, dbt
from tests.dbt_run import run_dbt

from dbt_lineage.artifacts.manifest import load_manifest
from dbt_lineage.errors import DbtLineageError
from dbt_lineage.outputs.warehouse.connection import connection
from dbt_lineage.outputs.warehouse.instance_reader import instance_reader
from dbt_lineage.queries.provenance import TracedRun, provenance

pytestmark = pytest.mark.slow

CUSTOMERS = "model.shop.customers"


class History(t.NamedTuple):
    project: Path
    full_build: str
    customers_only: str
    staging_again: str
    failed: str


@pytest.fixture(scope="module")
def history(tmp_path_factory: pytest.TempPathFactory) -> History:
    """build everything; run customers alone; build stg_customers alone; a failing run of
    customers."""
    root = tmp_path_factory.mktemp("provenance")
    source = REPO / "dbt_project_template"
    project = hooked_project(source, root, duckdb_profiles("shop", root / "shop.duckdb"))
    dbt(project, "build")
    full_build = invocation_id(project)
    dbt(project, "run", "--select", "customers")
    customers_only = invocation_id(project)
    dbt(project, "build", "--select", "stg_customers")
    staging_again = invocation_id(project)
    model = project / "models" / "marts" / "customers.sql"
    sql = model.read_text()
    model.write_text("select no_such_column from {{ ref('stg_customers') }}")
    try:
        proc = run_dbt(
            ["run", "--select", "customers", "--profiles-dir", "."],
            project,
            env={**os.environ, "DBT_SEND_ANONYMOUS_USAGE_STATS": "false"},
        )
        assert proc.returncode == 1, proc.stdout
        failed = invocation_id(project)
    finally:
        model.write_text(sql)
    return History(project, full_build, customers_only, staging_again, failed)


def trace(history: History, unique_id: str, stamp: str | None = None) -> TracedRun:
    manifest = load_manifest(history.project / "target" / "manifest.json")
    ephemeral = {
        uid: node.depends_on.nodes
        for uid, node in manifest.relation_nodes().items()
        if node.is_ephemeral
    }
    with connection(history.project, profiles_dir=history.project) as warehouse:
        return provenance(unique_id, instance_reader(warehouse), stamp=stamp, ephemeral=ephemeral)


def inputs(run: TracedRun) -> dict[str, TracedRun]:
    return {item.unique_id: item.run for item in run.inputs if item.run is not None}


def test_the_last_successful_build_is_traced_not_the_failed_run(history: History) -> None:
    traced = trace(history, CUSTOMERS)
    assert traced.invocation_id == history.customers_only
    assert traced.status == "success"
    assert traced.invocation.command == "run"


def test_inputs_are_the_runs_that_built_them_before_the_consumer(history: History) -> None:
    traced = trace(history, CUSTOMERS)
    upstream = inputs(traced)
    # customers ran alone: both inputs were built by the full build before it; the later
    # rebuild of stg_customers did not feed this run
    assert upstream["model.shop.stg_customers"].invocation_id == history.full_build
    assert upstream["model.shop.orders"].invocation_id == history.full_build
    assert history.staging_again not in json.dumps(traced.to_dict())


def test_the_latest_build_of_an_input_is_its_own_trace(history: History) -> None:
    traced = trace(history, "model.shop.stg_customers")
    assert traced.invocation_id == history.staging_again
    seed = inputs(traced)["seed.shop.raw_customers"]
    assert seed.invocation_id == history.full_build


def test_a_stamp_traces_the_failed_run_too(history: History) -> None:
    traced = trace(history, CUSTOMERS, stamp=history.failed)
    assert traced.invocation_id == history.failed
    assert traced.status == "error"
    assert inputs(traced)["model.shop.stg_customers"].invocation_id == history.staging_again


def test_every_run_in_the_tree_is_unfolded_once(history: History) -> None:
    traced = trace(history, CUSTOMERS, stamp=history.full_build)
    seen: list[tuple[str, str]] = []

    def walk(run: TracedRun) -> None:
        if not run.repeated:
            seen.append((run.invocation_id, run.unique_id))
        for item in run.inputs:
            if item.run is not None:
                walk(item.run)

    walk(traced)
    assert len(seen) == len(set(seen))
    assert "model.shop.int_order_payments" in {uid for _, uid in seen}


def test_a_node_never_built_is_an_error(history: History) -> None:
    with pytest.raises(DbtLineageError, match="no successful run of model.shop.nothing"):
        trace(history, "model.shop.nothing")
