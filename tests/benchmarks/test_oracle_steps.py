"""The oracle's steps: an edge the query's result cannot show is looked for in the step of
the query where it does its work, run alone with its base tables' row ids; an edge no data
reaches says why; ties at a LIMIT cut are not taken for lineage."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import duckdb
import pytest
from tests.benchmarks.oracle_findings import findings

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "benchmarks"))

from benchkit.oracle_data import perturbed  # noqa: E402
from benchkit.oracle_steps import step_class, steps  # noqa: E402
from benchkit.oracle_ties import tie_probes, tied  # noqa: E402

NO_ROWS = "the steps that name it had no rows on any data set"


def test_a_join_key_a_grouping_folds_away_is_shown_by_its_join() -> None:
    # The left join multiplies the orders rows a customer id matches; grouping by the order
    # id folds them again, so the result never shows the join key: the join's probe does
    # (the pairs its condition held for), before the grouping step.
    sql = (
        "select o.id, max(o.amount) as top from orders o"
        " left join customers c on o.customer_id = c.id group by o.id"
    )
    found = findings(sql)
    assert set(found) == {
        ("row_set", "", "orders.customer_id"),
        ("row_set", "", "customers.id"),
    }
    for step, _ in found.values():
        assert step == "rows of the join on o.customer_id = c.id in the query", step


def test_a_ranking_whose_order_key_no_output_shows_is_shown_by_the_step_values() -> None:
    sql = "select row_number() over (partition by status order by id) as r, status from orders"
    found = findings(sql)
    assert found == {("window", "r", "orders.id"): ("values of the query", "")}


def test_a_branch_the_query_rules_out_is_named_as_such() -> None:
    sql = "select case when id is null then note else id end as x from orders where id in (1, 2)"
    found = findings(sql)
    assert found == {
        ("direct", "x", "orders.note"): (
            "",
            "named only in a branch no data set took (CASE, COALESCE) or in x = x OR x IS NULL",
        )
    }


def test_a_filter_true_for_every_value_is_named_as_such() -> None:
    sql = "select id from orders where (note = note or note is null)"
    found = findings(sql)
    assert found == {
        ("row_set", "", "orders.note"): (
            "",
            "named only in a branch no data set took (CASE, COALESCE) or in x = x OR x IS NULL",
        )
    }


def test_steps_are_named_by_their_place_and_run_alone_with_the_ctes_they_see() -> None:
    sql = (
        "with c as (select id from orders where amount > 1)"
        " select c.id from c where exists (select 1 from customers where region = 2)"
        " union all select id from (select id from orders group by id) as s"
    )
    found = {step.label: step for step in steps(sql)}
    assert set(found) == {
        "the query (a set-operation branch)",
        "an EXISTS subquery",
        "the query (a set-operation branch) #2",
        "derived table s",
        "derived table s, before its grouping",
        "CTE c",
    }
    with duckdb.connect() as con:
        con.execute("create table orders (id int, amount int)")
        con.execute("create table customers (id int, region int)")
        con.execute("insert into orders values (1, 2), (2, 0), (1, 3)")
        for step in found.values():
            con.execute(step.sql).fetchall()  # each runs alone
        rows = con.execute(found["CTE c"].sql).fetchall()
    assert sorted(rows) == [(1, 0), (1, 2)]  # the id, then the row id of each orders row
    assert step_class("rows of CTE c") == "rows of a CTE"


@pytest.mark.parametrize(
    ("rows", "expected"),
    [([(1, 5), (2, 5), (3, 7)], True), ([(1, 5), (2, 6), (3, 7)], False)],
)
def test_a_tie_at_a_limit_cut_is_seen(rows: list[tuple[int, int]], expected: bool) -> None:
    sql = "select id from orders order by amount limit 1"
    with duckdb.connect() as con:
        con.execute("create table orders (id int, amount int)")
        con.executemany("insert into orders values (?, ?)", rows)
        assert tied(con, tie_probes(sql)) is expected


@pytest.mark.parametrize(
    "module",
    [
        "benchkit.oracle_joins",
        "benchkit.oracle_lateral",
        "benchkit.oracle_peers",
        "benchkit.oracle_reads",
        "benchkit.oracle_steps",
        "benchkit.oracle_ties",
        "benchkit.oracle_windows",
    ],
)
def test_the_docstring_examples_hold(module: str) -> None:
    import doctest
    import importlib

    failed, attempted = doctest.testmod(importlib.import_module(module))
    assert attempted > 0
    assert failed == 0


def test_a_ranking_key_a_distinct_folds_away_is_shown_by_the_values_before_it() -> None:
    # Each status's row numbers are 1 to its count whatever the amounts: DISTINCT keeps the
    # same rows. Before it, the amount decides which row gets which number.
    sql = (
        "select distinct o.status, row_number() over (partition by o.status order by o.amount)"
        " as r from orders o"
    )
    assert findings(sql) == {
        ("row_set", "", "orders.amount"): ("values of the query, before its DISTINCT", "")
    }


def test_new_values_come_in_the_rows_order_and_reversed() -> None:
    domain = ([0, 1, 2], [])
    ascending = perturbed(random.Random(0), domain, 3, 1)
    assert perturbed(random.Random(0), domain, 3, 3) == ascending[::-1]
    assert len(set(ascending)) == 3 and not set(ascending) & set(domain[0])


@pytest.mark.parametrize("star", ["o.*", "*", "o.id + 1 as e, o.*"])
def test_a_column_named_only_by_a_star_of_a_step_with_no_rows_is_named(star: str) -> None:
    # No amount is over 1,000: the derived table never has a row, and the note it reads
    # only through its star (a DISTINCT's row-set edge) is read by a step that had none.
    sql = (
        f"select c.region, s.id from customers c left join (select distinct {star}"
        " from orders o where o.amount > 1000) s on c.id = s.id"
    )
    found = findings(sql)
    assert found[("row_set", "", "orders.note")] == ("", NO_ROWS)


def test_a_star_that_excludes_a_column_does_not_read_it() -> None:
    sql = "select distinct * exclude (note) from orders o where o.amount > 1000"
    reads = {r[1] for step in steps(sql) for r in step.reads}
    assert "*" not in reads and "amount" in reads
