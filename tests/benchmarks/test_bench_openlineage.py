"""The OpenLineage benchmark end to end on a small project: it prints its figure and the
file holds every event. Nothing here checks a duration."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_bench_openlineage_prints_the_time_to_emit(tmp_path: Path) -> None:
    out = tmp_path / "project"
    done = subprocess.run(
        [
            sys.executable,
            "bench_openlineage.py",
            "--models",
            "30",
            "--repeat",
            "1",
            "--out",
            str(out),
        ],
        cwd=REPO / "benchmarks",
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    line = re.search(
        r"openlineage: (\d+) node runs -> (\d+) events .* s wall, .* s CPU", done.stdout
    )
    assert line, done.stdout
    nodes, sent = int(line.group(1)), int(line.group(2))
    assert sent == 2 * nodes + 2
    events = [json.loads(row) for row in (out / "events.jsonl").read_text().splitlines()]
    assert len(events) == sent
    results = json.loads((out / "target" / "run_results.json").read_text())["results"]
    errors = sum(result["status"] == "error" for result in results)
    node_fails = sum(e["eventType"] == "FAIL" for e in events[1:-1])
    assert node_fails == errors
    assert events[-1]["eventType"] == ("FAIL" if errors else "COMPLETE")
