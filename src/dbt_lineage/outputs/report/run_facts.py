"""The last run of each node, as the report shows it, from dbt's ``run_results.json``."""

from __future__ import annotations

import dataclasses
import typing as t

from dbt_lineage.artifacts.run_results import RunResults


@dataclasses.dataclass(frozen=True)
class RunFact:
    """One node's last run: status, when it finished, rows, and the invocation.

    ``source`` says where the fact comes from: ``warehouse`` (the hook's tables) or
    ``run_results`` (the last invocation's artifact).
    """

    unique_id: str
    status: str
    invocation_id: str = ""
    completed_at: str = ""
    rows_affected: int | None = None
    execution_time: float | None = None
    message: str = ""
    command: str = ""
    source: str = "run_results"


def run_facts(results: RunResults) -> dict[str, RunFact]:
    """Each node's result in ``run_results.json``, keyed by unique id.

    >>> from dbt_lineage.artifacts.run_results import RunResults
    >>> results = RunResults.model_validate({
    ...     "metadata": {"invocation_id": "inv-1"}, "args": {"which": "build"},
    ...     "results": [{"unique_id": "model.p.a", "status": "success", "execution_time": 0.5,
    ...                  "adapter_response": {"rows_affected": 3},
    ...                  "timing": [{"name": "execute", "completed_at": "2026-01-01T10:00:00Z"}]}]})
    >>> fact = run_facts(results)["model.p.a"]
    >>> fact.status, fact.rows_affected, fact.completed_at, fact.command
    ('success', 3, '2026-01-01T10:00:00Z', 'build')
    """
    invocation = results.metadata.invocation_id or ""
    command = str(results.args.get("which") or "")
    facts: dict[str, RunFact] = {}
    for result in results.results:
        facts[result.unique_id] = RunFact(
            unique_id=result.unique_id,
            status=result.status,
            invocation_id=invocation,
            completed_at=_completed(result.timing) or (results.metadata.generated_at or ""),
            rows_affected=_rows(result.adapter_response.get("rows_affected")),
            execution_time=result.execution_time,
            message=result.message or "",
            command=command,
        )
    return facts


def _completed(timing: list[dict[str, t.Any]]) -> str:
    for step in timing:
        if step.get("name") == "execute" and step.get("completed_at"):
            return str(step["completed_at"])
    return ""


def _rows(value: t.Any) -> int | None:
    """Rows affected as a number; dbt writes -1 or nothing when the adapter does not say."""
    if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
        return None
    return int(value)
