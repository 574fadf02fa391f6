"""Resolve every model, snapshot and seed of a project, in dependency order."""

from __future__ import annotations

import dataclasses
import graphlib
import typing as t
from pathlib import Path

from dbt_lineage.artifacts.manifest import ManifestNode
from dbt_lineage.artifacts.project import ProjectArtifacts
from dbt_lineage.memory import fewer_collections
from dbt_lineage.resolve.cache import LineageCache
from dbt_lineage.resolve.declared_columns import DeclaredColumns, declared_columns
from dbt_lineage.resolve.inferred_columns import inferred_columns
from dbt_lineage.resolve.inputs import SQL_TYPES, KnownColumns, Prepared
from dbt_lineage.resolve.node_lineage import ColumnLineage, NodeLineage
from dbt_lineage.resolve.relations import relation_index
from dbt_lineage.resolve.schedule import Schedule, schedule
from dbt_lineage.sql.dialects import dialect_for

Progress = t.Callable[[int, int], None]

DEFAULT_NODE_TIMEOUT = 60.0
"""Seconds one node may take to resolve before it becomes a ``timeout`` diagnostic."""


@dataclasses.dataclass
class ProjectLineage:
    """Per-node results for a whole project, in dependency order."""

    dialect: str
    nodes: dict[str, NodeLineage]
    """Emptied by ``build_lineage`` once the graph is built from them."""
    declared: dict[str, DeclaredColumns | None]
    resolved_count: int = 0
    cached_count: int = 0
    warnings: list[str] = dataclasses.field(default_factory=list)
    """Project-wide problems a user should hear about (a stale catalog...)."""
    tracebacks: dict[str, str] = dataclasses.field(default_factory=dict)
    """Node id to the traceback of an internal error (shown under ``--debug``)."""


def resolve_project(
    artifacts: ProjectArtifacts,
    *,
    project_dir: str | Path = ".",
    select: t.Collection[str] | None = None,
    cache: LineageCache | None = None,
    progress: Progress | None = None,
    jobs: int | None = None,
    node_timeout: float | None = DEFAULT_NODE_TIMEOUT,
) -> ProjectLineage:
    """Resolve the columns of every relation in the project.

    Args:
        artifacts: the loaded manifest (and catalog).
        project_dir: the dbt project directory (seeds' CSV headers are read from it).
        select: node ids to resolve; their upstreams are resolved too, since their columns
            are the schema the selected nodes read. ``None`` resolves everything.
        cache: results from earlier builds; only nodes whose SQL or upstream schemas changed
            are resolved again.
        progress: called with (done, total) after each node.
        jobs: processes to resolve with; the machine's cores by default; 1 resolves in
            this process.
        node_timeout: seconds one node may take in a worker (None: no limit).
    """
    import os

    manifest = artifacts.manifest
    dialect = dialect_for(manifest.metadata.adapter_type)
    relations = manifest.relation_nodes()
    order = _dependency_order(relations, select)
    declared = {
        node_id: declared_columns(relations[node_id], artifacts.catalog, Path(project_dir))
        for node_id in order
    }
    build = _Build(relations, declared, dialect, cache, progress, len(order))
    plan = Schedule(order, {node_id: build.waits_for(node_id) for node_id in order})
    expected = sum(1 for node_id in order if relations[node_id].resource_type in SQL_TYPES)
    with fewer_collections():
        schedule(
            plan,
            build,
            index=lambda: relation_index(relations.values(), dialect),
            jobs=max(1, jobs if jobs is not None else (os.cpu_count() or 1)),
            timeout=node_timeout,
            expected=expected,
        )
    project = ProjectLineage(dialect, {n: build.results[n] for n in order}, declared)
    project.resolved_count = build.resolved
    project.cached_count = build.cached
    project.tracebacks = build.tracebacks
    project.warnings = inferred_columns(project.nodes, relations, declared, order)
    if cache is not None:
        cache.save(prune=select is None)
    return project


class _Build:
    """What the scheduler asks of this build: start a node, take its result."""

    def __init__(
        self,
        relations: dict[str, ManifestNode],
        declared: dict[str, DeclaredColumns | None],
        dialect: str,
        cache: LineageCache | None,
        progress: Progress | None,
        total: int,
    ) -> None:
        self.relations = relations
        self.declared = declared
        self.dialect = dialect
        self.cache = cache
        self.progress = progress
        self.total = total
        self.known = KnownColumns(declared)
        self.results: dict[str, NodeLineage] = {}
        self.keys: dict[str, str] = {}
        self.tracebacks: dict[str, str] = {}
        self.resolved = self.cached = 0

    def waits_for(self, node_id: str) -> set[str]:
        """The upstream models whose columns ``node_id`` cannot know before they resolve."""
        return {
            parent
            for parent in self.relations[node_id].depends_on.nodes
            if parent in self.declared
            and parent != node_id
            and self.relations[parent].resource_type in SQL_TYPES
            and not (self.declared[parent] is not None and self.declared[parent].complete)
        }

    def start(self, node_id: str) -> Prepared | NodeLineage:
        node = self.relations[node_id]
        if node.resource_type not in SQL_TYPES:
            return _root_node(node, self.declared[node_id])
        prepared = self.known.prepare(node, self.relations, self.dialect)
        cached = self.cache.get(prepared.key) if self.cache is not None else None
        if cached is not None:
            self.cached += 1
            return cached
        self.keys[node_id] = prepared.key
        return prepared

    def finish(self, node_id: str, result: NodeLineage, traceback: str) -> None:
        self.results[node_id] = result
        if node_id in self.keys:
            self.resolved += 1
            if traceback:
                self.tracebacks[node_id] = traceback
            elif self.cache is not None and not _failed(result):
                self.cache.put(self.keys[node_id], result)
        self.known.learn(self.relations[node_id], result)
        if self.progress is not None:
            self.progress(len(self.results), self.total)


def _failed(result: NodeLineage) -> bool:
    """Whether a result records a failure not to keep (a timeout or a bug)."""
    return any(item.reason in ("timeout", "internal_error") for item in result.diagnostics)


def _dependency_order(
    relations: dict[str, ManifestNode], select: t.Collection[str] | None
) -> list[str]:
    sorter: graphlib.TopologicalSorter[str] = graphlib.TopologicalSorter()
    wanted = set(relations) if select is None else _with_upstreams(relations, select)
    for node_id in sorted(wanted):
        parents = [p for p in relations[node_id].depends_on.nodes if p in wanted and p != node_id]
        sorter.add(node_id, *parents)
    try:
        return list(sorter.static_order())
    except graphlib.CycleError:
        return sorted(wanted)


def _with_upstreams(relations: dict[str, ManifestNode], select: t.Collection[str]) -> set[str]:
    wanted: set[str] = set()
    stack = [node_id for node_id in select if node_id in relations]
    while stack:
        node_id = stack.pop()
        if node_id not in wanted:
            wanted.add(node_id)
            stack.extend(p for p in relations[node_id].depends_on.nodes if p in relations)
    return wanted


def _root_node(node: ManifestNode, own: DeclaredColumns | None) -> NodeLineage:
    """A source or seed: its columns have no upstream inside the project."""
    result = NodeLineage(node.unique_id, columns_from=own.origin if own is not None else "")
    for name, data_type in (own.columns if own is not None else {}).items():
        result.columns[name] = ColumnLineage(name, data_type)
    return result
