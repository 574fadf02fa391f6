"""``dbt_lineage.load`` and ``dbt_lineage.build`` on a synthetic project (artifacts written
by the benchmarks' generator, lineage built in this process): where lineage is found, the
one error when it is missing or stale, the index and lineage.json giving the same answers,
the public surface, and the networkx graph."""

from __future__ import annotations

import ast
import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import dbt_lineage

from .conftest import feeding_column

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def project(built: Path) -> Path:
    return built


@pytest.fixture(scope="module")
def column(project: Path) -> str:
    """A model column that feeds another, as users type it."""
    return feeding_column(dbt_lineage.load(project).graph)


def test_load_finds_the_lineage_from_a_target_a_project_or_the_file(project: Path) -> None:
    for given in (project / "target", project, project / "target" / "lineage.json"):
        lineage = dbt_lineage.load(given)
        assert lineage.from_index
        assert lineage.path == (project / "target" / "lineage.json").absolute()
        assert lineage.target_dir == (project / "target").absolute()


def test_no_lineage_is_one_error_that_says_how_to_build_it(tmp_path: Path) -> None:
    (tmp_path / "target").mkdir()
    with pytest.raises(dbt_lineage.ArtifactError) as raised:
        dbt_lineage.load(tmp_path / "target")
    message = str(raised.value)
    assert message.startswith(f"no lineage.json at {tmp_path / 'target' / 'lineage.json'}: ")
    assert "dbt-lineage build" in message and "dbt_lineage.build(" in message
    assert "\n" not in message


def test_a_manifest_rewritten_alike_is_current_a_changed_one_is_stale(
    project: Path, tmp_path: Path
) -> None:
    target = tmp_path / "target"
    target.mkdir()
    for name in ("manifest.json", "catalog.json", "lineage.json", "lineage.index.sqlite"):
        (target / name).write_bytes((project / "target" / name).read_bytes())
        os.utime(target / name, ns=_mtime(project / "target" / name))
    later = _mtime(target / "lineage.json")[1] + 10**9
    os.utime(target / "manifest.json", ns=(later, later))  # dbt wrote the same bytes again
    assert dbt_lineage.load(target).from_index
    manifest = json.loads((target / "manifest.json").read_text())
    manifest["metadata"]["invocation_id"] = "another-run"
    (target / "manifest.json").write_text(json.dumps(manifest))
    os.utime(target / "manifest.json", ns=(later, later))
    with pytest.raises(dbt_lineage.ArtifactError) as raised:
        dbt_lineage.load(target)
    assert str(raised.value).startswith("manifest.json changed since lineage.json was built")
    assert "rebuild it with `dbt-lineage build --project-dir" in str(raised.value)


def _mtime(path: Path) -> tuple[int, int]:
    status = path.stat()
    return status.st_atime_ns, status.st_mtime_ns


def test_without_a_current_index_lineage_json_gives_the_same_answers(
    project: Path, column: str, tmp_path: Path
) -> None:
    target = tmp_path / "target"
    target.mkdir()
    for name in ("manifest.json", "catalog.json", "lineage.json"):
        (target / name).write_bytes((project / "target" / name).read_bytes())
    indexed = dbt_lineage.load(project / "target")
    read = dbt_lineage.load(target)
    assert indexed.from_index and not read.from_index
    for query in ("impact", "upstream", "downstream"):
        expected = getattr(indexed, query)(column).to_dict()
        assert getattr(read, query)(column).to_dict() == expected
        assert expected["columns"] or query == "upstream"


def test_a_build_that_reads_no_catalog(project: Path, tmp_path: Path) -> None:
    target = tmp_path / "target"
    target.mkdir()
    for name in ("manifest.json", "catalog.json"):
        (target / name).write_bytes((project / "target" / name).read_bytes())
    lineage = dbt_lineage.build(project, target_path=target, catalog=False, jobs=1)
    assert not lineage.metadata.has_catalog
    assert dbt_lineage.load(target).metadata.has_catalog is False
    assert dbt_lineage.load(project).metadata.has_catalog


def test_a_selected_build_updates_those_nodes_in_the_lineage(project: Path) -> None:
    node_id = sorted(n for n in dbt_lineage.load(project).graph.nodes if n.startswith("model."))[0]
    lineage = dbt_lineage.build(project, select=node_id.split(".")[-1], jobs=1)
    assert node_id in lineage.metadata.selected
    assert lineage.node(node_id).node_id == node_id
    assert len(lineage.graph.nodes) == len(dbt_lineage.build(project, jobs=1).graph.nodes)


def test_a_lineage_loaded_in_one_thread_answers_in_another(project: Path, column: str) -> None:
    import concurrent.futures

    lineage = dbt_lineage.load(project)
    expected = dbt_lineage.load(project).impact(column).to_dict()
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        assert pool.submit(lambda: lineage.impact(column).to_dict()).result() == expected


def test_results_are_frozen_and_typed(project: Path, column: str) -> None:
    result = dbt_lineage.load(project).impact(column)
    assert isinstance(result, dbt_lineage.LineageResult)
    assert all(isinstance(item, dbt_lineage.ReachedColumn) for item in result.columns)
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.depth = 3  # type: ignore[misc]
    report = dbt_lineage.load(project).coverage()
    with pytest.raises(dataclasses.FrozenInstanceError):
        report.by = "owner"  # type: ignore[misc]


def test_a_column_name_given_for_a_node_and_the_reverse(project: Path, column: str) -> None:
    lineage = dbt_lineage.load(project)
    node_id = column.rsplit(".", 1)[0]
    assert lineage.node(node_id).node_id == node_id
    with pytest.raises(dbt_lineage.SelectionError, match="not a node"):
        lineage.node(column)
    with pytest.raises(dbt_lineage.SelectionError, match="not a column: give NODE.COLUMN"):
        lineage.column(node_id)
    assert lineage.column(column.upper().replace(node_id.upper(), node_id)).key.node_id == node_id


def test_to_networkx_holds_every_node_and_edge_with_its_attributes(project: Path) -> None:
    import networkx

    lineage = dbt_lineage.load(project)
    graph = lineage.graph
    nx_graph = lineage.to_networkx()
    assert isinstance(nx_graph, networkx.MultiDiGraph)
    columns = sum(len(by_name) for by_name in graph.columns.values())
    assert nx_graph.number_of_nodes() == len(graph.nodes) + columns
    assert nx_graph.number_of_edges() == len(graph.edges)
    for edge in graph.edges:
        found = list(nx_graph.get_edge_data(edge.source, edge.target).values())
        wanted = {
            "type": edge.type.value,
            "kind": edge.kind.value if edge.kind is not None else None,
            "layer": edge.layer.value,
            "expression": edge.expression,
        }
        assert wanted in found


def test_networkx_descendants_are_the_direct_downstream(project: Path, column: str) -> None:
    import networkx

    lineage = dbt_lineage.load(project)
    nx_graph = lineage.to_networkx()
    edges = nx_graph.edges(keys=True, data=True)
    direct = nx_graph.edge_subgraph((s, t, k) for s, t, k, d in edges if d["type"] == "direct")
    start = lineage.column(column).key
    walked = lineage.downstream(start, kinds=["identity", "transform", "aggregate"])
    assert walked.columns
    assert networkx.descendants(direct, start) == {item.ref for item in walked.columns}


def test_import_is_cheap_and_every_public_name_resolves() -> None:
    code = (
        "import sys, dbt_lineage; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('dbt_lineage', 'sqlglot', 'networkx', 'pydantic', 'click')))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert loaded.strip() == "['dbt_lineage', 'dbt_lineage._version']"
    assert len(set(dbt_lineage.__all__)) == len(dbt_lineage.__all__)
    for name in dbt_lineage.__all__:
        value = getattr(dbt_lineage, name)
        assert name == "__version__" or value.__doc__ or _documented_in_source(value), name
    with pytest.raises(AttributeError):
        dbt_lineage.no_such_name  # noqa: B018
    assert (Path(dbt_lineage.__file__).parent / "py.typed").is_file()


def _documented_in_source(value: object) -> bool:
    """Whether the class or function has a docstring in its source file: mypyc's compiled
    engine (``dbt_lineage.sql``) keeps no docstrings, so they are read from the source."""
    module = sys.modules[value.__module__]
    source = Path(module.__file__).with_name(value.__module__.rsplit(".", 1)[-1] + ".py")
    tree = ast.parse(source.read_text())
    return any(
        isinstance(node, (ast.ClassDef, ast.FunctionDef))
        and node.name == value.__name__
        and ast.get_docstring(node)
        for node in tree.body
    )
