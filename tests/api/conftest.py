"""Fixtures shared by the API's tests."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import dbt_lineage

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A synthetic project of 30 models with its catalog and its lineage built."""
    sys.path.insert(0, str(REPO / "benchmarks"))
    from synth_dbt import generate_project

    directory = tmp_path_factory.mktemp("synthetic")
    generate_project(30, directory, seed=1, with_catalog=True)
    dbt_lineage.build(directory, jobs=1)
    return directory


def feeding_column(graph: dbt_lineage.LineageGraph) -> str:
    """A model column that feeds another, as users type it."""
    edge = next(
        edge
        for edge in graph.edges
        if isinstance(edge.source, dbt_lineage.ColumnRef)
        and edge.source.node_id.startswith("model.")
    )
    return f"{edge.source.node_id}.{edge.source.column}"
