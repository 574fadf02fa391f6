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
