"""Our dataset namespaces, dataset names and job names equal dbt-ol's.

dbt-ol (openlineage-dbt 1.54, a dev dependency) runs here in its ``send-events`` mode on
the same project, profile and artifacts, writing its events to a file; both event sets
are then compared. dbt-ol sends no seed runs (ours follow its snapshot pattern) and lists
an ephemeral model as an input dataset that does not exist in the warehouse, where we list
what the ephemeral model reads. The namespace rules are also checked one by one against
dbt-ol's own ``extract_namespace`` for adapters we cannot run here.
"""

from __future__ import annotations

import datetime
import json
import os
import subprocess
import sys
import typing as t
import uuid
from pathlib import Path

import pytest
from tests.cli.test_trace import drop_postgres_schemas, hooked_project, postgres_profiles
from tests.dbt_projects import REPO, dbt
from tests.outputs.openlineage.conftest import emitted, lineage

from dbt_lineage.outputs.openlineage.namespace import namespace

DBT_OL = Path(sys.executable).with_name("dbt-ol")


def dbt_ol_events(project: Path, tmp_path: Path) -> list[dict[str, t.Any]]:
    events = tmp_path / "dbt_ol.jsonl"
    config = tmp_path / "openlineage.yml"
    config.write_text(f"transport:\n  type: file\n  log_file_path: {events}\n  append: true\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENLINEAGE", "DBT_"))}
    env.update(OPENLINEAGE_CONFIG=str(config), DBT_SEND_ANONYMOUS_USAGE_STATS="false")
    done = subprocess.run(
        [str(DBT_OL), "send-events", "--project-dir", ".", "--profiles-dir", "."],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0 and events.is_file(), done.stdout + done.stderr
    return [json.loads(line) for line in events.read_text().splitlines()]


def runs(events: list[dict[str, t.Any]]) -> dict[tuple[str, str], dict[str, set[tuple[str, str]]]]:
    """(job namespace, job name) -> output and input datasets, from START events."""
    found = {}
    for event in events:
        if event["eventType"] != "START" or event["job"]["name"].endswith(".build.test"):
            continue
        found[(event["job"]["namespace"], event["job"]["name"])] = {
            "outputs": {(d["namespace"], d["name"]) for d in event.get("outputs", [])},
            "inputs": {(d["namespace"], d["name"]) for d in event.get("inputs", [])},
        }
    return found


def compare(ours: list[dict[str, t.Any]], theirs: list[dict[str, t.Any]], ephemeral: dict) -> None:
    """Every dbt-ol job is ours, with the same output and inputs (ephemerals seen through)."""
    mine, other = runs(ours), runs(theirs)
    assert other and set(other) <= set(mine), sorted(set(other) - set(mine))
    for job, datasets in other.items():
        assert mine[job]["outputs"] == datasets["outputs"], job
        expected = set(datasets["inputs"])
        for name, reads in ephemeral.items():
            if name in expected:
                expected = (expected - {name}) | reads
        assert mine[job]["inputs"] == expected, job
    seeds = {job for job in mine if job[1].endswith(".seed")}
    assert set(mine) - set(other) == seeds


@pytest.mark.slow
def test_names_equal_dbt_ols_on_duckdb(shop: Path, tmp_path: Path) -> None:
    theirs = dbt_ol_events(shop, tmp_path)
    ours = emitted(shop)
    ns = "duckdb://shop.duckdb"
    ephemeral = {(ns, "shop.main.int_order_payments"): {(ns, "shop.main.stg_payments")}}
    compare(ours, theirs, ephemeral)
    assert {e["outputs"][0]["namespace"] for e in ours if e["outputs"]} == {ns}


@pytest.mark.slow
def test_names_equal_dbt_ols_on_postgres_and_history_replays_the_run(tmp_path: Path) -> None:
    schema = f"ol_{uuid.uuid4().hex[:10]}"
    project = hooked_project(
        REPO / "dbt_project_template", tmp_path / "pg", postgres_profiles("shop", schema)
    )
    try:
        dbt(project, "build")
        theirs = dbt_ol_events(project, tmp_path)
        ours = emitted(project)
        ns = "postgres://127.0.0.1:5432"
        ephemeral = {
            (ns, f"postgres.{schema}.int_order_payments"): {(ns, f"postgres.{schema}.stg_payments")}
        }
        compare(ours, theirs, ephemeral)
        assert (project / "target" / "lineage.json").is_file()
        invocation = ours[0]["run"]["runId"]
        replayed = emitted(project, "--invocation", invocation, name="replayed.jsonl")
        assert runs(replayed) == runs(ours)
        assert [e["run"]["runId"] for e in replayed] == [e["run"]["runId"] for e in ours]
        since = emitted(project, "--since", "2000-01-01", name="since.jsonl")
        assert since == replayed
    finally:
        drop_postgres_schemas(schema)


@pytest.mark.slow
def test_history_on_duckdb_replays_the_recorded_run(shop: Path) -> None:
    ours = emitted(shop)
    replayed = emitted(shop, "--invocation", ours[0]["run"]["runId"], name="replayed.jsonl")
    assert [(e["eventType"], e["job"]["name"], e["run"]["runId"]) for e in replayed] == [
        (e["eventType"], e["job"]["name"], e["run"]["runId"]) for e in ours
    ]
    assert runs(replayed) == runs(ours)
    assert [e["eventTime"] for e in replayed[1:-1]] == [e["eventTime"] for e in ours[1:-1]]
    for index, slack in ((0, 1), (-1, 10)):
        gap = _moment(replayed[index]["eventTime"]) - _moment(ours[index]["eventTime"])
        assert abs(gap.total_seconds()) < slack  # dbt's run_started_at vs invocation_started_at
    completes = [
        (e, r) for e, r in zip(ours, replayed, strict=True) if e["eventType"] == "COMPLETE"
    ]
    for original, again in completes:
        assert again["outputs"] == original["outputs"], original["job"]["name"]
    broken = next(e for e in replayed if e["eventType"] == "FAIL" and "broken" in e["job"]["name"])
    assert "no_such_column" in broken["run"]["facets"]["errorMessage"]["message"]
    result = lineage(shop, "openlineage", "--invocation", "00000000-0000-0000-0000-000000000000")
    assert result.exit_code == 2 and "is not recorded" in result.output


def _moment(text: str) -> datetime.datetime:
    return datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))


PROFILES = [
    ("postgres", {"host": "db.internal", "port": 5432}),
    ("redshift", {"host": "cluster.example.com", "port": 5439}),
    ("snowflake", {"account": "xy12345"}),
    ("snowflake", {"account": "xy12345.us-east-1"}),
    ("snowflake", {"account": "xy12345.east-us-2.azure"}),
    ("snowflake", {"account": "myorg-myaccount"}),
    ("bigquery", {"project": "analytics", "method": "oauth"}),
    ("databricks", {"host": "adb-1.azuredatabricks.net"}),
    ("spark", {"host": "spark.internal", "method": "thrift"}),
    ("spark", {"host": "spark.internal", "method": "http", "port": 8443}),
    ("duckdb", {"path": "/data/warehouse.duckdb"}),
    ("trino", {"host": "trino.internal", "port": 8080}),
]


@pytest.mark.parametrize(("adapter", "profile"), PROFILES)
def test_namespace_rules_equal_dbt_ols(adapter: str, profile: dict[str, t.Any]) -> None:
    from openlineage.common.provider.dbt.processor import Adapter, DbtArtifactProcessor

    processor = DbtArtifactProcessor.__new__(DbtArtifactProcessor)
    processor.adapter_type = Adapter[adapter.upper()]
    assert namespace(adapter, profile) == processor.extract_namespace({**profile, "type": adapter})
