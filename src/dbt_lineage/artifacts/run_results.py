"""dbt's ``run_results.json``: what the last invocation ran, and how it went."""

from __future__ import annotations

import typing as t
from pathlib import Path

from dbt_lineage.artifacts._json import ArtifactModel, read_artifact

SUPPORTED_VERSIONS = (5, 6)


class NodeResult(ArtifactModel):
    unique_id: str
    status: str
    execution_time: float = 0.0
    message: str | None = None
    adapter_response: dict[str, t.Any] = {}
    timing: list[dict[str, t.Any]] = []


class RunResultsMetadata(ArtifactModel):
    dbt_version: str = ""
    invocation_id: str | None = None
    generated_at: str | None = None
    invocation_started_at: str | None = None
    """When dbt started (dbt 1.9 and later write it)."""


class RunResults(ArtifactModel):
    metadata: RunResultsMetadata
    results: list[NodeResult] = []
    elapsed_time: float = 0.0
    args: dict[str, t.Any] = {}
    path: str = ""


def load_run_results(path: str | Path) -> RunResults:
    """Load and validate ``run_results.json``.

    Raises:
        ArtifactError: missing, unreadable, an unsupported version, or malformed.
    """
    path = Path(path)
    results = read_artifact(
        path, RunResults, kind="run-results", supported=SUPPORTED_VERSIONS, remedy="rerun dbt"
    ).model
    return results.model_copy(update={"path": str(path)})
