"""The layering of DEVELOPERS.md, enforced by import-linter's contracts in pyproject.toml."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_import_contracts_hold() -> None:
    lint_imports = Path(sys.executable).with_name("lint-imports")
    completed = subprocess.run(
        [str(lint_imports), "--no-cache"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(ROOT / "src"), "PATH": str(Path(sys.executable).parent)},
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr
    assert "4 kept, 0 broken" in completed.stdout
