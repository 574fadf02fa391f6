"""``column_lineage`` on generated SQL: it never raises but ``SqlError``, and says why.

The queries come from the grammar in ``sql_grammar.py`` (CTE chains, stars, set operations,
joins with USING and ON, subqueries in WHERE/SELECT/FROM, windows, GROUP BY/HAVING/QUALIFY,
tables and columns the schema does not list, quoted names; duckdb, postgres, snowflake,
bigquery, spark), each with what a correct engine answers: the output names in order and,
per output, whether it reads a base column, a column its listed table lacks, or none.
``derandomize`` makes the sample the same on every run; ``benchmarks/fuzz.py`` runs 10,000+.
"""

from __future__ import annotations

import sqlglot
from hypothesis import HealthCheck, given, settings
from tests.sql.sql_grammar import Case, cases, violations

from dbt_lineage.errors import SqlError
from dbt_lineage.sql.column_lineage import column_lineage

FUZZ = settings(
    max_examples=250,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@FUZZ
@given(case=cases())
def test_generated_sql_is_resolved_or_explained(case: Case) -> None:
    try:
        lineage = column_lineage(case.sql, dialect=case.dialect, schema=case.schema)
    except SqlError as error:
        assert case.mutated, f"the grammar's SQL parses in {case.dialect}: {error.message}"
        assert "\n" not in error.message and "\x1b" not in error.message
        return
    assert violations(case, lineage) == []


@settings(FUZZ, max_examples=60)
@given(case=cases())
def test_the_same_tree_gives_the_same_answer_as_the_text(case: Case) -> None:
    """The API takes SQL text or a parsed tree; both give one answer (the tree untouched)."""
    try:
        tree = sqlglot.parse(case.sql, dialect=case.dialect)[-1]
    except sqlglot.errors.SqlglotError:
        return
    if tree is None:
        return
    before = tree.sql()
    try:
        from_text = column_lineage(case.sql, dialect=case.dialect, schema=case.schema)
    except SqlError:
        return
    from_tree = column_lineage(tree, dialect=case.dialect, schema=case.schema)
    assert tree.sql() == before
    assert from_tree.columns.keys() == from_text.columns.keys()
    assert from_tree.unresolved == from_text.unresolved
