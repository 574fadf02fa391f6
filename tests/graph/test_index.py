"""The query index beside lineage.json: the same answers as lineage.json, and never stale."""

from __future__ import annotations

import os
import shutil
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner
from tests.queries.shop_graph import shop_graph

from dbt_lineage.api.build_lineage import build_lineage
from dbt_lineage.cli import main
from dbt_lineage.cli.impact import render
from dbt_lineage.graph.index_file import index_file
from dbt_lineage.graph.indexed_graph import indexed_graph
from dbt_lineage.graph.io import load_graph
from dbt_lineage.graph.model import LineageGraph
from dbt_lineage.graph.save import save_graph
from dbt_lineage.graph.save_index import save_index
from dbt_lineage.queries.downstream import downstream
from dbt_lineage.queries.impact import impact
from dbt_lineage.queries.upstream import upstream
from dbt_lineage.types import ColumnRef


def _saved(graph: LineageGraph, directory: Path) -> Path:
    path = directory / "lineage.json"
    save_graph(graph, path)
    assert save_index(graph, path) == directory / "lineage.index.sqlite"
    return path


def _answers(graph: LineageGraph, columns: list[ColumnRef], nodes: list[str]) -> list[str]:
    """Every query the index serves, rendered as the CLI renders it (with descriptions)."""
    answers = []
    for ref in columns:
        for indirect in (False, True):
            for report in (
                impact(graph, ref, include_indirect=indirect),
                upstream(graph, ref, include_indirect=indirect),
                downstream(graph, ref, include_indirect=indirect, depth=2),
            ):
                answers.append(render(report, "json", graph))
    for node_id in nodes:
        for indirect in (False, True):
            report = impact(graph, node_id, include_indirect=indirect, depth=None)
            answers.append(render(report, "text", graph))
    return answers


def _same_answers(path: Path) -> int:
    """Assert that lineage.json and its index answer alike; the number of answers compared."""
    loaded = load_graph(path)
    indexed = indexed_graph(path)
    assert indexed is not None, "the index is fresh"
    columns = [column.key for column in loaded.column_nodes()]
    nodes = list(loaded.nodes)
    assert list(indexed.nodes) == nodes
    expected = _answers(loaded, columns, nodes)
    assert _answers(indexed, columns, nodes) == expected
    return len(expected)


def test_the_shop_graph_answers_alike(tmp_path: Path) -> None:
    assert _same_answers(_saved(shop_graph(), tmp_path)) > 50


def test_the_snowflake_fixture_answers_alike(
    snowflake_compiled_project: Path, tmp_path: Path
) -> None:
    project = tmp_path / "project"
    shutil.copytree(snowflake_compiled_project, project)
    built = build_lineage(project, output=tmp_path / "lineage.json", jobs=1)
    assert (tmp_path / "lineage.index.sqlite").is_file()
    assert built.graph.edges
    assert _same_answers(built.path) > 100


@pytest.mark.slow
def test_the_template_answers_alike_from_the_command_line(template_project: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(main.cli, ["build", "--project-dir", str(template_project)])
    assert result.exit_code == 0, result.output
    target = template_project / "target"
    assert (target / "lineage.index.sqlite").is_file()
    assert _same_answers(target / "lineage.json") > 100
    for args in (
        ["impact", "stg_payments.amount"],
        ["impact", "stg_payments", "--include-indirect", "--format", "json"],
        ["upstream", "customers.lifetime_value"],
        ["downstream", "stg_customers.customer_id", "--format", "json"],
    ):
        outputs = [
            runner.invoke(main.cli, [*args, "--project-dir", str(template_project), *more])
            for more in ([], ["--no-index"])
        ]
        assert outputs[0].exit_code == 0, outputs[0].output
        assert outputs[0].stdout == outputs[1].stdout


def test_a_rewritten_lineage_json_makes_the_index_stale(tmp_path: Path) -> None:
    path = _saved(shop_graph(), tmp_path)
    assert indexed_graph(path) is not None
    save_graph(shop_graph(), path)
    status = path.stat()
    os.utime(path, ns=(status.st_atime_ns, status.st_mtime_ns + 1_000_000))
    assert indexed_graph(path) is None, "another lineage.json: the index is not read"
    save_index(load_graph(path), path)
    assert indexed_graph(path) is not None


def test_an_index_of_another_version_or_broken_is_not_read(tmp_path: Path) -> None:
    path = _saved(shop_graph(), tmp_path)
    index = index_file(path).path
    with sqlite3.connect(index) as connection:
        connection.execute("UPDATE meta SET value = '0' WHERE key = 'version'")
    connection.close()
    assert indexed_graph(path) is None
    index.write_bytes(b"not a database")
    assert indexed_graph(path) is None
    index.unlink()
    assert indexed_graph(path) is None


def test_a_stale_index_falls_back_to_lineage_json(tmp_path: Path) -> None:
    path = _saved(shop_graph(), tmp_path)
    index = index_file(path).path
    with sqlite3.connect(index) as connection:
        connection.execute("DELETE FROM edges")
        connection.execute("UPDATE meta SET value = '[]' WHERE key = 'identity'")
    connection.close()
    result = CliRunner().invoke(
        main.cli, ["impact", "stg_orders.amount_usd", "--lineage", str(path)]
    )
    assert result.exit_code == 0, result.output
    assert "5 columns" in result.stdout.splitlines()[0]
