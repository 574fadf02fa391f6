"""The oracle's tie probes: a query whose rows or values DuckDB chooses among ties (peers of a
window that depends on their order, a LIMIT cut inside rows of equal sort keys, of a
DISTINCT select too) is found from the query and the data, and one without ties is not."""

from __future__ import annotations

import sys
from pathlib import Path

import duckdb
import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "benchmarks"))

from benchkit.oracle import oracle  # noqa: E402
from benchkit.oracle_ties import tie_probes, tied  # noqa: E402

from dbt_lineage.sql.column_lineage import column_lineage  # noqa: E402

Rows = list[tuple[int | None, int | None, int | None]]


def _tied(sql: str, rows: Rows) -> bool:
    with duckdb.connect() as con:
        con.execute("create table t (k int, v int, x int)")
        con.executemany("insert into t values (?, ?, ?)", rows)
        return tied(con, tie_probes(sql))


QUALIFY = (
    "with c as (select k, x from t qualify row_number() over (partition by k order by v) = 1)"
    " select x from c"
)


@pytest.mark.parametrize(
    ("rows", "expected"),
    [
        ([(1, 5, 10), (1, 5, 20), (2, 5, 30)], True),  # two peers of k = 1 differ in x
        ([(1, 5, 10), (1, 6, 20), (2, 5, 30)], False),  # no peers: v tells them apart
        ([(1, 5, 10), (1, 5, 10), (2, 5, 30)], False),  # peers alike: the same row kept
        ([(None, None, 1), (None, None, 2)], True),  # NULL keys are peers too
    ],
)
def test_peers_of_a_qualify_ranking_in_a_cte_that_differ_are_a_tie(
    rows: Rows, expected: bool
) -> None:
    assert _tied(QUALIFY, rows) is expected


@pytest.mark.parametrize(
    ("sql", "expected"),
    [
        ("select k, lag(x) over (partition by k order by v) from t", True),  # an argument
        ("select k, row_number() over (partition by k order by v) from t", False),  # k alike
        ("select k, x, ntile(2) over (order by v) from t", True),
        ("select x, first_value(x) over (partition by k) from t", True),  # no ORDER BY
        ("select t.*, sum(x) over (order by v rows 1 preceding) from t", True),  # a star
        ("select k, x, sum(x) over (partition by k order by v) from t", None),  # RANGE: peers
        ("select k, x, rank() over (partition by k order by v) from t", None),  # ties alike
    ],
)
def test_only_windows_that_depend_on_the_order_among_peers_are_probed(
    sql: str, expected: bool | None
) -> None:
    rows: Rows = [(1, 5, 10), (1, 5, 20), (2, 6, 30)]  # rows 1 and 2 are peers in k and v
    if expected is None:
        assert not any(not keys for _, keys in tie_probes(sql))
    else:
        assert _tied(sql, rows) is expected


DISTINCT = "select x from (select distinct t.* from t order by 1 limit 1) as s"


@pytest.mark.parametrize(
    ("rows", "expected"),
    [
        ([(1, 5, 10), (1, 6, 20), (2, 5, 30)], True),  # two distinct rows of k = 1 at the cut
        ([(1, 5, 10), (1, 5, 10), (2, 5, 30)], False),  # the same row twice: DISTINCT keeps one
        ([(1, 5, 10), (2, 6, 20), (3, 5, 30)], False),  # k tells them apart
    ],
)
def test_a_cut_of_a_distinct_select_by_a_position_past_a_star_is_probed(
    rows: Rows, expected: bool
) -> None:
    assert _tied(DISTINCT, rows) is expected


def test_a_distinct_cut_by_name_sorts_its_rows_by_that_output() -> None:
    sql = "select distinct k, x from t order by t.k, 2 desc limit 2"
    assert _tied(sql, [(1, 5, 10), (2, 5, 20), (2, 6, 30)]) is False  # (2, 30) then (2, 20)
    assert _tied(sql, [(1, 5, 10), (1, 6, 10), (2, 6, 30)]) is False  # alike after DISTINCT
    assert _tied(
        "select distinct k, x from t order by k limit 2", [(1, 0, 1), (2, 0, 1), (2, 0, 2)]
    )


@pytest.mark.parametrize(
    ("order", "skipped"),
    [
        # Each random data set has more rows than status values: peers of equal status that
        # differ in id, of which row_number() puts first the one DuckDB likes.
        ("", "its result depends on the order of the rows"),
        # Peers of equal status and id are alike in all the query passes on.
        (" order by id", None),
    ],
)
def test_the_oracle_leaves_out_a_query_whose_qualify_keeps_one_of_differing_peers(
    order: str, skipped: str | None
) -> None:
    sql = f"select id from orders qualify row_number() over (partition by status{order}) = 1"
    schema = {"orders": {"id": "int", "amount": "int", "status": "int"}}
    lineage = column_lineage(sql, dialect="duckdb", schema=schema)
    verdict = oracle(sql, "duckdb", {("orders",): schema["orders"]}, lineage, seed=3)
    assert verdict.skipped == skipped
