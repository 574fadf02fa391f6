"""The pivot, unpivot and star-pattern cases, proven by running them in DuckDB.

Each case's tables are filled with random rows; one source column at a time is drawn again
over several seeds, and the output columns that change are compared with the engine's
answer: every direct upstream moves its output under some seed, and an output moves only
with a direct upstream or a column that decides the rows.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import duckdb
import pytest
import yaml

from dbt_lineage.sql.column_lineage import column_lineage

CASES = Path(__file__).parent / "cases"
EXECUTED = [
    "pivot_duckdb",
    "pivot_over_cte_duckdb",
    "pivot_several_aggregates_duckdb",
    "pivot_several_aggregates_unaliased_duckdb",
    "unpivot_duckdb",
    "unpivot_multi_column_duckdb",
    "unpivot_over_cte_duckdb",
    "star_ilike_duckdb",
]
SEEDS = range(6)
Moved = dict[str, set[tuple[str, str]]]


def _value(data_type: str, rng: random.Random, words: list[str]) -> object:
    if any(name in data_type.lower() for name in ("int", "double", "decimal")):
        return rng.randint(0, 3)
    return rng.choice(words)


def _outputs(spec: dict, seed: int, redrawn: tuple[str, str] | None) -> dict[str, list[str]]:
    words = ["x", "y", *re.findall(r"'([^']*)'", spec["sql"])]
    with duckdb.connect() as db:
        for table, columns in spec["schema"].items():
            defined = ", ".join(f"{name} {data_type}" for name, data_type in columns.items())
            db.execute(f"create table {table} ({defined})")
            rng = random.Random(seed)
            rows = []
            for row in range(12):
                again = random.Random(seed * 1000 + row + 1)
                values = []
                for name, kind in columns.items():
                    value = _value(kind, rng, words)  # drawn always: the others stay put
                    values.append(_value(kind, again, words) if (table, name) == redrawn else value)
                rows.append(values)
            marks = ", ".join("?" * len(columns))
            db.executemany(f"insert into {table} values ({marks})", rows)
        result = db.execute(spec["sql"])
        names = [column[0] for column in result.description]
        rows = result.fetchall()
    return {name: sorted(repr(row[i]) for row in rows) for i, name in enumerate(names)}


@pytest.mark.parametrize("name", EXECUTED)
def test_engine_agrees_with_execution(name: str) -> None:
    spec = yaml.safe_load((CASES / f"{name}.yml").read_text())
    lineage = column_lineage(spec["sql"], dialect="duckdb", schema=spec["schema"])
    moved: Moved = {}
    for seed in SEEDS:
        base = _outputs(spec, seed, None)
        assert list(base) == list(lineage.columns), "the engine names DuckDB's columns"
        for table, columns in spec["schema"].items():
            for column in columns:
                other = _outputs(spec, seed, (table, column))
                for output, values in base.items():
                    if other[output] != values:
                        moved.setdefault(output, set()).add((table, column))
    rows = {(u.table, u.column) for u in lineage.indirect if u.columns is None}
    for output, upstreams in lineage.columns.items():
        direct = {(u.table, u.column) for u in upstreams}
        seen = moved.get(output, set())
        assert direct <= seen, f"{output}: {direct - seen} never moved it"
        assert seen <= direct | rows, f"{output}: moved by {seen - direct - rows}"
