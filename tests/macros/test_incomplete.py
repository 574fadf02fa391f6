"""Readers skip invocations whose hook was interrupted.

On a warehouse without transactions (BigQuery, Spark) a hook killed half-way leaves node
runs whose invocation row (written last, recorded_complete true) is missing. Here such
leftovers are made by hand in DuckDB, newer than the real build: `dbt-lineage trace`, the
provenance macro and `openlineage --since` must all ignore them.
"""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest
from click.testing import CliRunner

from dbt_lineage.cli import main

pytestmark = pytest.mark.slow

P = "dbt_lineage_integration_tests"


def _leave_interrupted(db: str, real: str) -> None:
    """Copies the real invocation's rows as two later invocations a killed hook left: one
    without its invocation row, one whose row says recorded_complete = false."""
    con = duckdb.connect(db)
    for fake in ("killed-no-row", "killed-marked"):
        for table in ("lineage_node_runs", "lineage_run_inputs"):
            con.execute(
                f"insert into shop_lineage.{table} select * replace ('{fake}' as invocation_id)"
                f" from shop_lineage.{table} where invocation_id = ?",
                [real],
            )
        con.execute(
            "update shop_lineage.lineage_node_runs set execute_completed_at ="
            " execute_completed_at + interval 1 day where invocation_id = ?",
            [fake],
        )
    con.execute(
        "insert into shop_lineage.lineage_invocations select * replace ('killed-marked' as"
        " invocation_id, false as recorded_complete, started_at + interval 1 day as started_at)"
        " from shop_lineage.lineage_invocations where invocation_id = ?",
        [real],
    )
    con.close()


def _cli(project: Path, *args: str):
    return CliRunner().invoke(
        main.cli, [*args, "--project-dir", str(project), "--profiles-dir", str(project)]
    )


def test_readers_skip_interrupted_invocations(duckdb_shop, monkeypatch):
    shop = duckdb_shop
    shop.dbt("build")
    real = shop.run_results()["metadata"]["invocation_id"]
    (marked,) = shop.rows("lineage_invocations", f"invocation_id = '{real}'")
    assert marked["recorded_complete"] is True
    _leave_interrupted(shop.env["DBT_LINEAGE_DUCKDB_PATH"], real)

    log = shop.operation_log(
        "dbt_lineage.lineage_run_provenance", {"relation_or_unique_id": f"model.{P}.orders"}
    )
    rows = shop.query(next(m for m in log if m.lstrip().startswith("with recursive")))
    assert {r[3] for r in rows if r[0] == 0} == {real}

    monkeypatch.setenv("DBT_LINEAGE_DUCKDB_PATH", shop.env["DBT_LINEAGE_DUCKDB_PATH"])
    monkeypatch.chdir(shop.path)
    traced = _cli(shop.path, "trace", "orders", "--format", "json")
    assert traced.exit_code == 0, traced.output
    assert json.loads(traced.stdout)["invocation_id"] == real

    events = shop.path / "events.jsonl"
    emitted = _cli(
        shop.path, "openlineage", "--since", "2000-01-01", "--transport", "file",
        "--output", str(events),
    )  # fmt: skip
    assert emitted.exit_code == 0, emitted.output
    text = events.read_text()
    assert real in text and "killed" not in text
