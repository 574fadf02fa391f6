"""Synthetic dbt projects for benchmarks: a layered DAG of models written as dbt artifacts.

The generator writes ``target/manifest.json`` (and optionally ``target/catalog.json``) the way
dbt 1.11 on DuckDB does, with compiled SQL that DuckDB really runs, so the benchmarks measure
lineage over the shapes real projects have: CTE chains, joins, aggregates, windows and
``SELECT *``.
"""

from __future__ import annotations

from .project import ProjectSummary, generate_project
from .shapes import generate_shapes_project

__all__ = ["ProjectSummary", "generate_project", "generate_shapes_project"]
