"""Column lineage of single queries: the data-file cases, plus the direct API checks.

Each file in ``cases/`` is one construct: dialect (or ``dialects``, a list: the case runs on
each), schema, SQL and the expected edges, unresolved columns and notes (each a prefix of
one of ``QueryLineage.notes``; given, the notes are exactly those). Adding a case is adding a
file.
"""

from __future__ import annotations

import subprocess
import sys
import typing as t
from pathlib import Path

import pytest
import yaml

from dbt_lineage.errors import SqlError
from dbt_lineage.sql.column_lineage import column_lineage

CASES = Path(__file__).parent / "cases"


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "case" in metafunc.fixturenames:
        cases: list[tuple[Path, str]] = []
        ids: list[str] = []
        for path in sorted(CASES.glob("*.yml")):
            spec = yaml.safe_load(path.read_text())
            dialects = spec.get("dialects") or [spec["dialect"]]
            cases += [(path, dialect) for dialect in dialects]
            ids += [path.stem] if "dialects" not in spec else [f"{path.stem}-{d}" for d in dialects]
        metafunc.parametrize("case", cases, ids=ids)


def _edges(items: t.Iterable[t.Any]) -> set[tuple[str, str, str]]:
    return {(item["table"], item["column"], item["kind"]) for item in items}


def _indirect(items: t.Iterable[t.Any]) -> set[tuple[str, str, str, tuple[str, ...] | None]]:
    """Indirect edges with their scope: None (the row set) or the sorted output columns."""
    return {
        (
            item["table"],
            item["column"],
            item["kind"],
            tuple(sorted(item["columns"])) if item.get("columns") is not None else None,
        )
        for item in items
    }


def test_case(case: tuple[Path, str]) -> None:
    path, dialect = case
    spec = yaml.safe_load(path.read_text())
    expected = spec["expected"]
    lineage = column_lineage(spec["sql"], dialect=dialect, schema=spec.get("schema"))
    got_columns = {
        name: {(u.table, u.column, u.kind) for u in ups} for name, ups in lineage.columns.items()
    }
    want_columns = {name: _edges(ups or []) for name, ups in expected["columns"].items()}
    assert list(lineage.columns) == list(expected["columns"]), "output columns and order"
    assert got_columns == want_columns
    for ups in lineage.columns.values():
        keys = [(u.table_parts, u.column) for u in ups]
        assert len(keys) == len(set(keys)), "one direct edge per (table, column)"
        assert all(u.kind.is_direct for u in ups)
    assert all(not u.kind.is_direct for u in lineage.indirect)
    got_indirect = [(u.table, u.column, u.kind) for u in lineage.indirect]
    assert len(got_indirect) == len(set(got_indirect)), "one edge per (table, column, kind)"
    scoped = {
        (u.table, u.column, u.kind.value, tuple(sorted(u.columns)) if u.columns else None)
        for u in lineage.indirect
    }
    assert scoped == _indirect(expected.get("indirect") or [])
    want_unresolved = expected.get("unresolved") or {}
    assert set(lineage.unresolved) == set(want_unresolved)
    for name, prefix in want_unresolved.items():
        assert lineage.unresolved[name].startswith(prefix), lineage.unresolved[name]
    for name, columns in (expected.get("inferred") or {}).items():
        parts = tuple(name.split("."))
        assert set(lineage.inferred_schema.get(parts, {})) == set(columns)
    if "notes" in expected:
        notes = expected["notes"] or []
        assert len(lineage.notes) == len(notes), lineage.notes
        for prefix in notes:
            assert any(note.startswith(prefix) for note in lineage.notes), (prefix, lineage.notes)


def test_parse_error_is_one_line_sql_error() -> None:
    with pytest.raises(SqlError) as caught:
        column_lineage("select (a from t where", dialect="duckdb")
    message = str(caught.value)
    assert message.startswith("SQL does not parse")
    assert "\n" not in message


def test_unknown_column_is_unresolved_not_raised() -> None:
    lineage = column_lineage(
        "select id, missing from orders", dialect="duckdb", schema={"orders": {"id": "int"}}
    )
    assert list(lineage.columns) == ["id", "missing"]
    assert lineage.columns["missing"] == []
    assert lineage.unresolved["missing"].startswith("unknown_column")
    assert "missing" in lineage.unresolved["missing"]
    assert "orders" in lineage.unresolved["missing"]
    assert "id" not in lineage.unresolved


def test_nested_schema_and_expression_input() -> None:
    import sqlglot

    tree = sqlglot.parse_one("select o.amount from main.orders o", dialect="duckdb")
    before = tree.sql()
    lineage = column_lineage(
        tree, dialect="duckdb", schema={"shop": {"main": {"orders": {"amount": "double"}}}}
    )
    assert tree.sql() == before, "the caller's tree is not modified"
    (upstream,) = lineage.columns["amount"]
    assert upstream.table_parts == ("shop", "main", "orders")
    assert upstream.kind == "identity"
    assert lineage.output_types == {"amount": "double"}
    assert lineage.inferred_schema == {}


def test_expressions_are_rendered_in_the_dialect() -> None:
    lineage = column_lineage(
        "select cast(amount as int) as a from orders",
        dialect="duckdb",
        schema={"orders": {"amount": "double"}},
    )
    assert lineage.columns["a"][0].expression == "CAST(amount AS INT)", "as written"
    assert lineage.output_types["a"] == "INT"


def test_table_without_columns_is_unknown_not_empty() -> None:
    lineage = column_lineage("select a from orders", dialect="duckdb", schema={"orders": {}})
    assert [(u.table, u.column, u.kind) for u in lineage.columns["a"]] == [
        ("orders", "a", "identity")
    ]
    assert lineage.unresolved == {}
    assert lineage.inferred_schema == {("orders",): {"a": ""}}


def test_unparseable_catalog_types_do_not_stop_resolution() -> None:
    schema = {"t": {"s": "USER-DEFINED", "x": "weird type(("}}
    lineage = column_lineage("select t.* from t", dialect="bigquery", schema=schema)
    assert list(lineage.columns) == ["s", "x"]
    assert lineage.unresolved == {}
    assert lineage.output_types == {"s": "USER-DEFINED", "x": "weird type(("}


def test_tables_over_ctes_reads_the_table_instead_of_the_inlined_cte() -> None:
    sql = (
        "with __dbt__cte__int_x as (select id, amount * 2 as doubled from raw), "
        "final as (select id, doubled from __dbt__cte__int_x) select * from final"
    )
    schema = {
        "raw": {"id": "int", "amount": "int"},
        "__dbt__cte__int_x": {"id": "int", "doubled": "int"},
    }
    through = column_lineage(sql, dialect="duckdb", schema=schema)
    assert [(u.table, u.column, u.kind) for u in through.columns["doubled"]] == [
        ("raw", "amount", "transform")
    ]
    over = column_lineage(
        sql, dialect="duckdb", schema=schema, tables_over_ctes=["__dbt__cte__int_x"]
    )
    assert [(u.table, u.column, u.kind) for u in over.columns["doubled"]] == [
        ("__dbt__cte__int_x", "doubled", "identity")
    ]


def test_deep_expressions_resolve_without_hitting_the_recursion_limit() -> None:
    columns = [f"c{i}" for i in range(164)]
    schema = {"wide": dict.fromkeys(columns, "varchar")}
    hashed = " || '|' || ".join(f"coalesce(cast({c} as varchar), '')" for c in columns)
    cases = " ".join(f"when c0 = '{i}' then c{i % 164}" for i in range(500))
    branches = " union all ".join(f"select c{i} as v from wide" for i in range(30))
    sql = (
        f"with u as ({branches}) "
        f"select md5({hashed}) as row_hash, case {cases} end as picked, "
        "(select max(v) from u) as top from wide"
    )
    lineage = column_lineage(sql, dialect="postgres", schema=schema)
    assert lineage.unresolved == {}
    assert {u.column for u in lineage.columns["row_hash"]} == set(columns)
    assert {u.column for u in lineage.columns["picked"]} == set(columns)
    assert {u.column for u in lineage.columns["top"]} == {f"c{i}" for i in range(30)}


def test_a_long_chain_of_terms_is_named_not_printed() -> None:
    terms = " + ".join(["amount"] * 3000)
    lineage = column_lineage(
        f"select {terms} as total from orders",
        dialect="duckdb",
        schema={"orders": {"amount": "int"}},
    )
    (upstream,) = lineage.columns["total"]
    assert upstream.column == "amount" and upstream.kind == "transform"
    assert len(upstream.expression) <= 2000


def test_wide_union_resolves_every_column_of_every_branch() -> None:
    columns = [f"c{i}" for i in range(300)]
    schema = {f"t{b}": dict.fromkeys(columns, "int") for b in range(8)}
    select = ", ".join(columns)
    sql = " union all ".join(f"select {select} from t{b}" for b in range(8))
    lineage = column_lineage(sql, dialect="duckdb", schema=schema)
    assert list(lineage.columns) == columns
    assert all(len(ups) == 8 for ups in lineage.columns.values())


@pytest.mark.parametrize("operator", ["union all", "union", "intersect", "except"])
def test_a_long_chain_of_set_operations_resolves(operator: str) -> None:
    """A chain of set operations is a tree as deep as it is long (found by the fuzzer: 400
    branches raised RecursionError)."""
    sql = f" {operator} ".join(f"select c{i} as c from t{i}" for i in range(1500))
    lineage = column_lineage(sql, dialect="duckdb")
    branches = 1 if operator == "except" else 1500
    assert len(lineage.columns["c"]) == branches
    assert lineage.unresolved == {}


def test_sqlglot_warnings_are_not_printed() -> None:
    """sqlglot logs a warning for a scope it cannot traverse (found by the fuzzer); the
    reason is reported, nothing reaches the terminal. A fresh process: pytest's own log
    capture would hide the printing."""
    code = (
        "from dbt_lineage.sql.column_lineage import column_lineage\n"
        "lineage = column_lineage('0.amount except distinct select 2', "
        "dialect='bigquery')\n"
        "print(lineage.unresolved['*'])\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.startswith("unsupported_sql: cannot read its scopes")
    assert done.stderr == ""


def test_several_statements_are_said_not_silently_dropped() -> None:
    lineage = column_lineage("select 1 as a; select 2 as b", dialect="duckdb")
    assert list(lineage.columns) == ["b"]
    assert lineage.notes and "2 statements" in lineage.notes[0]


def test_unknown_dialect_is_a_sql_error() -> None:
    with pytest.raises(SqlError, match="unknown SQL dialect 'nosuch'"):
        column_lineage("select 1", dialect="nosuch")


def test_messages_are_one_line_without_terminal_escapes() -> None:
    with pytest.raises(SqlError) as caught:
        column_lineage("select (a from t where\n b", dialect="duckdb")
    assert "\x1b" not in caught.value.message and "\n" not in caught.value.message
    lineage = column_lineage(
        "select x /* a\ncomment */ from t", dialect="duckdb", schema={"t": {"y": "int"}}
    )
    assert all(
        "\n" not in reason and "\x1b" not in reason for reason in lineage.unresolved.values()
    )


def test_a_stale_list_infers_what_it_lacks_and_still_expands_stars() -> None:
    schema = {"events": {"id": "int"}}
    strict = column_lineage("select id, kind from events", dialect="duckdb", schema=schema)
    assert strict.unresolved["kind"].startswith("unknown_column")
    lenient = column_lineage(
        "select id, kind from events", dialect="duckdb", schema=schema, lenient=["events"]
    )
    assert lenient.unresolved == {}
    assert lenient.inferred_schema == {("events",): {"kind": ""}}
    star = column_lineage(
        "select * from events", dialect="duckdb", schema=schema, lenient=["events"]
    )
    assert list(star.columns) == ["id"]
    partial = column_lineage(
        "select * from events", dialect="duckdb", schema=schema, partial=["events"]
    )
    assert partial.unresolved["*"].startswith("star_unknown_columns")


def test_unnamed_expressions_are_reported_where_the_dialect_naming_is_unknown() -> None:
    lineage = column_lineage(
        "select id, count(*) from orders group by id",
        dialect="duckdb",
        schema={"orders": {"id": "int"}},
    )
    assert list(lineage.columns) == ["id", "_col_1"]
    assert lineage.unnamed == ("_col_1",)


def test_star_sources_name_the_tables_a_top_level_star_passes_through() -> None:
    lineage = column_lineage(
        "with s as (select * from raw.events where kind = 'x') select *, 1 as one from s",
        dialect="duckdb",
    )
    assert lineage.star_sources == [("raw", "events")]
    assert lineage.unresolved["*"].startswith("star_unknown_columns")
