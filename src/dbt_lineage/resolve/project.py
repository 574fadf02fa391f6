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
from dbt_lineage.resolve.failures import failures
from dbt_lineage.resolve.inferred_columns import inferred_columns
from dbt_lineage.resolve.inputs import SQL_TYPES, KnownColumns, Prepared
from dbt_lineage.resolve.node_lineage import ColumnLineage, NodeDiagnostic, NodeLineage
from dbt_lineage.resolve.pool import SharedWorkers
from dbt_lineage.resolve.relations import relation_index
from dbt_lineage.resolve.schedule import Schedule, schedule
from dbt_lineage.sql.dialects import dialect_for
from dbt_lineage.types import DEFAULT_NODE_TIMEOUT, UnresolvedReason

Progress = t.Callable[[int, int], None]


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
    workers: SharedWorkers | None = None,
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
        jobs: worker processes to resolve with; the machine's cores by default (one
            worker for 1: a node that crashes its process costs only itself).
        node_timeout: seconds one node may take in a worker (None: no limit).
        workers: worker processes shared with other builds (``diff``'s two sides); None
            starts this build's own.
    """
    import os

    manifest = artifacts.manifest
    dialect = dialect_for(manifest.metadata.adapter_type)
    relations = manifest.relation_nodes()
    recalled, partial = _earlier_sql(relations, cache)
    order = _dependency_order(relations, select)
    declared = {
        node_id: declared_columns(relations[node_id], artifacts.catalog, Path(project_dir))
        for node_id in order
    }
    build = _Build(relations, declared, dialect, cache, progress, len(order), recalled)
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
            workers=workers,
        )
    project = ProjectLineage(dialect, {n: build.results[n] for n in order}, declared)
    project.resolved_count = build.resolved
    project.cached_count = build.cached
    project.tracebacks = build.tracebacks
    project.warnings = partial + inferred_columns(project.nodes, relations, declared, order)
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
        recalled: set[str],
    ) -> None:
        self.relations = relations
        self.recalled = recalled
        self.declared = declared
        self.dialect = dialect
        self.cache = cache
        self.progress = progress
        self.total = total
        self.known = KnownColumns(declared)
        self.results: dict[str, NodeLineage] = {}
        self.keys: dict[str, tuple[str, dict[str, str]]] = {}
        self.tracebacks: dict[str, str] = {}
        self.resolved = self.cached = 0

    def waits_for(self, node_id: str) -> set[str]:
        """The upstream models and snapshots whose columns ``node_id`` cannot know before
        they resolve: all of them, a catalog's included. A catalog may be older than the
        SQL, and what the SQL adds joins its list once the parent resolves
        (``KnownColumns.learn``); a reader that did not wait would see either list, by how
        the workers' timing fell, and a build from the cache (where the parent is known at
        once) would differ from a cold one."""
        return {
            parent
            for parent in self.relations[node_id].depends_on.nodes
            if parent in self.declared
            and parent != node_id
            and self.relations[parent].resource_type in SQL_TYPES
        }

    def start(self, node_id: str) -> Prepared | NodeLineage:
        node = self.relations[node_id]
        if node.resource_type not in SQL_TYPES:
            return _root_node(node, self.declared[node_id])
        prepared = self.known.prepare(node, self.relations, self.dialect)
        cached = self.cache.get(prepared.key, prepared.marks) if self.cache is not None else None
        if node_id in self.recalled:
            return _from_earlier(node, prepared, cached)
        if cached is not None:
            self.cached += 1
            return cached
        self.keys[node_id] = (prepared.key, prepared.marks)
        return prepared

    def finish(self, node_id: str, result: NodeLineage, traceback: str) -> None:
        self.results[node_id] = result
        if node_id in self.keys:
            self.resolved += 1
            if traceback:
                self.tracebacks[node_id] = traceback
            elif self.cache is not None and not _failed(result):
                key, marks = self.keys[node_id]
                self.cache.put(key, result, marks)
        self.known.learn(self.relations[node_id], result)
        if self.progress is not None:
            self.progress(len(self.results), self.total)


def _earlier_sql(
    relations: dict[str, ManifestNode], cache: LineageCache | None
) -> tuple[set[str], list[str]]:
    """Give models the manifest has no compiled SQL for (a manifest written by ``dbt test``
    or a selected command) the SQL of the last build, when their code is unchanged since.

    Returns the nodes given earlier SQL, and the warning to show when the manifest looks
    partial.
    """
    recalled: set[str] = set()
    lacking = 0
    sql_nodes = 0
    for node_id, node in list(relations.items()):
        if node.resource_type not in SQL_TYPES:
            continue
        sql_nodes += 1
        checksum = str(node.checksum.get("checksum", ""))
        if node.compiled_code:
            if cache is not None:
                cache.remember_sql(node_id, checksum, node.compiled_code)
            continue
        lacking += 1
        earlier = cache.recall_sql(node_id, checksum) if cache is not None else None
        if earlier is not None:
            relations[node_id] = node.model_copy(update={"compiled_code": earlier})
            recalled.add(node_id)
    if not lacking or lacking == sql_nodes and not recalled:
        return recalled, []
    return recalled, [
        f"the manifest looks partial: {lacking} of {sql_nodes} models and snapshots have no "
        "compiled SQL (a `dbt test`, or a command with --select, writes such a manifest); "
        f"{len(recalled)} keep the lineage of an earlier build where their code is unchanged. "
        "Run `dbt compile` for the whole project before `dbt-lineage build`."
    ]


def _from_earlier(
    node: ManifestNode, prepared: Prepared, cached: NodeLineage | None
) -> NodeLineage:
    """A node whose compiled SQL came from an earlier build: its earlier lineage, said to be
    such, when its inputs are unchanged too; else no lineage."""
    if cached is None:
        message = (
            "no compiled SQL in the manifest, and its inputs changed since it was last "
            "compiled: run `dbt compile` (or `dbt build`) first"
        )
        return failures(prepared.node, prepared.inputs, UnresolvedReason.NO_COMPILED_SQL, message)
    cached.diagnostics.append(
        NodeDiagnostic(
            node.unique_id,
            node.original_file_path,
            UnresolvedReason.NOTE.value,
            "no compiled SQL in this manifest: lineage kept from an earlier build of the same "
            "code and inputs",
        )
    )
    return cached


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
