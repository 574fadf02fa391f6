"""Building the checkout for another environment (``pip install ./dbt-lineage``) never
deletes or rewrites the files of the development environment's editable install: its
compiled engine in ``src/`` and the record of what it compiled."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_a_wheel_built_from_the_checkout_leaves_src_alone(tmp_path: Path) -> None:
    checkout = tmp_path / "dbt-lineage"
    checkout.mkdir()
    for name in ("setup.py", "pyproject.toml", "README.md"):
        shutil.copy(REPO / name, checkout / name)
    shutil.copytree(
        REPO / "src", checkout / "src", ignore=shutil.ignore_patterns("*.so", "compiled.json")
    )
    engine = checkout / "src" / "dbt_lineage" / "sql"
    editable = engine / "names.cpython-311-x86_64-linux-gnu.so"  # the editable install's
    editable.write_bytes(b"compiled by the development environment")
    record = engine / "compiled.json"
    record.write_text('{"names": "digest of the development environment"}\n')
    env = {**os.environ, "DBT_LINEAGE_PURE_PYTHON": "1", "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path / "out"),
         str(checkout)],
        env=env, capture_output=True, text=True, timeout=900,
    )  # fmt: skip
    assert built.returncode == 0, built.stdout[-2000:] + built.stderr[-2000:]
    assert editable.read_bytes() == b"compiled by the development environment"
    assert record.read_text() == '{"names": "digest of the development environment"}\n'
    (wheel,) = (tmp_path / "out").glob("dbt_lineage-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "dbt_lineage/sql/names.py" in names
    assert not [n for n in names if n.endswith((".so", "compiled.json"))], "a pure wheel"
