"""The hook on a real local Spark: dbt-spark's `session` method runs Spark (pyspark, Java 17)
inside the dbt process. Every test here shares one Spark session: dbt runs in this process
through dbtRunner, dbt's programmatic entry point, so the JVM starts once; the template and
the integration shop are each built once per test session (session-scoped fixtures), with
their tables and Hive metastore under one temporary folder."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

import pytest

from .conftest import REPO, copy_project
from .test_record_run import P, executed, expected_rows_affected, short

pytestmark = pytest.mark.slow


@dataclass
class SparkProject:
    """A copy of a dbt project run on the `spark` target by the dbt in this process."""

    path: Path
    schema: str
    events: list[tuple[str, str]] = field(default_factory=list)  # (level, message) of the last run

    def dbt(self, *args: str, check: bool = True):
        from dbt.cli.main import dbtRunner

        self.events = []
        runner = dbtRunner(callbacks=[lambda e: self.events.append((e.info.level, e.info.msg))])
        cli = [*args, "--project-dir", str(self.path), "--profiles-dir", str(self.path)]
        if args[0] != "deps":
            cli += ["--target", "spark"]
        result = runner.invoke(cli)
        if check and not result.success:
            log = "\n".join(m for _, m in self.events)
            raise AssertionError(f"dbt {' '.join(args)} failed: {result.exception}\n{log}")
        return result

    def messages(self, level: str | None = None) -> list[str]:
        return [m for lvl, m in self.events if level is None or lvl == level]

    def run_results(self) -> dict:
        return json.loads((self.path / "target" / "run_results.json").read_text())

    @property
    def lineage_schema(self) -> str:
        return f"{self.schema}_lineage"

    def sql(self, query: str) -> list[dict]:
        from pyspark.sql import SparkSession

        spark = SparkSession.builder.getOrCreate()  # the session dbt started
        return [row.asDict() for row in spark.sql(query).collect()]

    def rows(self, table: str, where: str = "true") -> list[dict]:
        return self.sql(f"select * from {self.lineage_schema}.{table} where {where}")


@pytest.fixture(scope="session")
def spark_env(tmp_path_factory):
    """One folder for Spark's tables and metastore, named by both projects' profiles."""
    folder = tmp_path_factory.mktemp("spark")
    saved = {k: os.environ.get(k) for k in _ENV}
    os.environ.update(
        {
            "DBT_SHOP_SPARK_DIR": str(folder),
            "DBT_LINEAGE_SPARK_DIR": str(folder),
            "DBT_SEND_ANONYMOUS_USAGE_STATS": "false",
        }
    )
    yield folder
    for key, value in saved.items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value


_ENV = ("DBT_SHOP_SPARK_DIR", "DBT_LINEAGE_SPARK_DIR", "DBT_SEND_ANONYMOUS_USAGE_STATS")


@pytest.fixture(scope="session")
def spark_template(spark_env, tmp_path_factory):
    """dbt_project_template/ built once on Spark: (project, run_results)."""
    project = SparkProject(
        copy_project(REPO / "dbt_project_template", tmp_path_factory.mktemp("tpl") / "t"), "main"
    )
    project.dbt("deps")
    project.dbt("build")
    return project, project.run_results()


@pytest.fixture(scope="session")
def spark_shop(spark_env, tmp_path_factory):
    """integration_tests/ built twice on Spark, as test_record_run does on the other
    warehouses: (project, first run_results, second run_results)."""
    project = SparkProject(
        copy_project(REPO / "integration_tests", tmp_path_factory.mktemp("shop") / "s"), "shop"
    )
    project.dbt("deps")
    project.dbt("build")
    first = project.run_results()
    second_run = project.dbt(
        "build",
        "--select",
        "stg_orders+",
        "--vars",
        "{include_broken: true, record_twice: true}",
        check=False,
    )
    assert not second_run.success  # the broken model fails the run, not the hook
    assert second_run.exception is None, second_run.exception
    return project, first, project.run_results()


def _when(text: str | None) -> datetime | None:
    return datetime.fromisoformat(text.rstrip("Z")) if text else None


def _execute(result: dict, edge: str) -> datetime | None:
    return next((_when(t[edge]) for t in result["timing"] if t["name"] == "execute"), None)


def test_template_builds_on_spark_and_the_hook_records_it(spark_template):
    project, results = spark_template
    inv = results["metadata"]["invocation_id"]
    nodes = executed(results)
    statuses = [r["status"] for r in nodes.values()]
    assert set(statuses) == {"success", "pass", "no-op"}  # no-op: the exposure
    assert any(u.startswith("model.shop.fct_daily_revenue") for u in nodes)  # the incremental

    (invocation,) = project.rows("lineage_invocations")
    assert invocation["invocation_id"] == inv
    assert (invocation["target_type"], invocation["command"]) == ("spark", "build")
    assert invocation["nodes_total"] == len(nodes)
    assert invocation["nodes_success"] == len(nodes) - statuses.count("no-op")

    recorded = {r["unique_id"]: r for r in project.rows("lineage_node_runs")}
    assert set(recorded) == set(nodes)
    for unique_id, row in recorded.items():
        assert row["status"] == nodes[unique_id]["status"], unique_id
        assert row["rows_affected"] == expected_rows_affected(nodes[unique_id]), unique_id
    assert recorded["seed.shop.raw_orders"]["rows_affected"] > 0

    # each input names this run when dbt's timings say it was built before its consumer ran
    edges = project.rows("lineage_run_inputs")
    assert edges
    for edge in edges:
        upstream = nodes.get(edge["input_unique_id"])
        consumer_start = _execute(nodes[edge["unique_id"]], "started_at")
        built_before = (
            upstream is not None
            and upstream["status"] == "success"
            and consumer_start is not None
            and _execute(upstream, "completed_at") <= consumer_start
        )
        assert edge["input_invocation_id"] == (inv if built_before else None), edge
    assert sum(e["input_invocation_id"] == inv for e in edges) >= 10


def test_hook_records_two_builds_on_spark(spark_shop):
    shop, first, second = spark_shop
    inv1, inv2 = (r["metadata"]["invocation_id"] for r in (first, second))

    by_id = {r["invocation_id"]: r for r in shop.rows("lineage_invocations")}
    assert set(by_id) == {inv1, inv2}  # the hook ran twice in run 2: still one row
    assert by_id[inv2]["selected"] == "stg_orders+"
    assert (by_id[inv2]["nodes_error"], by_id[inv2]["nodes_skipped"]) == (1, 1)

    for inv, results in ((inv1, first), (inv2, second)):
        runs = shop.rows("lineage_node_runs", f"invocation_id = '{inv}'")
        assert len(runs) == len({r["unique_id"] for r in runs}), "duplicate node runs"
        expected = executed(results)
        assert {r["unique_id"] for r in runs} == set(expected)
        for run in runs:
            assert run["status"] == expected[run["unique_id"]]["status"], run["unique_id"]
    runs2 = {r["unique_id"]: r for r in shop.rows("lineage_node_runs", f"invocation_id = '{inv2}'")}
    assert "no_such_column" in runs2[f"model.{P}.broken"]["message"]
    assert runs2[f"model.{P}.after_broken"]["status"] == "skipped"

    edges = {
        (short(r["unique_id"]), short(r["input_unique_id"])): r["input_invocation_id"]
        for r in shop.rows("lineage_run_inputs", f"invocation_id = '{inv2}'")
    }
    assert edges == {
        ("stg_orders", "raw_orders"): inv1,
        ("orders", "stg_orders"): inv2,
        ("orders", "stg_payments"): inv1,
        ("customer_orders", "orders"): inv2,
        ("customer_orders", "stg_customers"): inv1,
        ("broken", "stg_orders"): inv2,
        ("after_broken", "broken"): None,
        ("not_null_orders_order_id", "orders"): inv2,
        ("unique_orders_order_id", "orders"): inv2,
    }
    stamps = shop.sql(f"select distinct dbt_lineage_invocation_id as s from {shop.schema}.orders")
    assert stamps == [{"s": inv2}]


def test_provenance_query_runs_on_spark(spark_shop):
    shop, first, second = spark_shop
    inv1, inv2 = (r["metadata"]["invocation_id"] for r in (first, second))
    shop.dbt(
        "run-operation",
        "dbt_lineage.lineage_run_provenance",
        "--args",
        json.dumps({"relation_or_unique_id": f"model.{P}.orders"}),
    )
    sql = next(m for m in shop.messages() if m.lstrip().startswith("with recursive"))
    runs = {(r["depth"], short(r["unique_id"]), r["invocation_id"]) for r in shop.sql(sql)}
    assert (0, "orders", inv2) in runs
    assert (1, "stg_orders", inv2) in runs and (1, "stg_payments", inv1) in runs
    assert (2, "raw_orders", inv1) in runs


def test_write_failure_warns_unless_fail_on_error(spark_shop):
    """lineage_node_runs replaced by a view: the insert fails inside Spark's SQL script, the
    run succeeds with a warning, and with dbt_lineage_fail_on_error the run fails."""
    shop, _, _ = spark_shop
    table = f"{shop.lineage_schema}.lineage_node_runs"
    shop.sql(f"alter table {table} rename to {table}_kept")
    shop.sql(f"create view {table} as select * from {table}_kept")
    try:
        before = len(shop.rows("lineage_invocations"))
        shop.dbt("run", "--select", "stg_orders")
        (warning,) = [m for m in shop.messages("warn") if "dbt_lineage could not record" in m]
        assert f"in {table}: a lineage table is not a table (SQLSTATE 42809" in warning
        assert "The run itself is unaffected" in warning

        failed = shop.dbt(
            "run",
            "--select",
            "stg_orders",
            "--vars",
            "{dbt_lineage_fail_on_error: true}",
            check=False,
        )
        assert not failed.success
        assert "dbt_lineage_fail_on_error is true, so the run fails" in str(failed.exception)
        assert len(shop.rows("lineage_invocations")) == before  # nothing half-recorded
    finally:
        shop.sql(f"drop view {table}")
        shop.sql(f"alter table {table}_kept rename to {table}")


def test_purge_history_on_spark(spark_shop):
    """Spark's tables cannot DELETE: purge_history rewrites them without the old rows."""
    shop, _, _ = spark_shop
    own = {"dbt_lineage_schema": "purge_lineage"}
    shop.dbt("run", "--select", "stg_orders", "--vars", json.dumps(own))
    old = shop.run_results()["metadata"]["invocation_id"]
    shop.dbt(
        "run-operation",
        "dbt_lineage.purge_history",
        "--args",
        "{days: 0, confirm: true}",
        "--vars",
        json.dumps(own),
    )
    shop.dbt("run", "--select", "stg_orders", "--vars", json.dumps(own))
    new = shop.run_results()["metadata"]["invocation_id"]
    for table in ("lineage_invocations", "lineage_node_runs", "lineage_run_inputs"):
        left = {
            r["i"]
            for r in shop.sql(f"select distinct invocation_id as i from purge_lineage.{table}")
        }
        assert left == {new}, (table, old)
    tables = {r["tableName"] for r in shop.sql("show tables in purge_lineage")}
    assert tables == {"lineage_invocations", "lineage_node_runs", "lineage_run_inputs"}


def test_archive_history_on_spark(spark_shop):
    """Spark has no transactions and cannot DELETE: archive_history inserts into the archive
    what it lacks, then rewrites each live table without the archived invocations."""
    from pyspark.sql import SparkSession
    from pyspark.sql import functions as F

    shop, _, _ = spark_shop
    own = json.dumps(
        {"dbt_lineage_schema": "arch_lineage", "dbt_lineage_archive_schema": "arch_cold"}
    )
    shop.dbt("run", "--select", "stg_orders", "--vars", own)
    old = shop.run_results()["metadata"]["invocation_id"]
    shop.dbt("run", "--select", "stg_orders", "--vars", own)
    new = shop.run_results()["metadata"]["invocation_id"]
    spark = SparkSession.builder.getOrCreate()
    started = F.col("started_at")
    aged = spark.table("arch_lineage.lineage_invocations").withColumn(
        "started_at",
        F.when(F.col("invocation_id") == old, started - F.expr("interval 100 days")).otherwise(
            started
        ),
    )
    aged.write.format("parquet").saveAsTable("arch_lineage.aged")
    shop.sql(
        "insert overwrite table arch_lineage.lineage_invocations select * from arch_lineage.aged"
    )
    shop.sql("drop table arch_lineage.aged")
    before = {
        t: len(shop.sql(f"select * from arch_lineage.{t} where invocation_id = '{old}'"))
        for t in ("lineage_invocations", "lineage_node_runs", "lineage_run_inputs")
    }
    for _ in range(2):  # the second run finds nothing left to move and doubles nothing
        shop.dbt("run-operation", "dbt_lineage.archive_history", "--args", "{days: 90}",
                 "--vars", own)  # fmt: skip
        for table, count in before.items():
            live = {
                r["i"] for r in shop.sql(f"select invocation_id as i from arch_lineage.{table}")
            }
            stored = shop.sql(f"select invocation_id as i from arch_cold.{table}")
            assert live == {new}, table
            assert [r["i"] for r in stored] == [old] * count, table
    assert any("rows moved: " in m for m in shop.messages())
    tables = {r["tableName"] for r in shop.sql("show tables in arch_lineage")}
    assert tables == {"lineage_invocations", "lineage_node_runs", "lineage_run_inputs"}
