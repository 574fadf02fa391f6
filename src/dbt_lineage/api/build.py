"""``dbt_lineage.build``: what ``dbt-lineage build`` does, returning the lineage."""

from __future__ import annotations

import typing as t
from pathlib import Path

from dbt_lineage.api.build_project import build_project
from dbt_lineage.api.lineage import Lineage
from dbt_lineage.api.load import load


def build(
    project_dir: str | Path,
    *,
    target_path: str | Path | None = None,
    catalog: bool = True,
    jobs: int | None = None,
    select: str | t.Sequence[str] | None = None,
) -> Lineage:
    """Resolve the column lineage of the dbt project at ``project_dir`` from the artifacts
    dbt wrote (``dbt compile``, ``dbt docs generate``) and write ``lineage.json`` and its
    query index, exactly as ``dbt-lineage build`` does, then return it.

    A build whose inputs have not changed since the last one keeps its lineage.json (and
    returns it); each model resolved before is taken from the cache.

    Args:
        project_dir: the dbt project directory.
        target_path: where dbt wrote its artifacts (default ``<project_dir>/target``; a
            relative path is taken relative to ``project_dir``, as dbt does).
        catalog: read catalog.json when it is there (False: columns from the manifest
            and the SQL alone).
        jobs: processes to resolve with (None: one per core; 1: in this process).
        select: build only these nodes (and what they read) into the existing
            lineage.json: names as dbt writes them, one string or several.

    Raises:
        DbtLineageError: no manifest.json (run ``dbt compile``), an artifact of an
            unsupported version, or a name in ``select`` that names no node.
    """
    names = (select,) if isinstance(select, str) else tuple(select or ())
    outcome = build_project(project_dir, target_path, select=names, jobs=jobs, catalog=catalog)
    if outcome.graph is None:  # kept: the last build's lineage.json, from its index
        return load(outcome.path, project_dir=project_dir)
    return Lineage(
        outcome.graph,
        path=outcome.path,
        project_dir=Path(project_dir),
        target_dir=outcome.path.parent,
        from_index=False,
    )
