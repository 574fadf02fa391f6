"""The synthetic project the query benchmarks share, with its lineage built and indexed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from benchkit.process import run_measured

GENERATE = Path(__file__).resolve().parents[1] / "generate_project.py"


def indexed_project(project: Path, models: int, *, seed: int, dbt_lineage: str) -> Path:
    """Module entry: ``project`` with ``target/manifest.json`` (generated unless there) and
    its ``lineage.json`` and query index (built unless there); its target directory."""
    target = project / "target"
    if not (target / "manifest.json").is_file():
        # In a process of its own: one that grew to hold the project would pass its size on
        # to the commands timed after it (a forked child's peak RSS starts at its parent's).
        generate = [sys.executable, str(GENERATE), "--models", str(models), "--out", str(project)]
        subprocess.run([*generate, "--seed", str(seed)], check=True, stdout=subprocess.DEVNULL)
    if not (target / "lineage.json").is_file() or not (target / "lineage.index.sqlite").is_file():
        built = run_measured([dbt_lineage, "build", "--project-dir", str(project)])
        if built.returncode != 0:
            raise RuntimeError(built.output[-600:])
        print(f"built lineage.json and its index in {built.seconds:.1f} s")
    return target
