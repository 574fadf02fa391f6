"""Which build of the SQL engine a dbt-lineage install runs: its figures depend on it."""

from __future__ import annotations

import subprocess
from pathlib import Path

_PROBE = (
    "import importlib.machinery as m, dbt_lineage.sql.scope_walk as w; "
    "print('compiled (mypyc)' if w.__file__.endswith(tuple(m.EXTENSION_SUFFIXES)) "
    "else 'pure Python')"
)


def engine(dbt_lineage: str | Path) -> str:
    """Module entry: ``compiled (mypyc)`` or ``pure Python``, as the Python beside the
    ``dbt_lineage`` executable imports the engine (a stale build runs its sources)."""
    python = Path(dbt_lineage).with_name("python")
    probe = subprocess.run([str(python), "-c", _PROBE], capture_output=True, text=True)
    return probe.stdout.strip() or f"unknown ({probe.stderr.strip()[-200:]})"
