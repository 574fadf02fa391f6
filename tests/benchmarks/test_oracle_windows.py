"""The oracle's window probes and gates: a window's keys decide nothing where its partitions
never held two rows, nor where it sums, counts or takes the extreme of a column of a join's
side that never paired (NULL in every row); an edge read only there is named as such."""

from __future__ import annotations

import sys
from pathlib import Path

import duckdb
from tests.benchmarks.oracle_findings import findings

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "benchmarks"))

from benchkit.oracle_joins import reach  # noqa: E402
from benchkit.oracle_steps import steps  # noqa: E402

UNPAIRED = "its steps read it only from rows no data set had"


def test_a_window_key_over_partitions_of_one_row_is_named_when_no_partition_had_two() -> None:
    sql = "select lag(o.amount) over (partition by o.id order by o.status) as l from orders o"
    found = {step.label: step for step in steps(sql)}
    probe = (
        "the partitions of LAG(o.amount) OVER (PARTITION BY o.id ORDER BY o.status) in the query"
    )
    status = next(read for read in found["the query"].reads if read[1] == "status")
    assert status[3] == frozenset([frozenset([probe])])  # the order key needs the probe's rows
    with duckdb.connect() as con:
        con.execute("create table orders (id int, amount int, status int)")
        con.execute("insert into orders values (1, 2, 0), (2, 0, 1)")
        assert con.execute(found[probe].sql).fetchall() == []  # partitions of one row only
        con.execute("insert into orders values (1, 5, 3)")
        assert len(con.execute(found[probe].sql).fetchall()) == 1
    names = {("orders",): {"id", "amount", "status"}}
    reason = reach((("orders",), "status"), list(found.values()), {"the query"}, names)
    assert reason.startswith(UNPAIRED), reason
    assert reach((("orders",), "status"), list(found.values()), set(found), names) == ""


def test_a_window_key_of_a_sum_over_a_side_that_never_paired_is_named() -> None:
    # A count plus a thousand meets no note: the sum is over NULLs in every partition, in
    # whatever order, so the order key decides nothing.
    sql = (
        "select o.id, sum(s.n) over (partition by o.status order by o.amount) as w from orders o"
        " left join (select count(*) + 1000 as n from customers) s on o.note = s.n"
    )
    step, reason = findings(sql)[("window", "w", "orders.amount")]
    assert step == "" and reason.startswith(UNPAIRED), (step, reason)
