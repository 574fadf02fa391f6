"""Resolve a project's lineage and write lineage.json and its index: the work of
``dbt-lineage build`` (see ``build_project``, which adds keeping an unchanged build), for
the commands that need a fresh lineage.json first (``report``, ``diff``)."""

from __future__ import annotations

import dataclasses
import re
import time
import typing as t
from pathlib import Path

from dbt_lineage.artifacts.manifest import Manifest
from dbt_lineage.artifacts.names import resolve_name
from dbt_lineage.artifacts.project import load_project
from dbt_lineage.errors import DbtLineageError
from dbt_lineage.graph.build import build_graph
from dbt_lineage.graph.io import load_graph
from dbt_lineage.graph.merge import merge
from dbt_lineage.graph.model import LineageGraph
from dbt_lineage.graph.save import save_graph
from dbt_lineage.memory import collections_paused
from dbt_lineage.resolve.cache import CACHE_FILE, LineageCache
from dbt_lineage.resolve.pool import SharedWorkers
from dbt_lineage.resolve.project import ProjectLineage, resolve_project
from dbt_lineage.types import DEFAULT_NODE_TIMEOUT


@dataclasses.dataclass
class Built:
    """What a build made: the graph written, where, and the resolution behind it."""

    graph: LineageGraph
    path: Path
    lineage: ProjectLineage
    seconds: float
    warnings: tuple[str, ...] = ()
    """About the artifacts (a catalog of another project, a partial manifest...)."""


def build_lineage(
    project_dir: str | Path,
    target_path: str | Path | None = None,
    *,
    select: t.Sequence[str] = (),
    no_cache: bool = False,
    jobs: int | None = None,
    node_timeout: float | None = DEFAULT_NODE_TIMEOUT,
    output: str | Path | None = None,
    progress: t.Callable[[int, int], None] | None = None,
    cache: LineageCache | None = None,
    catalog: bool = True,
    manifest: Manifest | None = None,
    workers: SharedWorkers | None = None,
) -> Built:
    """Resolve the project's lineage and write it.

    A full build writes ``<target>/lineage.json`` (or ``output``). A selected build
    resolves the selected nodes (and what they read) and puts them into the existing
    ``lineage.json``, leaving every other node as the last build left it; with ``output``
    it writes only what it resolved there. The cache forgets stale entries only on full
    builds. ``cache`` replaces ``<target>/dbt_lineage_cache.json.gz``: ``diff`` shares one
    between its two sides, so the second costs only what differs. Without ``catalog``,
    catalog.json is not read (columns come from the manifest and the SQL alone). ``manifest``:
    the target's manifest.json, when the caller has loaded it (not read again). ``workers``:
    worker processes shared with another build (``diff``'s other side; None: its own).

    Raises:
        DbtLineageError: no manifest, an unsupported artifact, a name that is no node.
    """
    started = time.perf_counter()
    with collections_paused():
        artifacts = load_project(project_dir, target_path, catalog=catalog, manifest=manifest)
        relations = artifacts.manifest.relation_nodes()
        selected = _selected(select, relations) if select else None
        lineage = resolve_project(
            artifacts,
            project_dir=project_dir,
            select=selected,
            cache=cache
            if cache is not None
            else LineageCache(artifacts.target_path / CACHE_FILE, read=not no_cache),
            progress=progress,
            jobs=jobs,
            node_timeout=node_timeout,
            workers=workers,
        )
        graph = build_graph(artifacts, lineage)
        lineage.nodes.clear()  # the graph holds it all now: keep one copy in memory
        default = artifacts.target_path / "lineage.json"
        path = Path(output) if output else default
        if selected is not None:
            graph = _into_earlier(graph, path if output is None else None, selected)
        save_graph(graph, path, index=True)
    seconds = time.perf_counter() - started
    return Built(graph, path, lineage, seconds, artifacts.warnings)


def _into_earlier(
    graph: LineageGraph, earlier: Path | None, selected: t.Sequence[str]
) -> LineageGraph:
    """A selected build's graph put into the earlier full graph at ``earlier``, if any;
    else the selected graph alone, its metadata naming the selection (so that a query for
    another node can say it is not built)."""
    if earlier is not None and earlier.is_file():
        try:
            return merge(load_graph(earlier), graph)
        except DbtLineageError:
            pass  # an unreadable earlier graph: the selected nodes are all there is
    graph.metadata = dataclasses.replace(graph.metadata, selected=tuple(sorted(selected)))
    return graph


def _selected(select: t.Sequence[str], relations: dict[str, t.Any]) -> list[str]:
    names = [part for item in select for part in re.split(r"[\s,]+", item) if part]
    candidates = [node.named for node in relations.values()]
    return [resolve_name(name.strip("+"), candidates) for name in names]
