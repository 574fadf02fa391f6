"""Safety at scale: escaping round trips, statement size limits, rendered SQL of the
adapters we cannot connect to here, and failure handling on PostgreSQL."""

from __future__ import annotations

import json
import uuid

import pytest

from .conftest import PG_DSN, REPO, DbtProject, copy_project, drop_pg_schemas, postgres_available

pytestmark = pytest.mark.slow

TRICKY = "it's \"q\" $$ $dbt_lineage$ a\\b \\' \\\\ \nline2\r\n\tü 日本 😀 '';--"


def test_tricky_text_round_trips_exactly(shop):
    """Quotes, $$, newlines, backslashes and non-ASCII in node names, messages and vars."""
    out = shop.operation_json("record_fake_run", {"n": 3, "text": TRICKY}, env={})
    inv = out["invocation_id"]
    assert out["text"] == TRICKY  # what dbt handed the macro is what we meant to send

    runs = {r["unique_id"]: r for r in shop.rows("lineage_node_runs", f"invocation_id = '{inv}'")}
    assert set(runs) == {f"model.fake.{TRICKY}node_{i}" for i in range(3)}
    for i in range(3):
        run = runs[f"model.fake.{TRICKY}node_{i}"]
        assert run["node_name"] == f"{TRICKY}node_{i}"
        assert run["message"] == f"OK {TRICKY}"
        assert run["relation_name"] == f'"db"."schema"."{TRICKY}node_{i}"'
    edges = shop.rows("lineage_run_inputs", f"invocation_id = '{inv}'")
    assert {(e["unique_id"], e["input_unique_id"]) for e in edges} >= {
        (f"model.fake.{TRICKY}node_1", f"model.fake.{TRICKY}node_0")
    }

    # vars: the invocation's args column holds them as JSON, exactly
    shop.dbt(
        "seed",
        "--select",
        "raw_orders",
        "--vars",
        json.dumps({"tricky": TRICKY}, ensure_ascii=False),
    )
    inv2 = shop.run_results()["metadata"]["invocation_id"]
    (row,) = shop.rows("lineage_invocations", f"invocation_id = '{inv2}'")
    args = row["args"] if isinstance(row["args"], dict) else json.loads(row["args"])
    assert args["vars"]["tricky"] == TRICKY


def test_ten_thousand_results_are_split_under_the_size_limit(duckdb_shop):
    report = duckdb_shop.operation_json("check_batching", {"n": 10000, "text": TRICKY})
    for dialect, found in report.items():
        assert sum(found["rows"]) == 10000, dialect
        assert len(found["sizes"]) > 1, dialect  # 10,000 rows do not fit in one statement
        assert max(found["sizes"]) < found["limit"], dialect  # as sent, guard included
    assert report["bigquery"]["limit"] < report["duckdb"]["limit"] <= 1_000_000


def test_ten_thousand_results_are_written(duckdb_shop):
    out = duckdb_shop.operation_json("record_fake_run", {"n": 10000, "text": "n"})
    inv = out["invocation_id"]
    assert duckdb_shop.query(
        "select count(*), count(distinct unique_id) from shop_lineage.lineage_node_runs "
        f"where invocation_id = '{inv}'"
    ) == [(10000, 10000)]
    assert duckdb_shop.query(
        f"select count(*) from shop_lineage.lineage_run_inputs where invocation_id = '{inv}'"
    ) == [(19999,)]


def test_rendered_sql_of_each_adapter(duckdb_shop):
    sql = duckdb_shop.operation_json("render_dialect_sql", {"text": TRICKY})

    sf = sql["snowflake"]
    assert "adapter_response variant" in sf["create_table"]
    assert "execute_started_at timestamp_ntz" in sf["create_table"]
    # rows go in as one JSON literal, unnested by flatten; JSON nulls become SQL nulls
    assert "\nfrom table(flatten(input => parse_json('[{" in sf["insert"]
    assert 'parse_json(strip_null_value(r.value:"adapter_response")::varchar)' in sf["insert"]
    assert (
        'cast(strip_null_value(r.value:"rows_affected")::varchar as number(38,0))' in sf["insert"]
    )
    assert sf["escaped"] == "'" + TRICKY.replace("\\", "\\\\").replace("'", "''") + "'"
    assert sf["guarded_insert"].startswith("execute immediate 'begin\n")
    assert "when other then" in sf["guarded_insert"] and "return sqlerrm" in sf["guarded_insert"]
    assert sf["resolve"].startswith("update analytics.dbt_lineage.lineage_run_inputs as target")

    bq = sql["bigquery"]
    assert (
        "adapter_response json" in bq["create_table"]
        and "rows_affected int64" in bq["create_table"]
    )
    assert "\nfrom unnest(json_query_array(parse_json('[{" in bq["insert"]
    assert "safe.parse_json(json_value(r, '$.adapter_response'))" in bq["insert"]
    assert "cast(json_value(r, '$.execute_started_at') as timestamp)" in bq["insert"]
    assert "insert into `proj`.`dbt_lineage`.`lineage_node_runs` (" in bq["insert"]
    assert bq["create_schema"] == "create schema if not exists `proj`.`dbt_lineage`"
    assert "\n" not in bq["escaped"]  # BigQuery single-quoted strings hold no raw newline
    assert (
        bq["escaped"]
        == "'"
        + (
            TRICKY.replace("\\", "\\\\")
            .replace("'", "\\'")
            .replace("\n", "\\n")
            .replace("\r", "\\r")
        )
        + "'"
    )
    assert (
        "exception when error then" in bq["guarded_insert"]
        and "@@error.message" in bq["guarded_insert"]
    )
    assert "with recursive start_run" in bq["provenance"] and "provenance as (" in bq["provenance"]

    db = sql["databricks"]
    assert (
        "adapter_response string" in db["create_table"]
        and "execution_time double" in db["create_table"]
    )
    assert (
        db["add_column"] == "alter table dbt_lineage.lineage_node_runs add columns (message string)"
    )
    assert "from (select explode(from_json('[{" in db["insert"]
    assert "'array<map<string,string>>'))" in db["insert"]
    assert db["resolve"].startswith("merge into dbt_lineage.lineage_run_inputs as target")
    assert db["escaped"] == "'" + TRICKY.replace("\\", "\\\\").replace("'", "\\'") + "'"
    assert db["guarded_insert"] == db["insert"]  # no error handler: failures raise (ADR 0002)

    rs = sql["redshift"]
    assert (
        "adapter_response super" in rs["create_table"]
        and "message varchar(65535)" in rs["create_table"]
    )
    assert "\nvalues\n(" in rs["insert"] and "json_parse('{" in rs["insert"]  # 64 KB literals
    assert rs["escaped"] == "'" + TRICKY.replace("\\", "\\\\").replace("'", "''") + "'"
    assert "provenance (depth, unique_id, invocation_id) as (" in rs["provenance"]

    pg = sql["postgres"]
    assert "adapter_response jsonb" in pg["create_table"]
    assert "from jsonb_array_elements(cast('[{" in pg["insert"]
    assert "cast((r ->> 'adapter_response') as jsonb)" in pg["insert"]
    assert pg["escaped"] == "'" + TRICKY.replace("'", "''") + "'"
    # the DO block's dollar tag never occurs in the data it wraps
    assert pg["guarded_insert"].startswith("do $dbt_lineage_0$\n")
    assert pg["create_schema"] == 'create schema if not exists "dbt_lineage"'

    # Spark's parquet tables cannot DELETE: purge rewrites them through a copy (ADR 0003)
    sp = sql.pop("spark")
    assert "create table if not exists dbt_lineage.lineage_node_runs (" in sp["create_table"]
    assert sp["create_table"].endswith(") using parquet")
    assert not any(s.startswith("delete") for s in sp["purge"])
    assert sp["purge"][1].startswith(
        "insert overwrite table dbt_lineage.lineage_run_inputs select * from "
        "dbt_lineage.lineage_run_inputs__keep_"
    )
    assert "using parquet" not in db["create_table"]  # Databricks: Delta, its default
    # archive_history: insert what the archive lacks, then delete what it holds; Spark
    # rewrites the live table instead of deleting (a table at a time, children first)
    assert [s.split(" ")[0] for s in sp["archive"]] == ["insert", "create", "insert", "drop"] * 2
    assert sp["archive"][2].startswith("insert overwrite table dbt_lineage.lineage_node_runs")
    for name, rendered in sql.items():
        insert, delete = rendered["archive"][:2]
        assert insert.startswith("insert into ") and "lineage_archive" in insert.split("\n")[0]
        assert "and not exists (select 1 from " in insert, name
        assert delete.startswith("delete from ") and "lineage_archive" not in delete.split("\n")[0]
        unquoted = delete.replace('"', "").replace("`", "")
        assert unquoted.endswith("lineage_archive.lineage_node_runs)"), name  # rows it holds
    for name, rendered in sql.items():
        assert [s.split(" where ")[0] for s in rendered["purge"]][2].startswith("delete from"), name
        assert rendered["delete"].endswith("where invocation_id = 'inv-1'"), name


@pytest.fixture
def limited_role():
    """A PostgreSQL role that may build its own schema but only read the lineage schema."""
    if not postgres_available():
        pytest.fail(
            "PostgreSQL is not reachable at 127.0.0.1:5432: start it with "
            "`pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start`"
        )
    import psycopg2

    role = f"lineage_ro_{uuid.uuid4().hex[:8]}"
    schema = f"lim_{uuid.uuid4().hex[:8]}"
    con = psycopg2.connect(PG_DSN)
    con.autocommit = True
    with con.cursor() as cur:
        cur.execute(f"create role {role} login")
        cur.execute(f"create schema {schema} authorization {role}")
        cur.execute(f"create schema {schema}_lineage")
        cur.execute(f"grant usage on schema {schema}_lineage to {role}")  # no create
    con.close()
    yield role, schema
    drop_pg_schemas(schema, f"{schema}_lineage")
    con = psycopg2.connect(PG_DSN)
    con.autocommit = True
    with con.cursor() as cur:
        cur.execute(f"drop role if exists {role}")
    con.close()


def test_postgres_role_without_write_privilege(limited_role, tmp_path):
    role, schema = limited_role
    project = DbtProject(
        path=copy_project(REPO / "integration_tests", tmp_path / "shop"),
        target="postgres",
        env={"DBT_LINEAGE_PG_USER": role, "DBT_LINEAGE_PG_SCHEMA": schema},
        schema=schema,
    )
    project.dbt("deps")

    ok = project.dbt("build")  # succeeds: the hook only warns
    assert "dbt_lineage could not record invocation" in ok.stdout
    assert (
        f"{schema}_lineage.lineage_invocations: permission denied for schema {schema}_lineage"
        in ok.stdout
    )
    assert project.query(
        f"select count(*) from information_schema.tables where table_schema = '{schema}_lineage'"
    ) == [(0,)]
    assert project.query(f"select count(*) from {schema}.orders") == [(5,)]  # the run itself worked

    failed = project.dbt("build", "--vars", "{dbt_lineage_fail_on_error: true}", check=False)
    assert failed.returncode != 0
    assert "dbt_lineage could not record invocation" in failed.stdout
    assert "dbt_lineage_fail_on_error is true" in failed.stdout
    assert "permission denied" in failed.stdout


def test_oversized_rows_are_cut_to_the_statement_limit(shop):
    report = shop.operation_json("check_cutting", {"chars": 300000, "limit": 100000})
    for dialect, found in report.items():
        assert found["rows"] == 3, dialect
        assert max(found["sizes"]) <= 100000, dialect  # as sent, guard included
        assert found["marked"] >= 1 and found["json_marked"] >= 1, dialect

    # a real write: the big row is cut, marked and logged, the others untouched
    proc = shop.dbt(
        "run-operation", "record_fake_run", "--args", '{"n": 3, "big": 300000}',
        "--vars",
        "{dbt_lineage_max_statement_bytes: 100000, dbt_lineage_max_message_chars: 1000000}",
    )  # fmt: skip
    (cut,) = [line for line in proc.stdout.splitlines() if "model.fake.node_0: cut " in line]
    assert "message" in cut and "to fit dbt_lineage_max_statement_bytes" in cut, cut
    inv = next(
        line.split("recorded invocation ")[1].split()[0]
        for line in proc.stdout.splitlines()
        if "recorded invocation" in line
    )
    runs = {r["unique_id"]: r for r in shop.rows("lineage_node_runs", f"invocation_id = '{inv}'")}
    big = runs["model.fake.node_0"]
    assert "[cut by dbt_lineage: 300000 characters]" in big["message"]
    assert big["message"].startswith('it\'s $$ \\ "q" 😀 ü\n')
    response = big["adapter_response"]
    response = response if isinstance(response, dict) else json.loads(response)
    assert response["length"] > 300000 and response["dbt_lineage_cut"].startswith('{"')
    assert runs["model.fake.node_1"]["message"] == "OK "


def test_mixed_case_schema_on_postgres(pg_shop):
    """The lineage schema is created quoted, as the tables are: no case folding between."""
    shop = pg_shop
    schema = f"Lineage_{shop.schema}"
    try:
        proc = shop.dbt("seed", "--vars", json.dumps({"dbt_lineage_schema": schema}))
        assert "could not record" not in proc.stdout, proc.stdout
        tables = shop.query(
            "select table_name from information_schema.tables"
            f" where table_schema = '{schema}' order by 1"
        )
        assert tables == [("lineage_invocations",), ("lineage_node_runs",), ("lineage_run_inputs",)]
    finally:
        drop_pg_schemas(schema)


# sqlglot's name for each adapter's SQL
SQLGLOT_DIALECTS = {
    "snowflake": "snowflake", "bigquery": "bigquery", "databricks": "databricks",
    "spark": "spark", "redshift": "redshift", "postgres": "postgres", "duckdb": "duckdb",
}  # fmt: skip
HOSTILE = TRICKY + " $tag$x$tag$ \x00nul"


def _string_literals(tree) -> list[str]:
    from sqlglot import exp

    return [lit.this for lit in tree.find_all(exp.Literal) if lit.is_string]


def test_rendered_sql_parses_in_each_dialect_and_literals_round_trip(duckdb_shop):
    """Every statement the hook renders parses with sqlglot in its adapter's dialect (not
    as an opaque command), and sqlglot's reading of each string literal gives back the
    hostile text: quotes, $$, $tag$, emoji, backslashes, newlines; NUL stripped."""
    import sqlglot
    from sqlglot import exp

    rendered = duckdb_shop.operation_json("render_dialect_sql", {"text": HOSTILE})
    clean = HOSTILE.replace("\x00", "")
    for name, sql in rendered.items():
        dialect = SQLGLOT_DIALECTS[name]
        statements = [
            sql[key]
            for key in (
                "create_schema",
                "create_table",
                "add_column",
                "insert",
                "delete",
                "resolve",
                "provenance",
                "provenance_archive",
            )
        ]
        for statement in statements + sql["purge"] + sql["archive"]:
            tree = sqlglot.parse_one(statement, read=dialect)
            assert not isinstance(tree, exp.Command), (name, statement[:200])

        (literal,) = _string_literals(sqlglot.parse_one("select " + sql["escaped"], read=dialect))
        assert literal == HOSTILE, name

        inserts = [sql["insert"]]
        if name == "snowflake":  # the guard re-quotes the insert inside a scripting block
            guarded = "select " + sql["guarded_insert"].removeprefix("execute immediate ")
            (block,) = _string_literals(sqlglot.parse_one(guarded, read=dialect))
            inserts.append(block.split("begin\n  ", 1)[1].split(";\n  return", 1)[0])
        for insert in inserts:
            texts = _string_literals(sqlglot.parse_one(insert, read=dialect))
            if name == "redshift":  # values style: one literal per value
                assert f"{clean}node_1" in texts and f"OK {clean}" in texts, name
                continue
            (batch,) = [text for text in texts if text.startswith("[{")]
            rows = {row["unique_id"]: row for row in json.loads(batch)}
            assert rows[f"model.fake.{clean}node_1"]["message"] == f"OK {clean}", name
            assert rows[f"model.fake.{clean}node_1"]["node_name"] == f"{clean}node_1", name
