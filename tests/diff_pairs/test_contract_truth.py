"""What the ``contract_type_broken`` pair says, checked against real dbt on DuckDB: its base
builds (every declared type is right), its head fails on payment_amounts' contract at
``amount``; with that contract lifted, the two contracts downstream fail at the column the
diff names; and with amount's cast put back, the head builds (``datetime`` is the declared
``timestamp``, and the arithmetic it could not type fits ``double``)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.dbt_projects import _env
from tests.dbt_run import run_dbt
from tests.diff_pairs.pairs import BY_NAME, replace

pytestmark = pytest.mark.slow

PAIR = BY_NAME["contract_type_broken"]
_IGNORED = shutil.ignore_patterns("logs", "target", "catalog.json", "*.duckdb.wal")


def _build(template: Path, name: str, *edits: object) -> tuple[int, str]:
    """``dbt build`` of payment_amounts and what reads it, in a copy of the built template
    with ``edits``: the exit code and the output."""
    project = template.parent / f"truth_{name}"
    shutil.copytree(template, project, symlinks=True, ignore=_IGNORED)
    for edit in edits:
        edit(project)  # type: ignore[operator]
    proc = run_dbt(
        ["build", "--profiles-dir", ".", "--select", "payment_amounts+"], project, env=_env()
    )
    return proc.returncode, proc.stdout + proc.stderr


def _lift_own_contract(project: Path) -> None:
    replace(
        project,
        "models/marts/_payment_contracts.yml",
        "  - name: payment_amounts\n    config:\n      contract: {enforced: true}\n",
        "  - name: payment_amounts\n    config:\n      contract: {enforced: false}\n",
    )


def _cast_back(project: Path) -> None:
    replace(
        project,
        "models/marts/payment_amounts.sql",
        "cast(amount as varchar) as amount",
        "cast(amount as decimal(12, 2)) as amount",
    )


def test_what_dbt_says(template_project: Path) -> None:
    assert PAIR.base is not None
    code, out = _build(template_project, "base", PAIR.base)
    assert code == 0, out[-3000:]

    code, out = _build(template_project, "head", PAIR.base, PAIR.head)
    assert code != 0
    assert "payment_amounts" in out and "contract" in out.lower(), out[-3000:]
    assert "| amount" in out and "| paid_at" not in out, out[-3000:]

    code, out = _build(template_project, "downstream", PAIR.base, PAIR.head, _lift_own_contract)
    assert code != 0
    for model in ("latest_payment_amounts", "largest_payment"):
        assert f"Compilation Error in model {model}" in out, out[-3000:]
    assert "| largest_amount" in out and "| amount" in out, out[-3000:]

    code, out = _build(template_project, "equal_types", PAIR.base, PAIR.head, _cast_back)
    assert code == 0, out[-3000:]
