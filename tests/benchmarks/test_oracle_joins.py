"""The oracle's join and partition probes: each join with a condition run alone as an inner
join of what is left of it with its right side, so that a join key a later step folds away
is shown by the pairs it made, and one whose condition never held (a key compared with an
aggregate random data never meets) is named as such, as is every column of a side that
never paired; each window's partitions run alone, so that a partition key whose partitions
all give the same value is shown by the partitions it made."""

from __future__ import annotations

import sys
from pathlib import Path

import sqlglot
from tests.benchmarks.oracle_findings import findings

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "benchmarks"))

from benchkit.oracle_joins import gates, probes  # noqa: E402
from benchkit.oracle_steps import step_class, steps  # noqa: E402

NEVER = "the join conditions that name it held for no row on any data set"
UNPAIRED = "its steps read it only from rows no data set had"


def _select(sql: str) -> sqlglot.exp.Select:
    return sqlglot.parse_one(sql, dialect="duckdb")


def test_each_join_with_a_condition_is_probed_with_what_is_left_of_it() -> None:
    select = _select(
        "select o.id from orders o cross join customers c"
        " left join orders p using (id) left join (select 1 as k) s on s.k = c.region"
    )
    found = probes(select, "the query", set())
    assert [p.label for p in found] == [
        "the join using (id) in the query",
        "the join on s.k = c.region in the query",
    ]
    # the cross join has no condition: no probe; the one before a probe stays as written
    assert found[1].sql == (
        'SELECT "o".rowid AS __rid0, "c".rowid AS __rid1, "p".rowid AS __rid2'
        " FROM orders AS o CROSS JOIN customers AS c LEFT JOIN orders AS p USING (id)"
        " JOIN (SELECT 1 AS k) AS s ON s.k = c.region"
    )
    assert (found[0].rids, found[1].rids) == (3, 3)


def test_a_side_is_gated_by_the_joins_that_keep_it_only_when_they_pair() -> None:
    def gated(join: str) -> dict[str, set[str]]:
        select = _select(f"select 1 from a {join} b on a.k = b.k")
        return gates(select, probes(select, "q", set()))

    probe = {"the join on a.k = b.k in q"}
    assert gated("left join") == {"b": probe}
    assert gated("right join") == {"a": probe}
    assert gated("join") == {"a": probe, "b": probe}
    assert gated("full join") == {}
    assert gated("anti join") == {}  # every left row stays when the condition never holds
    assert gated("semi join") == {"a": probe}


def test_a_join_probes_label_is_classed_without_its_condition() -> None:
    assert step_class("rows of the join on a.k = b.k in CTE c #2") == "rows of a join in a CTE"


def test_a_join_key_a_distinct_folds_away_is_shown_by_the_pairs_it_made() -> None:
    # Each order appears once whatever customers it matches (DISTINCT), so the result never
    # shows the join key; the pairs the condition held for do.
    sql = (
        "select distinct o.id, o.amount from orders o left join customers c on o.customer_id = c.id"
    )
    found = findings(sql)
    assert set(found) == {
        ("row_set", "", "orders.customer_id"),
        ("row_set", "", "customers.id"),
    }
    for step, reach in found.values():
        assert (step, reach) == ("rows of the join on o.customer_id = c.id in the query", "")


def test_a_join_on_an_aggregate_no_row_meets_is_named_and_its_side_too() -> None:
    # The count plus a thousand is a value no random note holds: the condition holds for no
    # pair, so neither the note nor the aggregated side's columns reach the result.
    sql = (
        "select o.id, s.n, c.region from orders o"
        " left join (select count(*) + 1000 as n from customers) s on o.note = s.n"
        " left join customers c on c.id = s.n"
    )
    found = findings(sql)
    assert found[("row_set", "", "orders.note")] == ("", NEVER)
    assert found[("row_set", "", "customers.id")][1] == NEVER
    step, reach = found[("direct", "region", "customers.region")]
    assert step == "" and reach.startswith(UNPAIRED), (step, reach)


def test_a_column_multiplied_by_a_side_that_never_paired_is_named() -> None:
    sql = (
        "select o.id * s.n as x, o.amount from orders o"
        " left join (select count(*) + 1000 as n from customers) s on o.note = s.n"
    )
    found = findings(sql)
    step, reach = found[("direct", "x", "orders.id")]
    assert step == "" and reach.startswith(UNPAIRED), (step, reach)


def test_a_column_multiplied_by_a_cte_side_with_no_rows_under_a_full_join_is_named() -> None:
    # No order id is counted a thousand times: the CTE never has a row, so under the FULL
    # JOIN (which keeps every customer whatever pairs) c.n is NULL and so is the product.
    sql = (
        "with c as (select o.id, count(*) as n from orders o group by o.id"
        " having count(*) > 1000)"
        " select c.n * cu.region as v from customers cu full join c on cu.id = c.id"
    )
    step, reach = findings(sql)[("direct", "v", "customers.region")]
    assert step == "" and reach.startswith(UNPAIRED), (step, reach)
    labels = {step.label: step for step in steps(sql)}
    region = next(r for r in labels["the query"].reads if r[1] == "region")
    assert region[3] == frozenset([frozenset(["CTE c"])])  # the product needs c's rows


def test_a_cte_side_whose_steps_had_rows_gates_nothing() -> None:
    # The same shape over a CTE that has rows: the product moves with the region.
    sql = (
        "with c as (select o.id, count(*) as n from orders o group by o.id)"
        " select c.n * cu.region as v from customers cu full join c on cu.id = c.id"
    )
    assert ("direct", "v", "customers.region") not in findings(sql)


def test_steps_hold_the_join_probes_of_every_select() -> None:
    sql = (
        "with c as (select a.id from orders a join customers b on a.customer_id = b.id)"
        " select id from c"
    )
    labels = [s.label for s in steps(sql)]
    assert "the join on a.customer_id = b.id in CTE c" in labels


def test_a_partition_key_over_a_cross_join_is_shown_by_its_partitions() -> None:
    # Every partition of a customers region holds every order: the maximum is the same in
    # each, so no output moves with the region; the partitions it makes do.
    sql = "select max(o.id) over (partition by c.region) as m from orders o cross join customers c"
    found = findings(sql)
    assert found == {
        ("window", "m", "customers.region"): (
            "rows of the partitions of MAX(o.id) OVER (PARTITION BY c.region) in the query",
            "",
        )
    }


def test_a_correlated_subquery_runs_beside_the_rows_around_it() -> None:
    # The EXISTS decides only for orders whose id is NULL, which the maximum ignores: the
    # result never shows the customers' region. Run alone the EXISTS cannot bind (it reads
    # the order around it); beside the orders it shows which customers each order finds.
    sql = (
        "select max(o.id) as m from orders o"
        " where o.id is not null or exists (select 1 from customers c where c.region = o.note)"
    )
    found = findings(sql)
    assert found[("row_set", "", "customers.region")] == ("rows of an EXISTS subquery", "")


def test_a_value_a_lateral_subquery_passes_to_a_branch_never_taken_is_shown_by_its_values() -> None:
    # The inner join on c.id makes it never NULL: the THEN branch, the only reader of the
    # subquery's amount, is taken on no row. Beside the orders it reads, the subquery shows
    # the amounts it finds.
    sql = (
        "select case when c.id is null then s.a else c.id end as e from orders o"
        " cross join lateral (select p.amount as a from orders p where p.status = o.note) s"
        " join customers c on o.note = c.id"
    )
    assert findings(sql) == {("direct", "e", "orders.amount"): ("values of derived table s", "")}


def test_a_side_of_a_full_join_its_filter_never_keeps_paired_is_named_as_unread() -> None:
    # A count plus 1,000 meets no customer id: every customers row the FULL JOIN keeps pairs
    # with nothing, and the WHERE keeps only rows with an s side, so no row of the result
    # holds a customer: its row id is NULL in every row the query gives.
    sql = (
        "select c.region as r, s.n from customers c full join"
        " (select count(*) as n, o.id from orders o group by o.id) s on c.id = s.n + 1000"
        " where s.id is not null"
    )
    step, reach = findings(sql)[("direct", "r", "customers.region")]
    assert step == "" and reach.startswith(UNPAIRED), (step, reach)


def test_a_ranking_key_a_distinct_folds_away_is_shown_by_the_rows_qualify_keeps() -> None:
    sql = (
        "select distinct o.status from orders o"
        " qualify row_number() over (partition by o.status order by o.amount) = 1"
    )
    assert findings(sql) == {
        ("row_set", "", "orders.amount"): ("rows of the query, before its DISTINCT", "")
    }


def test_a_grouped_side_of_a_full_join_its_filter_never_keeps_paired_is_named_as_unread() -> None:
    # A count plus 1,000 meets no note: every row the WHERE keeps is the count's, paired with
    # no order. Under the GROUP BY the row ids are gathered into lists; the rows before the
    # grouping tell that no orders row was ever among them.
    sql = (
        "select o.customer_id as cid, s.n from orders o full join"
        " (select count(*) + 1000 as n from customers) s on o.note = s.n"
        " where s.n is not null group by o.customer_id, s.n"
    )
    for check in (("direct", "cid"), ("row_set", "")):
        step, reach = findings(sql)[(*check, "orders.customer_id")]
        assert step == "" and reach.startswith(UNPAIRED), (check, step, reach)
