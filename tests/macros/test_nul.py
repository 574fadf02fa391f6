"""Characters the warehouse rejects do not lose the run record, and a failed write's
advice matches its cause (PostgreSQL: text and jsonb refuse NUL;
DuckDB for comparison)."""

from __future__ import annotations

import json

import pytest

pytestmark = pytest.mark.slow


def test_nul_in_vars_and_messages_is_stripped_and_the_run_recorded(shop):
    proc = shop.dbt("seed", "--select", "raw_orders", "--vars", '{"nul": "a\\u0000b"}')
    assert "could not record" not in proc.stdout, proc.stdout
    inv = shop.run_results()["metadata"]["invocation_id"]
    (row,) = shop.rows("lineage_invocations", f"invocation_id = '{inv}'")
    args = row["args"] if isinstance(row["args"], dict) else json.loads(row["args"])
    assert args["vars"]["nul"] == "ab"
    assert len(shop.rows("lineage_node_runs", f"invocation_id = '{inv}'")) == 1

    # a NUL in names and messages (plain text columns); a backslash-u text stays as it is
    out = shop.operation_json("record_fake_run", {"n": 2, "text": "x\u0000y \\u0000"})
    runs = shop.rows("lineage_node_runs", f"invocation_id = '{out['invocation_id']}'")
    assert sorted(r["message"] for r in runs) == ["OK xy \\u0000", "OK xy \\u0000"]


def test_a_failed_write_is_not_blamed_on_grants(pg_shop):
    shop = pg_shop
    shop.dbt("seed")  # records the invocation: the tables exist
    schema = shop.lineage_schema
    # a view the hook cannot insert into: a write error that is not about privileges
    replace = [
        f"drop table {schema}.lineage_run_inputs",
        f"create view {schema}.lineage_run_inputs as select distinct invocation_id,"
        " unique_id, unique_id as input_unique_id, relation_name as input_relation_name,"
        f" invocation_id as input_invocation_id from {schema}.lineage_node_runs",
    ]
    shop.execute(*replace)
    proc = shop.dbt("run", "--select", "stg_orders")
    warning = next(line for line in proc.stdout.splitlines() if "could not record" in line)
    assert f"in {schema}.lineage_run_inputs: " in warning
    assert "grant" not in warning and "logs/dbt.log" in warning, warning
