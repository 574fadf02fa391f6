"""record_run on a real shop: dbt build twice, on DuckDB and on PostgreSQL, then read the
lineage tables as a user would and compare them with dbt's own run_results.json."""

from __future__ import annotations

import json

import pytest

from .conftest import REPO

pytestmark = pytest.mark.slow

P = "dbt_lineage_integration_tests"


def short(unique_id: str) -> str:
    """model.pkg.orders -> orders;
    test.pkg.unique_orders_order_id.fed79b3a6e -> unique_orders_order_id"""
    parts = unique_id.split(".")
    return parts[2] if parts[0] == "test" else parts[-1]


def executed(run_results: dict) -> dict[str, dict]:
    """Node results of run_results.json (project hooks are listed there too, as operations)."""
    return {
        r["unique_id"]: r
        for r in run_results["results"]
        if not r["unique_id"].startswith("operation.")
    }


def expected_rows_affected(result: dict):
    value = (result.get("adapter_response") or {}).get("rows_affected")
    return None if value in (None, "", -1) else int(value)


def test_build_twice_records_invocations_node_runs_and_inputs(shop):
    shop.dbt("build")
    first = shop.run_results()
    inv1 = first["metadata"]["invocation_id"]

    # second run: only stg_orders and what is downstream of it, a model that fails, one
    # skipped after it, and the hook rendered twice in the same invocation
    proc = shop.dbt(
        "build",
        "--select",
        "stg_orders+",
        "--vars",
        "{include_broken: true, record_twice: true}",
        check=False,
    )
    assert proc.returncode == 1, proc.stdout  # the broken model fails the run, not the hook
    second = shop.run_results()
    inv2 = second["metadata"]["invocation_id"]

    invocations = shop.rows("lineage_invocations")
    assert sorted(r["invocation_id"] for r in invocations) == sorted([inv1, inv2])
    by_id = {r["invocation_id"]: r for r in invocations}
    assert by_id[inv2]["command"] == "build"
    assert by_id[inv2]["selected"] == "stg_orders+"
    assert by_id[inv2]["nodes_error"] == 1 and by_id[inv2]["nodes_skipped"] == 1
    assert by_id[inv1]["nodes_total"] == len(executed(first))
    assert by_id[inv1]["target_type"] == shop.target

    for inv, results in ((inv1, first), (inv2, second)):
        runs = shop.rows("lineage_node_runs", f"invocation_id = '{inv}'")
        assert len(runs) == len({r["unique_id"] for r in runs}), "duplicate node runs"
        expected = executed(results)
        assert {r["unique_id"] for r in runs} == set(expected)
        for run in runs:
            want = expected[run["unique_id"]]
            assert run["status"] == want["status"], run["unique_id"]
            assert run["rows_affected"] == expected_rows_affected(want), run["unique_id"]

    runs2 = {r["unique_id"]: r for r in shop.rows("lineage_node_runs", f"invocation_id = '{inv2}'")}
    broken = runs2[f"model.{P}.broken"]
    assert broken["status"] == "error"
    assert "no_such_column" in broken["message"]
    assert runs2[f"model.{P}.after_broken"]["status"] == "skipped"
    seeds = {
        k: v
        for k, v in {
            r["unique_id"]: r for r in shop.rows("lineage_node_runs", f"invocation_id = '{inv1}'")
        }.items()
        if k.startswith("seed.")
    }
    assert seeds[f"seed.{P}.raw_orders"]["rows_affected"] == 5

    edges = {
        (short(r["unique_id"]), short(r["input_unique_id"])): r["input_invocation_id"]
        for r in shop.rows("lineage_run_inputs", f"invocation_id = '{inv2}'")
    }
    assert edges == {
        ("stg_orders", "raw_orders"): inv1,  # the seed was not selected: built by run 1
        ("orders", "stg_orders"): inv2,  # rebuilt earlier in this same invocation
        ("orders", "stg_payments"): inv1,
        ("customer_orders", "orders"): inv2,
        ("customer_orders", "stg_customers"): inv1,
        ("broken", "stg_orders"): inv2,
        ("after_broken", "broken"): None,  # never built successfully
        ("not_null_orders_order_id", "orders"): inv2,
        ("unique_orders_order_id", "orders"): inv2,
    }
    first_edges = shop.rows("lineage_run_inputs", f"invocation_id = '{inv1}'")
    source_edge = [r for r in first_edges if r["input_unique_id"].startswith("source.")]
    assert len(source_edge) == 1 and source_edge[0]["input_invocation_id"] is None
    assert (
        source_edge[0]["input_relation_name"]
        .replace('"', "")
        .endswith(f"{shop.schema}.raw_payments")
    )

    # the stamp column of the mart names the invocation that last wrote it
    stamps = shop.query(f"select distinct dbt_lineage_invocation_id from {shop.schema}.orders")
    assert stamps == [(inv2,)]


def test_provenance_query_walks_back_to_the_runs_of_the_inputs(shop):
    shop.dbt("build")
    inv1 = shop.run_results()["metadata"]["invocation_id"]
    shop.dbt("build", "--select", "orders")
    inv2 = shop.run_results()["metadata"]["invocation_id"]

    log = shop.operation_log(
        "dbt_lineage.lineage_run_provenance", {"relation_or_unique_id": f"model.{P}.orders"}
    )
    sql = next(m for m in log if m.lstrip().startswith("with recursive"))
    rows = shop.query(sql)
    runs = {(r[0], r[1].split(".")[-1], r[3]) for r in rows}
    assert (0, "orders", inv2) in runs
    assert (1, "stg_orders", inv1) in runs and (1, "stg_payments", inv1) in runs
    assert (2, "raw_orders", inv1) in runs  # through stg_orders, back to the seed
    # the source has no run: the walk stops there
    assert not any(r[1].startswith("source.") for r in rows)

    # the same, naming the relation instead of the node
    log = shop.operation_log(
        "dbt_lineage.lineage_run_provenance", {"relation_or_unique_id": f"{shop.schema}.orders"}
    )
    by_relation = shop.query(next(m for m in log if m.lstrip().startswith("with recursive")))
    assert sorted(by_relation, key=repr) == sorted(rows, key=repr)


def test_purge_history_deletes_only_old_invocations(duckdb_shop):
    shop = duckdb_shop
    shop.dbt("build")
    old = shop.run_results()["metadata"]["invocation_id"]
    shop.dbt("build")
    new = shop.run_results()["metadata"]["invocation_id"]
    import duckdb

    con = duckdb.connect(shop.env["DBT_LINEAGE_DUCKDB_PATH"])
    con.execute(
        "update shop_lineage.lineage_invocations set started_at = started_at - interval 40 day "
        f"where invocation_id = '{old}'"
    )
    con.close()

    log = shop.operation_log("dbt_lineage.purge_history")
    assert any("nothing deleted" in m for m in log)
    assert len(shop.rows("lineage_invocations")) == 2

    shop.operation_log("dbt_lineage.purge_history", {"days": 30})
    for table in ("lineage_invocations", "lineage_node_runs", "lineage_run_inputs"):
        left = {r["invocation_id"] for r in shop.rows(table)}
        assert left == {new}, table


def test_disabled_and_other_targets_record_nothing(duckdb_shop):
    shop = duckdb_shop
    shop.dbt("build", "--vars", "{dbt_lineage_enabled: false}")
    shop.dbt("build", "--vars", "{dbt_lineage_targets: [prod]}")
    assert shop.query(
        "select count(*) from information_schema.tables where table_schema = 'shop_lineage'"
    ) == [(0,)]


def test_tables_gain_missing_columns_and_ci_context(duckdb_shop):
    """Append-only evolution: a table from an older version (a column short) is completed
    by the next run, and the CI variables land in the invocation row."""
    shop = duckdb_shop
    shop.dbt("build")
    import duckdb

    con = duckdb.connect(shop.env["DBT_LINEAGE_DUCKDB_PATH"])
    con.execute("alter table shop_lineage.lineage_node_runs drop column checksum")
    con.execute("alter table shop_lineage.lineage_invocations drop column git_pull_request")
    con.close()

    ci = {
        "GITHUB_SHA": "0123abc",
        "GITHUB_REF": "refs/pull/42/merge",
        "GITHUB_HEAD_REF": "feature/x",
    }
    shop.dbt("build", env=ci)
    inv = shop.run_results()["metadata"]["invocation_id"]
    (row,) = shop.rows("lineage_invocations", f"invocation_id = '{inv}'")
    assert (row["git_sha"], row["git_branch"], row["git_pull_request"]) == (
        "0123abc",
        "feature/x",
        "42",
    )
    checksums = shop.rows(
        "lineage_node_runs", f"invocation_id = '{inv}' and resource_type = 'model'"
    )
    assert checksums and all(len(r["checksum"]) == 64 for r in checksums)


def test_unsupported_adapter_is_an_error_not_a_silent_no_op(duckdb_shop):
    proc = duckdb_shop.dbt("run-operation", "call_default_record_run", check=False)
    assert proc.returncode != 0
    assert (
        "adapter sqlserver is not supported by dbt_lineage: supported adapters are duckdb,"
        " postgres, snowflake, bigquery, databricks, spark, redshift." in proc.stdout
    )


def test_one_list_of_adapters_and_dispatch_only_where_sql_differs():
    """The supported adapters are listed once; adapter__ macros exist only where an
    adapter's SQL or settings differ (the dialect facts), not as one-line shims."""
    sources = {p.name: p.read_text() for p in (REPO / "macros").glob("*.sql")}
    lists = [name for name, text in sources.items() if "'duckdb', 'postgres'" in text]
    assert lists == ["lineage_config.sql"]
    assert not any("duckdb, postgres, snowflake" in text for text in sources.values())
    shims = [
        (name, line)
        for name, text in sources.items()
        for line in text.splitlines()
        if line.startswith("{% macro ")
        and "__" in line.split("(")[0]
        and not line.split()[2].startswith(("default__", "_"))
        and "lineage_dialect" not in line
    ]
    assert len(shims) <= 5, shims


def test_purge_history_refuses_anything_but_a_whole_number(duckdb_shop):
    shop = duckdb_shop
    shop.dbt("seed")
    for days in ("0.9", 0.9, "-1", -1, True):
        proc = shop.dbt(
            "run-operation", "dbt_lineage.purge_history", "--args", json.dumps({"days": days}),
            check=False,
        )  # fmt: skip
        assert proc.returncode != 0, days
        assert "days must be a whole number >= 0 written as an integer" in proc.stdout, days
    assert len(shop.rows("lineage_invocations")) == 1  # nothing deleted


def test_purge_history_zero_days_needs_confirm_and_reports_rows(duckdb_shop):
    shop = duckdb_shop
    shop.dbt("seed")
    proc = shop.dbt(
        "run-operation", "dbt_lineage.purge_history", "--args", "{days: 0}", check=False
    )
    assert proc.returncode != 0 and "confirm: true" in proc.stdout
    assert len(shop.rows("lineage_invocations")) == 1

    log = shop.operation_log("dbt_lineage.purge_history", {"days": 0, "confirm": True})
    (line,) = [m for m in log if "rows removed" in m]
    assert line.endswith("lineage_run_inputs: 0, lineage_node_runs: 2, lineage_invocations: 1")
    assert shop.rows("lineage_invocations") == []


def test_commands_that_run_no_nodes_record_nothing_unless_chosen(duckdb_shop):
    shop = duckdb_shop
    shop.dbt("seed")  # the project's on-run-start hook needs the schema
    compiled = shop.dbt("compile")
    assert "command compile is not in dbt_lineage_record_commands" in compiled.stdout
    shop.dbt("docs", "generate")
    assert [r["command"] for r in shop.rows("lineage_invocations")] == ["seed"]

    shop.dbt("compile", "--vars", "{dbt_lineage_record_commands: [compile]}")
    inv = shop.run_results()["metadata"]["invocation_id"]
    (row,) = shop.rows("lineage_invocations", "command = 'compile'")
    assert (row["invocation_id"], row["nodes_total"]) == (inv, 0)


def test_provenance_matches_names_exactly_and_puts_unfinished_runs_last(shop):
    shop.dbt("seed")
    shop.dbt("run", "--select", "stg_orders")
    real = shop.run_results()["metadata"]["invocation_id"]
    schema = shop.lineage_schema
    copy_run = (
        f"insert into {schema}.lineage_node_runs (invocation_id, unique_id, relation_name,"
        " status, execute_completed_at) select '{inv}', {uid}, {relation}, 'success', {done}"
        f" from {schema}.lineage_node_runs where invocation_id = '{real}'"
    )
    copy_invocation = (
        f"insert into {schema}.lineage_invocations (invocation_id, started_at, nodes_total,"
        f" recorded_complete) select '{{inv}}', started_at, 1, true"
        f" from {schema}.lineage_invocations where invocation_id = '{real}'"
    )
    shop.execute(
        # another node whose name differs only where LIKE's _ matches any character, newer
        copy_run.format(
            inv="lookalike", uid="'model.x.stgXorders'",
            relation=f"'\"db\".\"{shop.schema}\".\"stgXorders\"'",
            done="execute_completed_at + interval '1 day'",
        ),
        copy_invocation.format(inv="lookalike"),
        # a run of the node itself that never recorded its completion time
        copy_run.format(inv="no-time", uid="unique_id", relation="relation_name", done="null"),
        copy_invocation.format(inv="no-time"),
    )  # fmt: skip
    for name in (f"model.{P}.stg_orders", f"{shop.schema}.stg_orders"):
        log = shop.operation_log(
            "dbt_lineage.lineage_run_provenance", {"relation_or_unique_id": name}
        )
        rows = shop.query(next(m for m in log if m.lstrip().startswith("with recursive")))
        assert {(r[1], r[3]) for r in rows if r[0] == 0} == {(f"model.{P}.stg_orders", real)}, name
