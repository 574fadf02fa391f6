"""The synthetic project the query benchmarks share, with its lineage built and indexed."""

from __future__ import annotations

from pathlib import Path

from synth_dbt import generate_project

from benchkit.process import run_measured


def indexed_project(project: Path, models: int, *, seed: int, dbt_lineage: str) -> Path:
    """Module entry: ``project`` with ``target/manifest.json`` (generated unless there) and
    its ``lineage.json`` and query index (built unless there); its target directory."""
    target = project / "target"
    if not (target / "manifest.json").is_file():
        generate_project(models, project, seed=seed, with_catalog=True)
    if not (target / "lineage.json").is_file() or not (target / "lineage.index.sqlite").is_file():
        built = run_measured([dbt_lineage, "build", "--project-dir", str(project)])
        if built.returncode != 0:
            raise RuntimeError(built.output[-600:])
        print(f"built lineage.json and its index in {built.seconds:.1f} s")
    return target
