"""The oracle's correlated steps: a subquery that reads the columns of the ``SELECT`` around it
runs beside that one's rows, when it aggregates too (its row ids gathered per group, its rows
before its grouping beside them as well) and when it reads no base table of its own, so that
what it reads is shown by the values and rows it gives there, or named when it met no row."""

from __future__ import annotations

from tests.benchmarks.oracle_findings import findings

EMPTY = "the steps that name it had no rows on any data set"


def test_a_correlated_count_runs_beside_the_rows_around_it() -> None:
    # The inner join on c.id makes it never NULL: the THEN branch, the only reader of the
    # count, is taken on no row. Beside the orders it reads, the count shows which orders
    # rows each outer row counted.
    sql = (
        "select case when c.id is null then"
        " (select count(*) from orders p where p.status = o.note) else c.id end as e"
        " from orders o join customers c on o.note = c.id"
    )
    assert findings(sql) == {("window", "e", "orders.status"): ("rows of a scalar subquery", "")}


def test_a_correlated_count_beside_no_outer_row_is_named() -> None:
    # No order id is held by more than a thousand rows: the derived table has no row, so the
    # count beside it counts nothing, whatever the customers' region holds.
    sql = (
        "select (select count(*) from customers c where c.region = s.n) as k"
        " from (select o.id as n from orders o group by o.id having count(*) > 1000) s"
        " union all select c2.id from customers c2"
    )
    assert findings(sql)[("window", "k", "customers.region")] == ("", EMPTY)


def test_a_correlated_count_over_a_derived_table_whose_condition_never_holds_is_named() -> None:
    # The count of customers is never a note plus a thousand: beside every order, the
    # subquery's rows before its count are none, so the note decides nothing there.
    sql = (
        "select o.id, (select count(*) from (select count(*) as n from customers) s"
        " where s.n = o.note + 1000) as k from orders o"
    )
    assert findings(sql) == {("window", "k", "orders.note"): ("", EMPTY)}
