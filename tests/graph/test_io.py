"""lineage.json round-trips: what is written is what is read back."""

from __future__ import annotations

import json
import typing as t
from pathlib import Path

import pytest

from dbt_lineage._version import __version__
from dbt_lineage.errors import ArtifactError
from dbt_lineage.graph.decode import decode
from dbt_lineage.graph.document import DOCUMENT
from dbt_lineage.graph.io import load_graph
from dbt_lineage.graph.model import (
    ColumnNode,
    Diagnostic,
    EdgeType,
    ExposureNode,
    GraphMetadata,
    LineageEdge,
    LineageGraph,
    NodeType,
    RelationNode,
)
from dbt_lineage.graph.save import save_graph
from dbt_lineage.types import ColumnRef, EdgeKind, Layer

STG, MART, DASH = "model.shop.stg_orders", "model.shop.orders", "exposure.shop.dash"


def _column(node_id: str, name: str, **values: object) -> ColumnNode:
    return ColumnNode(node_id=node_id, column=name, type=NodeType.COLUMN, name=name, **values)


def _graph() -> LineageGraph:
    nodes = {
        STG: RelationNode(
            node_id=STG,
            type=NodeType.MODEL,
            name="stg_orders",
            materialized="view",
            columns_from="sql",
        ),
        MART: RelationNode(node_id=MART, type=NodeType.MODEL, name="orders", meta={"owner": "x"}),
        DASH: ExposureNode(
            node_id=DASH,
            type=NodeType.EXPOSURE,
            name="Dash",
            exposure_type="dashboard",
            owner_name="Finance",
            owner_email="fin@example.com",
            url="https://bi/x",
        ),
    }
    columns = {
        STG: {
            "amount": _column(STG, "amount", meta={"classification": "pii"}, tags=("finance",)),
            "ordered_at": _column(STG, "ordered_at", inferred=True),
        },
        MART: {
            "total": _column(MART, "total", data_type="DOUBLE"),
            "rank": _column(MART, "rank", data_type="BIGINT"),
            "odd": _column(MART, "odd", resolved=False, reason="unknown_column: x"),
        },
        DASH: {},
    }
    edges = [
        LineageEdge(
            ColumnRef(STG, "amount"),
            ColumnRef(MART, "total"),
            EdgeType.DIRECT,
            EdgeKind.AGGREGATE,
            "SUM(amount)",
        ),
        LineageEdge(ColumnRef(STG, "amount"), MART, EdgeType.INDIRECT, EdgeKind.FILTER),
        LineageEdge(
            ColumnRef(STG, "ordered_at"),
            ColumnRef(MART, "rank"),
            EdgeType.INDIRECT,
            EdgeKind.WINDOW,
            "ROW_NUMBER() OVER (ORDER BY ordered_at)",
        ),
        LineageEdge(STG, MART, EdgeType.DEPENDS),
        LineageEdge(MART, DASH, EdgeType.DEPENDS),
    ]
    diagnostics = [
        Diagnostic(MART, "unknown_column", "m", path="models/orders.sql", columns=("odd",))
    ]
    return LineageGraph(
        metadata=GraphMetadata(project_name="shop", adapter_type="duckdb"),
        nodes=nodes,
        columns=columns,
        edges=edges,
        diagnostics=diagnostics,
    )


def test_round_trip_keeps_everything(tmp_path: Path) -> None:
    graph = _graph()
    loaded = load_graph(save_graph(graph, tmp_path / "lineage.json"))
    assert loaded.nodes == graph.nodes
    assert loaded.columns == graph.columns
    assert sorted(map(repr, loaded.edges)) == sorted(map(repr, graph.edges))
    assert loaded.diagnostics == graph.diagnostics
    assert loaded.metadata == graph.metadata
    assert all(edge.layer is Layer.SCHEMA for edge in loaded.edges)
    assert loaded.nodes[DASH].exposure_type == "dashboard"
    assert loaded.columns[STG]["ordered_at"].inferred


def test_json_nests_by_typed_keys(tmp_path: Path) -> None:
    document = json.loads(save_graph(_graph(), tmp_path / "lineage.json").read_text())
    direct = document["edges"]["direct"][MART]["total"]
    assert direct == [
        {
            "node": STG,
            "column": "amount",
            "layer": "schema",
            "kind": "aggregate",
            "expression": "SUM(amount)",
        }
    ]
    indirect = document["edges"]["indirect"][MART]
    assert indirect["rows"] == [
        {"node": STG, "column": "amount", "layer": "schema", "kind": "filter"}
    ]
    assert [edge["kind"] for edge in indirect["columns"]["rank"]] == ["window"]
    assert document["nodes"][STG]["columns"]["amount"]["meta"] == {"classification": "pii"}
    assert document["nodes"][STG]["columns"]["ordered_at"]["inferred"] is True
    assert document["nodes"][DASH]["exposure_type"] == "dashboard"
    assert document["schema_version"] == 2


def test_column_scoped_edges_change_values_row_set_ones_do_not() -> None:
    scoped, rows = _graph().edges[2], _graph().edges[1]
    assert scoped.column_scoped and scoped.changes_values
    assert not rows.column_scoped and not rows.changes_values


def test_traversal_follows_edges(tmp_path: Path) -> None:
    graph = load_graph(save_graph(_graph(), tmp_path / "lineage.json"))
    digraph = graph.digraph()
    assert ColumnRef(MART, "total") in digraph.successors(ColumnRef(STG, "amount"))


def test_other_layout_version_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "lineage.json"
    path.write_text(json.dumps({"schema_version": 99}))
    with pytest.raises(ArtifactError, match="layout version 99"):
        load_graph(path)


@pytest.mark.parametrize(
    ("text", "message"),
    [("{not json", "not valid JSON"), ('{"schema_version": 2, "nodes": 5}', "malformed at")],
)
def test_broken_file_is_one_line_error(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "lineage.json"
    path.write_text(text)
    with pytest.raises(ArtifactError, match=message) as caught:
        load_graph(path)
    assert "\n" not in caught.value.one_line()


def _ours(tmp_path: Path) -> Path:
    graph = _graph()
    graph.metadata = GraphMetadata(dbt_lineage_version=__version__, project_name="shop")
    return save_graph(graph, tmp_path / "lineage.json")


def test_own_file_is_read_unchecked_into_the_same_graph(tmp_path: Path) -> None:
    path = _ours(tmp_path)
    loaded = load_graph(path)
    checked = decode(DOCUMENT.validate_json(path.read_bytes()))
    assert loaded.nodes == checked.nodes and list(loaded.nodes) == list(checked.nodes)
    assert loaded.columns == checked.columns
    assert list(map(repr, loaded.edges)) == list(map(repr, checked.edges))
    assert loaded.metadata == checked.metadata and loaded.diagnostics == checked.diagnostics
    assert loaded.nodes[DASH].type is NodeType.EXPOSURE
    assert loaded.nodes[STG].layer is Layer.SCHEMA
    assert {edge.kind for edge in loaded.edges} == {
        EdgeKind.AGGREGATE,
        EdgeKind.FILTER,
        EdgeKind.WINDOW,
        None,
    }


@pytest.mark.parametrize(
    ("change", "message"),
    [
        # our own version: read unchecked, a broken entry still makes a one-line error
        (lambda doc: doc["nodes"][STG].pop("name"), "malformed .KeyError: 'name'"),
        (lambda doc: doc["nodes"][STG].update(type="table"), "malformed .KeyError: 'table'"),
        # another version: checked entry by entry
        (
            lambda doc: (
                doc["metadata"].update(dbt_lineage_version="0.0.1")
                or doc["nodes"][STG].update(type="table")
            ),
            "malformed at nodes.model.shop.stg_orders.type",
        ),
    ],
)
def test_broken_entry_is_one_line_error(
    tmp_path: Path, change: t.Callable[[dict[str, t.Any]], object], message: str
) -> None:
    path = _ours(tmp_path)
    document = json.loads(path.read_text())
    change(document)
    path.write_text(json.dumps(document))
    with pytest.raises(ArtifactError, match=message) as caught:
        load_graph(path)
    assert "\n" not in caught.value.one_line()
