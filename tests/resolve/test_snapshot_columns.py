"""The columns dbt adds to a snapshot derive from its config, checked on real dbt snapshots.

``fixtures/duckdb_constructs`` holds a timestamp snapshot and a check snapshot (with renamed
added columns); dbt-duckdb builds them, and the values dbt wrote are read back to prove what
each added column is computed from.
"""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest
from click.testing import CliRunner

from dbt_lineage.cli import main

pytestmark = pytest.mark.slow

TIMESTAMP = "snapshot.duckdb_constructs.users_snapshot"
CHECK = "snapshot.duckdb_constructs.events_check_snapshot"


@pytest.fixture(scope="module")
def direct(duckdb_constructs_project: Path) -> dict[str, dict[str, set[tuple[str, str, str]]]]:
    result = CliRunner().invoke(
        main.cli, ["build", "--project-dir", str(duckdb_constructs_project), "--no-cache"]
    )
    assert result.exit_code == 0, result.output
    document = json.loads((duckdb_constructs_project / "target" / "lineage.json").read_text())
    return {
        node: {
            column: {(e["node"].rsplit(".", 1)[-1], e["column"], e["kind"]) for e in edges}
            for column, edges in document["edges"]["direct"][node].items()
        }
        for node in (TIMESTAMP, CHECK)
    }


def test_timestamp_snapshot_columns_derive_from_unique_key_and_updated_at(direct) -> None:
    columns = direct[TIMESTAMP]
    assert columns["dbt_scd_id"] == {
        ("users", "user_id", "transform"),
        ("users", "signup_ts", "transform"),
    }
    for added in ("dbt_updated_at", "dbt_valid_from", "dbt_valid_to"):
        assert columns[added] == {("users", "signup_ts", "transform")}, added


def test_check_snapshot_columns_derive_from_key_expression_and_check_columns(direct) -> None:
    columns = direct[CHECK]
    checked = {("events", "event_type", "transform"), ("events", "amount", "transform")}
    keys = {("events", "event_id", "transform"), ("events", "user_id", "transform")}
    assert columns["dbt_scd_id"] == keys | checked
    assert "dbt_valid_from" not in columns, "renamed by snapshot_meta_column_names"
    for added in ("dbt_updated_at", "valid_start", "valid_end"):
        assert columns[added] == checked, added


def test_the_values_dbt_wrote_are_computed_from_those_columns(
    duckdb_constructs_project: Path, direct
) -> None:
    """dbt's own table: dbt_scd_id hashes user_id and signup_ts, valid_from copies signup_ts."""
    with duckdb.connect(str(duckdb_constructs_project / "constructs.duckdb"), read_only=True) as db:
        rows = db.execute(
            "select dbt_scd_id = md5(coalesce(cast(user_id as varchar), '') || '|' "
            "|| coalesce(cast(signup_ts as varchar), '')), dbt_valid_from = signup_ts, "
            "dbt_updated_at = signup_ts from main.users_snapshot"
        ).fetchall()
    assert rows and all(all(row) for row in rows)


def test_check_cols_all_reads_every_column_but_the_added_ones() -> None:
    from dbt_lineage.resolve.node_lineage import (
        ColumnLineage,
        NodeLineage,
        SnapshotConfig,
        UpstreamEdge,
    )
    from dbt_lineage.resolve.snapshot_columns import snapshot_columns
    from dbt_lineage.types import ColumnRef, EdgeKind

    result = NodeLineage("snapshot.p.s")
    for name in ("ID", "STATUS", "TOTAL"):
        edge = UpstreamEdge(ColumnRef("source.p.raw", name), EdgeKind.AGGREGATE)
        result.columns[name] = ColumnLineage(name, upstreams=[edge])
    snapshot_columns(result, SnapshotConfig(("id",), "check", "", None), "snowflake", {})
    assert list(result.columns)[3:] == [
        "DBT_SCD_ID",
        "DBT_UPDATED_AT",
        "DBT_VALID_FROM",
        "DBT_VALID_TO",
    ]
    valid_from = {(e.upstream.column, e.kind) for e in result.columns["DBT_VALID_FROM"].upstreams}
    assert valid_from == {(c, EdgeKind.AGGREGATE) for c in ("ID", "STATUS", "TOTAL")}


def test_config_columns_pass_through_a_star_or_are_reported_never_dropped() -> None:
    from dbt_lineage.resolve.node_lineage import (
        ColumnLineage,
        NodeLineage,
        SnapshotConfig,
        UpstreamEdge,
    )
    from dbt_lineage.resolve.snapshot_columns import snapshot_columns
    from dbt_lineage.types import ColumnRef, EdgeKind

    config = SnapshotConfig(("id",), "timestamp", "modified_at", ())
    through = NodeLineage("snapshot.p.s", star_sources=["source.p.raw"])
    edge = UpstreamEdge(ColumnRef("source.p.raw", "ID"), EdgeKind.IDENTITY)
    through.columns["ID"] = ColumnLineage("ID", upstreams=[edge])
    snapshot_columns(through, config, "snowflake", {})
    scd = {(e.upstream.column, e.kind) for e in through.columns["DBT_SCD_ID"].upstreams}
    assert scd == {("ID", EdgeKind.TRANSFORM), ("MODIFIED_AT", EdgeKind.TRANSFORM)}
    assert through.inferred == {
        "source.p.raw": {"MODIFIED_AT": ""},
        "snapshot.p.s": {"MODIFIED_AT": ""},
    }, "the source gets it, and the snapshot outputs it"

    lacking = NodeLineage("snapshot.p.s")
    lacking.columns["id"] = ColumnLineage("id", upstreams=[edge])
    snapshot_columns(lacking, config, "duckdb", {})
    assert lacking.columns["dbt_valid_from"].reason.startswith("unknown_column")
    assert "modified_at" in lacking.columns["dbt_scd_id"].reason


def test_config_columns_read_through_a_star_over_unknown_columns_are_inferred(
    no_catalog_project: Path,
) -> None:
    """No catalog, sources that declare no columns: dbt reads the config columns by name."""
    result = CliRunner().invoke(
        main.cli, ["build", "--project-dir", str(no_catalog_project), "--no-cache"]
    )
    assert result.exit_code == 0, result.output
    document = json.loads((no_catalog_project / "target" / "lineage.json").read_text())
    nodes, direct = document["nodes"], document["edges"]["direct"]

    def edges(node: str, column: str) -> set[tuple[str, str, str]]:
        return {(e["node"], e["column"], e["kind"]) for e in direct[node][column]}

    accounts, snapshot = "source.no_catalog.raw.accounts", "snapshot.no_catalog.accounts_snapshot"
    assert edges(snapshot, "dbt_scd_id") == {
        (accounts, "account_id", "transform"),
        (accounts, "loaded_at", "transform"),
    }
    for added in ("dbt_updated_at", "dbt_valid_from", "dbt_valid_to"):
        assert edges(snapshot, added) == {(accounts, "loaded_at", "transform")}, added
    source_columns = nodes[accounts]["columns"]
    assert set(source_columns) == {"account_id", "loaded_at"}
    assert all(column.get("inferred") for column in source_columns.values())
    own = nodes[snapshot]["columns"]
    assert own["account_id"].get("inferred"), "the snapshot outputs it too"
    assert edges(snapshot, "account_id") == {(accounts, "account_id", "identity")}
    assert not any(column.get("reason") for column in own.values())

    stg, check = "model.no_catalog.stg_events", "snapshot.no_catalog.events_check_snapshot"
    assert edges(check, "dbt_scd_id") == {
        (stg, "user_id", "transform"),
        (stg, "occurred_at", "transform"),
        (stg, "event_type", "transform"),
    }
    assert edges(check, "dbt_valid_from") == {(stg, "event_type", "transform")}
    assert edges(stg, "occurred_at") == {
        ("source.no_catalog.raw.events", "occurred_at", "identity")
    }, "on through the model's own star to its source"

    both = nodes["snapshot.no_catalog.account_users_snapshot"]["columns"]
    for added in ("dbt_scd_id", "dbt_valid_from"):
        assert both[added]["reason"].startswith("ambiguous_star"), "two sources could hold it"
    assert "loaded_at" not in nodes["source.no_catalog.raw.users"]["columns"], "never guessed"


def test_check_cols_all_over_a_star_of_unknown_columns_is_unresolved_not_short() -> None:
    from dbt_lineage.resolve.node_lineage import NodeLineage, SnapshotConfig
    from dbt_lineage.resolve.snapshot_columns import snapshot_columns

    star = "star_unknown_columns: * over a source whose columns are unknown"
    result = NodeLineage("snapshot.p.s", star_sources=["source.p.raw"])
    snapshot_columns(result, SnapshotConfig(("id",), "check", "", None), "duckdb", {}, star)
    for added in ("dbt_scd_id", "dbt_updated_at", "dbt_valid_from", "dbt_valid_to"):
        assert result.columns[added].reason == star, added
    assert [e.upstream.column for e in result.columns["dbt_scd_id"].upstreams] == ["id"]


def test_a_key_expression_over_a_star_reads_its_columns_not_its_functions() -> None:
    from dbt_lineage.resolve.node_lineage import NodeLineage, SnapshotConfig
    from dbt_lineage.resolve.snapshot_columns import snapshot_columns

    star = "star_unknown_columns: * over a source whose columns are unknown"
    result = NodeLineage("snapshot.p.s", star_sources=["source.p.raw"])
    config = SnapshotConfig(("md5(id || '-' || region)",), "timestamp", "ts", ())
    snapshot_columns(result, config, "duckdb", {}, star)
    scd = result.columns["dbt_scd_id"]
    assert not scd.reason
    assert {(e.upstream.node_id, e.upstream.column) for e in scd.upstreams} == {
        ("source.p.raw", "id"),
        ("source.p.raw", "region"),
        ("source.p.raw", "ts"),
    }
    assert result.inferred["source.p.raw"] == {"ts": "", "id": "", "region": ""}

    broken = NodeLineage("snapshot.p.s")
    snapshot_columns(broken, SnapshotConfig(("id ||",), "timestamp", "", ()), "duckdb", {})
    assert broken.columns["dbt_scd_id"].reason.startswith("unknown_column"), "not guessed"
