"""The error-path benchmark end to end on a small project: it prints a row per error path
beside a correct question, fresh and stale. Nothing here checks a duration."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_bench_errors_prints_every_error_path(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "bench_errors.py", "--models", "30", "--repeat", "1",
         "--out", str(tmp_path / "project")],
        cwd=REPO / "benchmarks", capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode in (0, 1), done.stdout + done.stderr
    rows = re.findall(
        r"^(.+?)\s+(\d+\.\d{3})\s+(\d+\.\d\d)\s+(\d+)\s+(ok|OVER)\s", done.stdout, re.M
    )
    labels = [label.strip() for label, *_ in rows]
    assert labels[:2] == ["a correct question", "a missing column"], done.stdout
    assert "a missing column (stale)" in labels and len(labels) == 10, labels
    assert "Error: no column named 'missing_column'" in done.stdout
    assert "with a manifest changed since lineage.json was built (stale)" in done.stdout
