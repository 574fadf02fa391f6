"""archive_history killed in the middle of its move loses and duplicates nothing.

Real `dbt run-operation dbt_lineage.archive_history` runs on PostgreSQL, each killed
(SIGKILL or SIGTERM, alternately) at a random moment of its move
(tests/macros/kill_archive.py). After each kill every invocation's rows are all in the
live tables, all in the archive, or all in both with the same values; a rerun then
finishes the move: everything in the archive, once, nothing left live.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.macros.conftest import drop_pg_schemas

pytestmark = pytest.mark.slow

ROUNDS = 12


def test_killed_archive_moves_lose_and_duplicate_nothing(pg_shop):
    lineage = pg_shop.lineage_schema
    try:
        proc = subprocess.run(
            [sys.executable, str(Path(__file__).with_name("kill_archive.py")), str(pg_shop.path),
             str(ROUNDS), "21", "3000"],
            env={**os.environ, **pg_shop.env, "DBT_SEND_ANONYMOUS_USAGE_STATS": "false"},
            capture_output=True, text=True, timeout=900,
        )  # fmt: skip
    finally:
        drop_pg_schemas(f"{lineage}_archive", f"{lineage}_snap")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    report = json.loads(proc.stdout.strip().splitlines()[-1])
    first = report["first_check"]
    assert first["violations"] == {} and sum(first["live"].values()) == 0, first
    rounds = report["rounds"]
    assert len(rounds) == ROUNDS
    assert [r["violations"] for r in rounds] == [{}] * ROUNDS, rounds
    for r in rounds:
        assert r["rerun"]["exit"] == 0 and r["rerun"]["violations"] == {}, r
        assert sum(r["rerun"]["live"].values()) == 0, r
        assert r["rerun"]["archived"] == first["archived"], r
    killed = [r for r in rounds if r["exit"] != 0]
    assert len(killed) >= 3, rounds  # most died before the end of the move
    # some kills fell between two tables' transactions: part moved, part still live
    assert any(sum(r["live"].values()) and sum(r["archived"].values()) for r in rounds), rounds
