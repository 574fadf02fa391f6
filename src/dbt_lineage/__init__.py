"""dbt-lineage: column-level lineage, pre-merge impact and run provenance for dbt.

The public Python API (see docs/python-api.md): ``load`` or ``build`` a project's lineage,
then ask the ``Lineage`` they return (``upstream``, ``downstream``, ``impact``,
``coverage``, ``diff``, ``to_networkx``); ``column_lineage`` resolves one query alone.
Every name in ``__all__`` is public; anything else (every submodule) may change without
notice. Names are imported when first used, so ``import dbt_lineage`` stays cheap: commands
that never parse SQL do not pay for importing sqlglot.
"""

from __future__ import annotations

import importlib
import typing as t

from dbt_lineage._version import __version__

if t.TYPE_CHECKING:
    from dbt_lineage.api.build import build
    from dbt_lineage.api.lineage import Lineage
    from dbt_lineage.api.load import load
    from dbt_lineage.api.results import CoverageResult, DiffResult, LineageResult
    from dbt_lineage.errors import ArtifactError, DbtLineageError, SelectionError
    from dbt_lineage.graph.model import (
        ColumnNode,
        ExposureNode,
        GraphMetadata,
        LineageEdge,
        LineageGraph,
        LineageNode,
        RelationNode,
    )
    from dbt_lineage.queries.coverage import GroupCoverage, Threshold
    from dbt_lineage.queries.doc_inheritance import ColumnDescription
    from dbt_lineage.queries.impact import ReachedColumn, ReachedExposure, ReachedRelation
    from dbt_lineage.queries.lineage_breaks import LineageBreak
    from dbt_lineage.sql.column_lineage import QueryLineage, Upstream, column_lineage
    from dbt_lineage.types import ColumnRef

__all__ = [
    # load or build a project's lineage, and ask it
    "load",
    "build",
    "Lineage",
    # what its questions return
    "LineageResult",
    "ReachedColumn",
    "ReachedRelation",
    "ReachedExposure",
    "ColumnDescription",
    "CoverageResult",
    "GroupCoverage",
    "Threshold",
    "LineageBreak",
    "DiffResult",
    # the graph model
    "ColumnRef",
    "LineageGraph",
    "LineageNode",
    "RelationNode",
    "ExposureNode",
    "ColumnNode",
    "LineageEdge",
    "GraphMetadata",
    # errors
    "DbtLineageError",
    "ArtifactError",
    "SelectionError",
    # one query alone
    "QueryLineage",
    "Upstream",
    "column_lineage",
    "__version__",
]

_MODULES = {
    "dbt_lineage.api.load": ("load",),
    "dbt_lineage.api.build": ("build",),
    "dbt_lineage.api.lineage": ("Lineage",),
    "dbt_lineage.api.results": ("LineageResult", "CoverageResult", "DiffResult"),
    "dbt_lineage.queries.impact": ("ReachedColumn", "ReachedRelation", "ReachedExposure"),
    "dbt_lineage.queries.doc_inheritance": ("ColumnDescription",),
    "dbt_lineage.queries.coverage": ("GroupCoverage", "Threshold"),
    "dbt_lineage.queries.lineage_breaks": ("LineageBreak",),
    "dbt_lineage.types": ("ColumnRef",),
    "dbt_lineage.graph.model": (
        "LineageGraph",
        "LineageNode",
        "RelationNode",
        "ExposureNode",
        "ColumnNode",
        "LineageEdge",
        "GraphMetadata",
    ),
    "dbt_lineage.errors": ("DbtLineageError", "ArtifactError", "SelectionError"),
    "dbt_lineage.sql.column_lineage": ("QueryLineage", "Upstream", "column_lineage"),
}
_WHERE = {name: module for module, names in _MODULES.items() for name in names}
"""Each public name (but ``__version__``) -> the module that defines it."""


def __getattr__(name: str) -> t.Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'dbt_lineage' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)


def __dir__() -> list[str]:
    return sorted(__all__)
