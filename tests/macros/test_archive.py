"""archive_history and purge_history's archive_to: the run history's warm tier (archive
tables in a schema of their own) and, on DuckDB, its cold tier (Parquet files), on real
DuckDB and PostgreSQL."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from tests.macros.conftest import drop_pg_schemas

TABLES = ("lineage_invocations", "lineage_node_runs", "lineage_run_inputs")


def _age(shop, invocation_id: str, days: int) -> None:
    shop.execute(
        f"update {shop.lineage_schema}.lineage_invocations "
        f"set started_at = started_at - interval '{days} days' "
        f"where invocation_id = '{invocation_id}'"
    )


def _rows(shop, schema: str, table: str) -> Counter:
    """The table's rows as a multiset of (invocation_id, the row's values as text)."""
    columns = [
        name
        for (name,) in shop.query(
            "select column_name from information_schema.columns where table_schema = "
            f"'{shop.lineage_schema}' and table_name = '{table}' order by ordinal_position"
        )
    ]
    listed = ", ".join(f"cast({c} as varchar)" for c in columns)
    return Counter((r[0], r) for r in shop.query(f"select {listed} from {schema}.{table}"))


def _invocations(counter: Counter) -> set[str]:
    return {key[0] for key in counter}


def _provenance(shop, args: dict) -> list[tuple]:
    log = shop.operation_log("dbt_lineage.lineage_run_provenance", args)
    return shop.query(next(m for m in log if m.lstrip().startswith("with recursive")))


def _moved_line(log: list[str]) -> str:
    (line,) = [m for m in log if "rows moved" in m]
    return line


@pytest.fixture
def archived_shop(shop):
    """The shop with two builds, the first aged 40 days; its archive schema dropped after."""
    shop.dbt("build")
    old = shop.run_results()["metadata"]["invocation_id"]
    shop.dbt("build")
    new = shop.run_results()["metadata"]["invocation_id"]
    _age(shop, old, 40)
    yield shop, old, new
    if shop.warehouse == "postgres":
        drop_pg_schemas(f"{shop.schema}_archive")


def test_archive_history_moves_old_invocations_once(archived_shop):
    shop, old, new = archived_shop
    archive = f"{shop.schema}_archive"
    before = {t: _rows(shop, shop.lineage_schema, t) for t in TABLES}

    log = shop.operation_log("dbt_lineage.archive_history", {"days": 30, "to": archive})
    counts = {t: sum(n for (inv, _), n in before[t].items() if inv == old) for t in TABLES}
    assert _moved_line(log).endswith(
        f"rows moved: lineage_run_inputs: {counts['lineage_run_inputs']}, "
        f"lineage_node_runs: {counts['lineage_node_runs']}, lineage_invocations: 1"
    )
    assert counts["lineage_node_runs"] > 0 and counts["lineage_run_inputs"] > 0
    for table in TABLES:
        live = _rows(shop, shop.lineage_schema, table)
        stored = _rows(shop, archive, table)
        assert _invocations(live) == {new}, table
        assert _invocations(stored) == {old}, table
        assert live + stored == before[table], table  # same rows, same values, once

    # the provenance query finds the archived run only when asked to read the archive
    asked = {"relation_or_unique_id": f"{shop.schema}.orders", "invocation_id": old}
    assert _provenance(shop, asked) == []
    rows = _provenance(shop, {**asked, "include_archive": True, "archive_schema": archive})
    assert rows and {r[3] for r in rows} == {old}
    assert {r[1] for r in rows} >= {"model.dbt_lineage_integration_tests.orders"}

    # a rerun finds nothing more to move and duplicates nothing
    again = shop.operation_log("dbt_lineage.archive_history", {"days": 30, "to": archive})
    assert _moved_line(again).endswith(
        "lineage_run_inputs: 0, lineage_node_runs: 0, lineage_invocations: 0"
    )
    for table in TABLES:
        assert (
            _rows(shop, archive, table) + _rows(shop, shop.lineage_schema, table) == before[table]
        )

    # purge_history with archive_to archives before it deletes; the archive gains the
    # column an upgrade added (dropped here to stand for an older archive)
    shop.execute(f"alter table {archive}.lineage_invocations drop column nodes_no_op")
    _age(shop, new, 40)
    aged = {t: _rows(shop, shop.lineage_schema, t) for t in TABLES}
    log = shop.operation_log("dbt_lineage.purge_history", {"days": 30, "archive_to": archive})
    assert _moved_line(log).endswith("lineage_invocations: 1")
    for table in TABLES:
        assert _rows(shop, shop.lineage_schema, table) == Counter(), table
        stored = _rows(shop, archive, table)
        assert _invocations(stored) == {old, new}, table
        assert Counter({k: n for k, n in stored.items() if k[0] == new}) == aged[table], table


def test_archive_history_checks_its_arguments(duckdb_shop):
    shop = duckdb_shop
    shop.dbt("seed")
    for args, message in [
        ({"days": 0, "to": "a"}, "days must be a whole number >= 1 written as an integer"),
        ({"days": "0", "to": "a"}, "days must be a whole number >= 1 written as an integer"),
        ({"days": 0.9, "to": "a"}, "days must be a whole number >= 1 written as an integer"),
        ({"days": -1, "to": "a"}, "days must be a whole number >= 1 written as an integer"),
        ({"days": True, "to": "a"}, "days must be a whole number >= 1 written as an integer"),
        ({"days": 30}, "no archive schema: pass to: SCHEMA in --args or set the var"),
        ({"days": 30, "to": "shop_lineage"}, "is the lineage schema itself"),
    ]:
        proc = shop.dbt(
            "run-operation", "dbt_lineage.archive_history", "--args", json.dumps(args),
            check=False,
        )  # fmt: skip
        assert proc.returncode != 0, args
        assert message in proc.stdout and "nothing moved" in proc.stdout, (args, proc.stdout)
    assert len(shop.rows("lineage_invocations")) == 1  # nothing moved
    log = shop.operation_log("dbt_lineage.archive_history")
    assert any("no days given, nothing moved" in m for m in log)


def test_archive_schema_var_and_parquet_files_on_duckdb(duckdb_shop, tmp_path):
    shop = duckdb_shop
    shop.dbt("build")
    old = shop.run_results()["metadata"]["invocation_id"]
    _age(shop, old, 100)
    before = {t: _rows(shop, "shop_lineage", t) for t in TABLES}
    folder = tmp_path / "cold"
    folder.mkdir()
    shop.dbt(
        "run-operation", "dbt_lineage.archive_history",
        "--args", json.dumps({"days": 90, "to_parquet": str(folder)}),
        "--vars", "{dbt_lineage_archive_schema: warm}",
    )  # fmt: skip
    import duckdb

    con = duckdb.connect()
    for table in TABLES:
        assert _rows(shop, "warm", table) == before[table], table
        files = list((folder / table).glob("archived_on=*/*.parquet"))
        assert len(files) == 1, table
        cold = con.execute(
            f"select count(*), count(distinct invocation_id), min(invocation_id) "
            f"from read_parquet('{folder / table}/*/*.parquet', hive_partitioning = true)"
        ).fetchone()
        assert cold == (sum(before[table].values()), 1, old), table


def test_to_parquet_is_refused_on_postgres(pg_shop, tmp_path):
    pg_shop.dbt("seed")
    proc = pg_shop.dbt(
        "run-operation", "dbt_lineage.archive_history",
        "--args", json.dumps({"days": 30, "to": "elsewhere", "to_parquet": str(tmp_path)}),
        check=False,
    )  # fmt: skip
    assert proc.returncode != 0
    assert "to_parquet is for DuckDB only (this target is postgres)" in proc.stdout


def test_a_half_done_move_is_finished_without_duplicates(archived_shop):
    """What a kill between a table's insert and its delete leaves where the warehouse has no
    transactions (BigQuery, Spark): an invocation's rows in the archive and still live, the
    same. A rerun inserts none of them again and deletes them from the live table."""
    shop, old, new = archived_shop
    archive = f"{shop.schema}_archive"
    before = {t: _rows(shop, shop.lineage_schema, t) for t in TABLES}
    shop.operation_log("dbt_lineage.archive_history", {"days": 300, "to": archive})  # tables
    for table in ("lineage_run_inputs", "lineage_node_runs"):
        shop.execute(
            f"insert into {archive}.{table} select * from {shop.lineage_schema}.{table} "
            f"where invocation_id = '{old}'"
        )
    log = shop.operation_log("dbt_lineage.archive_history", {"days": 30, "to": archive})
    assert _moved_line(log).endswith("lineage_invocations: 1")
    for table in TABLES:
        stored = _rows(shop, archive, table)
        assert _invocations(stored) == {old} and _invocations(
            _rows(shop, shop.lineage_schema, table)
        ) == {new}, table
        assert stored + _rows(shop, shop.lineage_schema, table) == before[table], table
