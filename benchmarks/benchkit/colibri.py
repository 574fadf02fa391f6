"""Run dbt-colibri (from its own virtualenv) on a project and count what it resolved.

dbt-colibri is the comparison point of the build benchmark. It reads ``target/manifest.json``
and needs ``target/catalog.json``; ``colibri generate`` writes ``colibri-manifest.json`` (the
lineage) and ``index.html`` (its dashboard) into ``--output-dir``. Its update check and
telemetry are turned off through its documented switches, so that it runs offline.
"""

from __future__ import annotations

import dataclasses
import json
import os
from pathlib import Path

from .process import Run, run_measured

OUTPUT_DIR = "colibri-out"


@dataclasses.dataclass(frozen=True)
class ColibriCount:
    """Model columns in colibri's lineage, and those with at least one upstream column."""

    columns: int
    with_upstream: int


def colibri_executable(venv: str | Path) -> Path | None:
    """The ``colibri`` script of the virtualenv at ``venv``, or None if it is not there."""
    exe = Path(venv) / "bin" / "colibri"
    return exe if exe.is_file() and os.access(exe, os.X_OK) else None


def colibri_command(exe: Path, project_dir: Path) -> list[str]:
    """The command that builds colibri's lineage of the project in ``project_dir``."""
    target = project_dir / "target"
    return [
        str(exe), "generate",
        "--manifest", str(target / "manifest.json"),
        "--catalog", str(target / "catalog.json"),
        "--output-dir", str(project_dir / OUTPUT_DIR),
        "--disable-telemetry",
    ]  # fmt: skip


def run_colibri(exe: Path, project_dir: Path, timeout: float | None = None) -> Run:
    """Run ``colibri generate`` on the project, offline, as a measured process."""
    env = dict(os.environ, DO_NOT_TRACK="1", DBT_COLIBRI_NO_VERSION_CHECK="1")
    return run_measured(colibri_command(exe, project_dir), cwd=project_dir, env=env,
                        timeout=timeout)  # fmt: skip


def count_colibri(document: dict) -> ColibriCount:
    """Count the model columns of a ``colibri-manifest.json`` document.

    A column counts as having an upstream when colibri lists at least one parent column for
    it; its structural ``__colibri_filter__`` / ``__colibri_join__`` entries are not columns.

    >>> doc = {"lineage": {"parents": {"model.p.a": {"x": [{"column": "id"}], "n": []},
    ...                                "model.p.b": {"__colibri_join__": [{"column": "id"}]}}}}
    >>> count_colibri(doc)
    ColibriCount(columns=2, with_upstream=1)
    """
    columns = with_upstream = 0
    for node_id, by_column in document.get("lineage", {}).get("parents", {}).items():
        if not node_id.startswith("model."):
            continue
        for column, parents in by_column.items():
            if column.startswith("__colibri_"):
                continue
            columns += 1
            with_upstream += bool(parents)
    return ColibriCount(columns, with_upstream)


def read_colibri_count(project_dir: Path) -> ColibriCount:
    """Count the columns of the lineage colibri wrote for the project."""
    path = project_dir / OUTPUT_DIR / "colibri-manifest.json"
    return count_colibri(json.loads(path.read_text(encoding="utf-8")))
