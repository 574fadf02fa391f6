"""A `dbt run` killed while its hook writes leaves its invocation complete or absent.

20 real `dbt run`s on PostgreSQL, each killed (SIGKILL or SIGTERM, alternately) at a
random moment after its on-run-end hook starts writing (tests/macros/kill_runs.py).
Afterwards every invocation in the lineage tables has all its rows, or none at all.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

RUNS = 20


def test_killed_runs_leave_each_invocation_complete_or_absent(pg_shop):
    env = {**pg_shop.env, "DBT_SEND_ANONYMOUS_USAGE_STATS": "false"}
    proc = subprocess.run(
        [sys.executable, str(Path(__file__).with_name("kill_runs.py")), str(pg_shop.path),
         str(RUNS), "12"],
        env={**__import__("os").environ, **env}, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr
    report = json.loads(proc.stdout.strip().splitlines()[-1])
    runs = report["runs"]
    assert len(runs) == RUNS and all(r["hook_seen"] for r in runs), report
    killed = [r for r in runs if r["exit"] != 0]
    assert len(killed) >= RUNS // 2, report  # most died in the hook, not after it

    schema = pg_shop.lineage_schema
    invocations = dict(
        pg_shop.query(f"select invocation_id, nodes_total from {schema}.lineage_invocations")
    )
    node_runs = dict(
        pg_shop.query(f"select invocation_id, count(*) from {schema}.lineage_node_runs group by 1")
    )
    inputs = dict(
        pg_shop.query(f"select invocation_id, count(*) from {schema}.lineage_run_inputs group by 1")
    )
    incomplete = {
        inv: (invocations.get(inv), node_runs.get(inv, 0), inputs.get(inv, 0))
        for inv in set(invocations) | set(node_runs) | set(inputs)
        if invocations.get(inv) is None or invocations[inv] != node_runs.get(inv, 0)
    }
    assert incomplete == {}, (
        f"incomplete invocations (nodes_total, node rows, inputs): {incomplete}"
    )
    # every complete `dbt run` has the same inputs as the first, unkilled ones
    run_inputs = {n for inv, n in inputs.items() if node_runs.get(inv) == 5}
    assert len(run_inputs) == 1, inputs
    # the seed, the three unkilled runs, and the runs killed after their commit; the others
    # left nothing
    assert 4 <= len(invocations) < 4 + RUNS, (len(invocations), report)
