"""The build benchmark's helpers, and the script end to end on a small project.

Nothing here checks a duration: only that the figures are computed and printed.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "benchmarks"))

from benchkit.colibri import colibri_command, colibri_executable, count_colibri  # noqa: E402
from benchkit.process import run_measured  # noqa: E402
from benchkit.stats import median, percentile  # noqa: E402


def test_percentile_is_nearest_rank() -> None:
    values = list(range(1, 201))
    assert (percentile(values, 50), percentile(values, 95), percentile(values, 99)) == (
        100,
        190,
        198,
    )
    assert percentile([3.0], 99) == 3.0
    assert median([1.0, 5.0, 2.0, 4.0]) == 3.0
    with pytest.raises(ValueError):
        percentile([], 50)


def test_count_colibri_counts_model_columns_with_parents() -> None:
    document = {
        "lineage": {
            "parents": {
                "model.p.a": {
                    "id": [{"dbt_node": "source.p.s.t", "column": "id"}],
                    "n_rows": [],
                    "__colibri_filter__": [{"dbt_node": "source.p.s.t", "column": "x"}],
                },
                "source.p.s.t": {"id": []},
            }
        }
    }
    count = count_colibri(document)
    assert (count.columns, count.with_upstream) == (2, 1)


def test_colibri_command_reads_the_project_target(tmp_path: Path) -> None:
    assert colibri_executable(tmp_path / "no-venv") is None
    cmd = colibri_command(Path("/venv/bin/colibri"), tmp_path)
    assert cmd[:2] == ["/venv/bin/colibri", "generate"]
    assert cmd[cmd.index("--manifest") + 1] == str(tmp_path / "target" / "manifest.json")
    assert cmd[cmd.index("--catalog") + 1] == str(tmp_path / "target" / "catalog.json")
    assert "--disable-telemetry" in cmd


def test_run_measured_reports_exit_code_output_and_memory() -> None:
    code = "import sys; block = b'x' * (64 * 2**20); print('done'); sys.exit(3)"
    run = run_measured([sys.executable, "-c", code])
    assert run.returncode == 3
    assert run.output.strip() == "done"
    assert run.max_rss_mb >= 64


def test_bench_build_prints_its_table(tmp_path: Path) -> None:
    cmd = [
        sys.executable,
        str(REPO / "benchmarks" / "bench_build.py"),
        "--sizes",
        "30",
        "--repeat",
        "1",
        "--queries",
        "20",
        "--out",
        str(tmp_path),
        "--colibri-venv",
        str(tmp_path / "no-colibri"),
    ]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert any("dbt-colibri not found" in line for line in lines)
    rows = [line.split() for line in lines if line.split()[:1] == ["30"]]
    assert [row[1] for row in rows] == ["yes", "no"]
    assert all(any(cell.endswith("%") for cell in row) for row in rows)
    assert (tmp_path / "n30_catalog" / "target" / "lineage.json").is_file()
