"""Deeply nested SQL ends in a diagnostic, never a crash: every recursive walk of the engine
has a depth bound (``walk_base.MAX_DEPTH``), and sqlglot's own recursion (its parser, its
scopes) is caught.

The compiled engine (mypyc) checks no recursion limit: a walk without a bound overflows the
C stack and kills the process. CI runs these on the compiled install; a pure-Python install
runs them as they are.
"""

from __future__ import annotations

import ast
import collections
import sys
import typing as t
from pathlib import Path

import pytest

import dbt_lineage.sql
from dbt_lineage.errors import SqlError
from dbt_lineage.sql.column_lineage import column_lineage
from dbt_lineage.sql.enclosing_calls import enclosing_calls
from dbt_lineage.sql.inlined_columns import inlined_columns
from dbt_lineage.sql.normal_form import normal_form
from dbt_lineage.sql.walk_base import MAX_DEPTH

ENGINE = Path(dbt_lineage.sql.__file__).parent
DIALECTS = ("duckdb", "postgres", "snowflake", "bigquery", "databricks", "redshift")
TOO_DEEP = "unsupported_sql: nested too deep"
LINKS = MAX_DEPTH  # more links than guarded calls: past the bound whatever each link costs


def _cte_chain(links: int, step: str = "select x from c{prev}") -> str:
    ctes = ["c0 as (select a as x from t)"]
    ctes += [f"c{i} as ({step.format(prev=i - 1)})" for i in range(1, links)]
    return f"with {', '.join(ctes)} select x from c{links - 1}"


def _nested(links: int, opening: str, closing: str, middle: str) -> str:
    return opening * links + middle + closing * links


SHAPES: dict[str, t.Callable[[int], str]] = {
    # outputs of CTEs, each read by a reference in the next (resolve_output, resolve_ref,
    # resolve_in_source)
    "cte_chain": _cte_chain,
    # stars over stars: a scope's names from its source's (shape, output_names,
    # source_names, holds)
    "star_chain": lambda n: _cte_chain(n, "select * from c{prev}"),
    # joined CTEs: unqualified names matched against each source (holds)
    "join_chain": lambda n: _cte_chain(n, "select x from c{prev} join u on k = x"),
    # derived tables inside derived tables
    "derived_tables": lambda n: (
        "select x from " + _nested(n, "(select x from ", ") as s", "(select a as x from t) as s")
    ),
    # IN subqueries in WHERE inside each other: the clauses that decide rows (scope_rows)
    "filters": lambda n: (
        "select a from t where a in "
        + _nested(n, "(select k from u where k in ", ")", "(select 1)")
    ),
    # correlated EXISTS inside each other: references to outer scopes (outer_scope)
    "correlated": lambda n: (
        "select a from t where exists "
        + _nested(n, "(select 1 from u where u.k = t.a and exists ", ")", "(select 1)")
    ),
}

SCHEMA = {"t": {"a": "int"}, "u": {"k": "int"}}


@pytest.mark.parametrize("dialect", DIALECTS)
@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_each_walk_past_its_bound_is_a_diagnostic(shape: str, dialect: str) -> None:
    lineage = column_lineage(SHAPES[shape](LINKS), dialect=dialect, schema=SCHEMA)
    assert lineage.unresolved, "past the bound, the columns are unresolved"
    for name, reason in lineage.unresolved.items():
        assert reason.startswith(TOO_DEEP), (name, reason)
    assert not any(lineage.columns.values()), "no partial edges past the bound"


@pytest.mark.parametrize("dialect", DIALECTS)
@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_the_same_shapes_within_the_bound_resolve(shape: str, dialect: str) -> None:
    lineage = column_lineage(SHAPES[shape](8), dialect=dialect, schema=SCHEMA)
    assert not lineage.unresolved, lineage.unresolved
    (upstreams,) = lineage.columns.values()
    assert {u.column.casefold() for u in upstreams} == {"a"}


@pytest.mark.parametrize("dialect", DIALECTS)
@pytest.mark.parametrize(
    "sql",
    [
        "select " + _nested(20_000, "(", ")", "a") + " as x from t",
        "select " + _nested(20_000, "coalesce(", ", 1)", "a") + " as x from t",
        "select " + _nested(20_000, "case when a > 0 then ", " end", "a") + " as x from t",
        "select x from " + _nested(20_000, "(select x from ", ") as s", "t") + " as s",
        "select x from " + _nested(1_001, "(select x from ", ") as s", "t") + " as s",
        "select a" + "[1]" * 5_000 + " as x from t",
    ],
    ids=["parentheses", "calls", "case", "subqueries", "subqueries_past_the_bound", "subscripts"],
)
def test_sql_deeper_than_the_parser_follows_is_a_diagnostic(sql: str, dialect: str) -> None:
    lineage = column_lineage(sql, dialect=dialect, schema=SCHEMA)
    assert lineage.unresolved == {"*": f"{TOO_DEEP}: deeper than the SQL parser follows"}
    assert lineage.columns == {}


def test_a_long_query_with_many_shallow_parentheses_parses() -> None:
    sql = "select " + ", ".join(f"coalesce(a, {i}) + (a[{i}]) as x{i}" for i in range(2_000))
    lineage = column_lineage(sql + " from t", dialect="duckdb", schema=SCHEMA)
    assert not lineage.unresolved and len(lineage.columns) == 2_000


def test_a_chain_of_set_operations_is_walked_without_recursion() -> None:
    sql = " union all ".join(f"select a as x from t where a = {i}" for i in range(5_000))
    lineage = column_lineage(sql, dialect="duckdb", schema=SCHEMA)
    assert not lineage.unresolved
    assert {(u.table, u.column) for u in lineage.columns["x"]} == {("t", "a")}


def test_a_schema_nested_deeper_than_python_recurses_is_read() -> None:
    schema: dict[str, t.Any] = {"t": {"a": "int"}}
    for level in range(sys.getrecursionlimit() * 2):
        schema = {f"level{level}": schema}
    lineage = column_lineage("select 1 as x", dialect="duckdb", schema=schema)
    assert lineage.columns == {"x": []}


@pytest.mark.parametrize("dialect", DIALECTS)
def test_the_diff_parses_no_sql_nested_past_the_parser(dialect: str) -> None:
    """The diff parses each side's SQL itself (``normal_form``), and an edge's expression
    (``enclosing_calls``): the same refusal, as the SqlError each caller reports."""
    sql = "select x from " + _nested(20_000, "(select x from ", ") as s", "t") + " as s"
    with pytest.raises(SqlError, match="nested too deep"):
        normal_form(sql, dialect, {("t",): "model.p.t"}.get)
    with pytest.raises(SqlError, match="nested too deep"):
        enclosing_calls("a" + "[1]" * 5_000, dialect)


def test_inlining_columns_past_the_bound_is_a_sql_error() -> None:
    """The diff's inliner (``inlined_columns``) walks CTE by CTE too."""
    tree = normal_form(_cte_chain(LINKS), "duckdb", {("t",): "model.p.t"}.get)
    with pytest.raises(SqlError, match="nested too deep"):
        inlined_columns(tree, {"model.p.t": {"a": "int"}})
    shallow = normal_form(_cte_chain(8), "duckdb", {("t",): "model.p.t"}.get)
    assert inlined_columns(shallow, {"model.p.t": {"a": "int"}}).columns["x"].expression == (
        '"model.p.t".a'
    )


# -- every cycle of the engine's calls passes through a guarded function ---------------------


def _calls() -> tuple[dict[str, set[str]], set[str]]:
    """Function name -> the names it calls, over the engine's modules; and the guarded
    functions (they count their depth: ``self.deeper()`` or ``self.depth += 1``). Methods
    that only raise (``walk_base``'s declarations) are left out."""
    calls: dict[str, set[str]] = collections.defaultdict(set)
    guarded: set[str] = set()
    for path in ENGINE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.FunctionDef):
                continue
            if all(isinstance(s, (ast.Raise, ast.Expr)) for s in node.body):
                continue
            for inner in ast.walk(node):
                if isinstance(inner, ast.Call):
                    func = inner.func
                    called = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
                    calls[node.name].add(called)
                    guarded |= {node.name} if called == "deeper" else set()
                elif (
                    isinstance(inner, ast.AugAssign)
                    and isinstance(inner.target, ast.Attribute)
                    and inner.target.attr == "depth"
                    and isinstance(inner.op, ast.Add)
                ):
                    guarded.add(node.name)
                elif (  # a ``depth`` argument checked against a bound: ``if depth > MAX``
                    isinstance(inner, ast.If)
                    and isinstance(inner.test, ast.Compare)
                    and isinstance(inner.test.left, ast.Name)
                    and inner.test.left.id == "depth"
                    and isinstance(inner.test.ops[0], (ast.Gt, ast.GtE))
                ):
                    guarded.add(node.name)
    return calls, guarded


def _cycles(calls: dict[str, set[str]], removed: set[str]) -> list[list[str]]:
    """Strongly connected groups of more than one function (or calling itself), once the
    ``removed`` functions are taken out (Tarjan's algorithm, iteratively)."""
    graph = {f: sorted(c for c in callees if c in calls and c not in removed) for f, callees in
             calls.items() if f not in removed}  # fmt: skip
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in graph:
        if start in index:
            continue
        work = [(start, 0)]
        while work:
            node, position = work.pop()
            if position == 0:
                index[node] = low[node] = len(index)
                stack.append(node)
                on_stack.add(node)
            callees = graph[node]
            if position < len(callees):
                work.append((node, position + 1))
                callee = callees[position]
                if callee not in index:
                    work.append((callee, 0))
                elif callee in on_stack:
                    low[node] = min(low[node], index[callee])
                continue
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1 or node in graph[node]:
                    found.append(sorted(group))
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
    return found


def test_the_engine_has_recursive_walks_and_each_is_guarded() -> None:
    calls, guarded = _calls()
    assert _cycles(calls, set()), "the check sees the walk's recursion"
    assert {"resolve_output", "resolve_ref", "scope_rows", "shape", "column"} <= guarded
    assert _cycles(calls, guarded) == [], "a recursion with no depth bound"
