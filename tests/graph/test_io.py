"""lineage.json round-trips: what is written is what is read back."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dbt_lineage.errors import ArtifactError
from dbt_lineage.graph.io import load_graph
from dbt_lineage.graph.model import (
    Diagnostic,
    EdgeType,
    GraphMetadata,
    LineageEdge,
    LineageGraph,
    LineageNode,
    NodeType,
)
from dbt_lineage.graph.save import save_graph
from dbt_lineage.types import ColumnRef, Layer


def _graph() -> LineageGraph:
    stg, mart = "model.shop.stg_orders", "model.shop.orders"
    nodes = {
        stg: LineageNode(node_id=stg, type=NodeType.MODEL, name="stg_orders", materialized="view"),
        mart: LineageNode(node_id=mart, type=NodeType.MODEL, name="orders", meta={"owner": "x"}),
        "exposure.shop.dash": LineageNode(
            node_id="exposure.shop.dash", type=NodeType.EXPOSURE, name="Dash"
        ),
    }
    columns = {
        stg: {
            "amount": LineageNode(
                node_id=stg, column="amount", type=NodeType.COLUMN, name="amount",
                meta={"classification": "pii"}, tags=("finance",),
            )
        },
        mart: {
            "total": LineageNode(
                node_id=mart, column="total", type=NodeType.COLUMN, name="total",
                data_type="DOUBLE",
            ),
            "odd": LineageNode(
                node_id=mart, column="odd", type=NodeType.COLUMN, name="odd", resolved=False,
                reason="unknown_column: x",
            ),
        },
        "exposure.shop.dash": {},
    }
    edges = [
        LineageEdge(
            source=ColumnRef(stg, "amount"), target=ColumnRef(mart, "total"),
            type=EdgeType.DIRECT, kind="aggregate", expression="SUM(amount)",
        ),
        LineageEdge(
            source=ColumnRef(stg, "amount"), target=mart, type=EdgeType.INDIRECT, kind="filter"
        ),
        LineageEdge(source=stg, target=mart, type=EdgeType.DEPENDS),
        LineageEdge(source=mart, target="exposure.shop.dash", type=EdgeType.DEPENDS),
    ]
    diagnostics = [
        Diagnostic(node_id=mart, path="models/orders.sql", reason="unknown_column", message="m",
                   columns=("odd",))
    ]
    return LineageGraph(
        metadata=GraphMetadata(project_name="shop", adapter_type="duckdb"),
        nodes=nodes, columns=columns, edges=edges, diagnostics=diagnostics,
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


def test_json_nests_by_typed_keys(tmp_path: Path) -> None:
    document = json.loads(save_graph(_graph(), tmp_path / "lineage.json").read_text())
    direct = document["edges"]["direct"]["model.shop.orders"]["total"]
    assert direct == [{
        "node": "model.shop.stg_orders", "column": "amount", "layer": "schema",
        "kind": "aggregate", "expression": "SUM(amount)",
    }]
    assert document["nodes"]["model.shop.stg_orders"]["columns"]["amount"]["meta"] == {
        "classification": "pii"
    }
    assert document["schema_version"] == 1


def test_traversal_follows_edges(tmp_path: Path) -> None:
    graph = load_graph(save_graph(_graph(), tmp_path / "lineage.json"))
    digraph = graph.digraph()
    assert ColumnRef("model.shop.orders", "total") in digraph.successors(
        ColumnRef("model.shop.stg_orders", "amount")
    )


def test_other_layout_version_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "lineage.json"
    path.write_text(json.dumps({"schema_version": 99}))
    with pytest.raises(ArtifactError, match="layout version 99"):
        load_graph(path)
