"""The quick-start template with the hook installed: dbt build twice, on DuckDB and on the
PostgreSQL server, and the lineage tables agree with dbt's own run_results.json."""

from __future__ import annotations

import uuid
from datetime import datetime

import pytest

from .conftest import REPO, DbtProject, copy_project, drop_pg_schemas, postgres_available

pytestmark = pytest.mark.slow

PG_OUTPUT = """
    postgres:
      type: postgres
      host: 127.0.0.1
      port: 5432
      user: postgres
      password: ""
      dbname: postgres
      schema: "{schema}"
      threads: 4
"""


@pytest.fixture(params=["duckdb", "postgres"])
def template(request, tmp_path):
    target = request.param
    if target == "postgres" and not postgres_available():
        pytest.fail(
            "PostgreSQL is not reachable at 127.0.0.1:5432: start it with "
            "`pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start`"
        )
    path = copy_project(REPO / "dbt_project_template", tmp_path / "template")
    schema = "main" if target == "duckdb" else f"tpl_{uuid.uuid4().hex[:10]}"
    profiles = path / "profiles.yml"
    profiles.write_text(profiles.read_text().rstrip("\n") + "\n" + PG_OUTPUT.format(schema=schema))
    project = DbtProject(
        path=path,
        target="dev" if target == "duckdb" else "postgres",
        env={
            "DBT_SHOP_DUCKDB_PATH": str(tmp_path / "shop_warehouse.duckdb"),
            "DBT_LINEAGE_DUCKDB_PATH": str(tmp_path / "shop_warehouse.duckdb"),
        },
        schema=schema,
        warehouse=target,
    )
    project.dbt("deps")
    yield project
    if target == "postgres":
        drop_pg_schemas(
            *[
                f"{schema}{suffix}"
                for suffix in (
                    "",
                    "_raw",
                    "_lineage",
                    "_snapshots",
                    "_marts",
                    "_staging",
                    "_intermediate",
                )
            ],
            "snapshots",
        )


def _when(text: str | None) -> datetime | None:
    return datetime.fromisoformat(text.rstrip("Z")) if text else None


def _nodes(run_results: dict) -> dict[str, dict]:
    return {
        r["unique_id"]: r
        for r in run_results["results"]
        if not r["unique_id"].startswith("operation.")
    }


def _execute(result: dict, edge: str) -> datetime | None:
    return next((_when(t[edge]) for t in result["timing"] if t["name"] == "execute"), None)


def test_template_build_twice(template):
    template.dbt("build")
    first = template.run_results()
    template.dbt("build")
    second = template.run_results()
    assert_builds_recorded(template, first, second)


def assert_builds_recorded(template: DbtProject, first: dict, second: dict) -> None:
    """The lineage tables hold both builds exactly as dbt's run_results.json reports them, and
    each input of the second build names the run that last built it before its consumer."""
    runs = [(r["metadata"]["invocation_id"], _nodes(r)) for r in (first, second)]

    assert sorted(r["invocation_id"] for r in template.rows("lineage_invocations")) == sorted(
        i for i, _ in runs
    )
    for inv, nodes in runs:
        (invocation,) = template.rows("lineage_invocations", f"invocation_id = '{inv}'")
        statuses = [node["status"] for node in nodes.values()]
        assert invocation["nodes_no_op"] == statuses.count("no-op")
        counters = ("success", "warn", "error", "fail", "skipped", "no_op")
        assert sum(invocation[f"nodes_{name}"] for name in counters) == invocation["nodes_total"]
        recorded = template.rows("lineage_node_runs", f"invocation_id = '{inv}'")
        assert sorted(r["unique_id"] for r in recorded) == sorted(nodes)
        for row in recorded:
            want = nodes[row["unique_id"]]
            assert row["status"] == want["status"]
            rows = (want.get("adapter_response") or {}).get("rows_affected")
            assert row["rows_affected"] == (None if rows in (None, "", -1) else rows)

    # every input of every node run of the second build points at the run that really built
    # it last before the consumer started, according to dbt's own timings
    inv2, nodes2 = runs[1]
    edges = template.rows("lineage_run_inputs", f"invocation_id = '{inv2}'")
    assert edges
    for edge in edges:
        consumer_start = _execute(nodes2[edge["unique_id"]], "started_at")
        builds = [
            (_execute(nodes[edge["input_unique_id"]], "completed_at"), inv)
            for inv, nodes in runs
            if edge["input_unique_id"] in nodes
            and nodes[edge["input_unique_id"]]["status"] == "success"
            and consumer_start is not None
            and _execute(nodes[edge["input_unique_id"]], "completed_at") <= consumer_start
        ]
        expected = max(builds)[1] if builds else None
        assert edge["input_invocation_id"] == expected, edge
    built_here = [e for e in edges if e["input_invocation_id"] == inv2]
    assert built_here, "a mart's inputs were rebuilt in the same invocation"
