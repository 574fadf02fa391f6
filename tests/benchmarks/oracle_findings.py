"""What the oracle finds on a query over two small tables: the shared ground of the tests of
its steps and its probes."""

from __future__ import annotations

import sys
from pathlib import Path

from dbt_lineage.sql.column_lineage import column_lineage

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "benchmarks"))

from benchkit.oracle import oracle  # noqa: E402

ORDERS = {"id": "int", "amount": "int", "status": "int", "customer_id": "int", "note": "int"}
CUSTOMERS = {"id": "int", "region": "int"}
SCHEMA = {"orders": ORDERS, "customers": CUSTOMERS}
TABLES = {("orders",): ORDERS, ("customers",): CUSTOMERS}


def findings(sql: str) -> dict[tuple[str, str, str], tuple[str, str]]:
    """Each disagreement of the oracle with the engine on ``sql`` (DuckDB), as (check,
    output, source) -> (the step that showed it, why no data reached it)."""
    lineage = column_lineage(sql, dialect="duckdb", schema=SCHEMA)
    verdict = oracle(sql, "duckdb", TABLES, lineage, seed=3)
    assert verdict.skipped is None
    return {(f.check, f.output, f.source): (f.step, f.reach) for f in verdict.disagreements}
