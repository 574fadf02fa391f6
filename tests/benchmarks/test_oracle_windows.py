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
from benchkit.oracle_steps import step_class, steps  # noqa: E402

UNPAIRED = "its steps read it only from rows no data set had"


def test_a_window_key_over_partitions_of_one_row_is_named_when_no_partition_had_two() -> None:
    sql = "select lag(o.amount) over (partition by o.id order by o.status) as l from orders o"
    found = {step.label: step for step in steps(sql)}
    probe = (
        "the partitions of LAG(o.amount) OVER (PARTITION BY o.id ORDER BY o.status) in the query"
    )
    orderings = probe.replace("the partitions of", "the orderings by o of")
    status = next(read for read in found["the query"].reads if read[1] == "status")
    # the order key needs a partition of two orders rows
    assert status[3] == frozenset([frozenset([orderings])])
    with duckdb.connect() as con:
        con.execute("create table orders (id int, amount int, status int)")
        con.execute("insert into orders values (1, 2, 0), (2, 0, 1)")
        assert con.execute(found[probe].sql).fetchall() == []  # partitions of one row only
        con.execute("insert into orders values (1, 5, 3)")
        assert len(con.execute(found[probe].sql).fetchall()) == 1
        assert len(con.execute(found[orderings].sql).fetchall()) == 1
    names = {("orders",): {"id", "amount", "status"}}
    reason = reach((("orders",), "status"), list(found.values()), {"the query", probe}, names)
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


def test_an_order_key_over_copies_of_one_row_is_named_when_no_partition_held_two_rows() -> None:
    # The CTE repeats each order once per customer: a partition holds copies of one order,
    # which the order's amount cannot put in another order.
    sql = (
        "with c as (select o.id from orders o cross join customers)"
        " select row_number() over (partition by p.status order by p.amount) as r, c.id"
        " from orders p join c on p.id = c.id"
    )
    found = {step.label: step for step in steps(sql)}
    window = "ROW_NUMBER() OVER (PARTITION BY p.status ORDER BY p.amount)"
    rows, orderings = (
        f"the partitions of {window} in the query",
        f"the orderings by p of {window} in the query",
    )
    amount = next(read for read in found["the query"].reads if read[1] == "amount")
    assert orderings in next(iter(amount[3]))  # beside the join's probe
    with duckdb.connect() as con:
        con.execute("create table orders (id int, amount int, status int)")
        con.execute("create table customers (id int)")
        con.execute("insert into orders values (1, 2, 0), (2, 0, 1)")
        con.execute("insert into customers values (1), (2)")
        assert len(con.execute(found[rows].sql).fetchall()) == 2  # two copies in each
        assert con.execute(found[orderings].sql).fetchall() == []  # of one order
        con.execute("insert into orders values (3, 5, 0)")
        assert len(con.execute(found[orderings].sql).fetchall()) == 1
    names = {("orders",): {"id", "amount", "status"}, ("customers",): {"id"}}
    had = set(found) - {orderings}
    assert reach((("orders",), "amount"), list(found.values()), had, names).startswith(UNPAIRED)
    assert reach((("orders",), "amount"), list(found.values()), set(found), names) == ""


def test_an_ordering_probe_is_classed_without_its_window_or_table() -> None:
    label = "rows of the orderings by t26 of ROW_NUMBER() OVER (ORDER BY t26.x) in CTE c4"
    assert step_class(label) == "rows of the orderings of a window in a CTE"
