"""Resolve every model, snapshot and seed of a project, in dependency order."""

from __future__ import annotations

import dataclasses
import graphlib
import typing as t
from pathlib import Path

from dbt_lineage.artifacts.manifest import ManifestNode
from dbt_lineage.artifacts.project import ProjectArtifacts
from dbt_lineage.resolve.cache import LineageCache, cache_key
from dbt_lineage.resolve.declared_columns import DeclaredColumns, declared_columns
from dbt_lineage.resolve.node_lineage import ColumnLineage, NodeInputs, NodeLineage
from dbt_lineage.resolve.parallel import Resolver
from dbt_lineage.resolve.relations import relation_index, schema_name
from dbt_lineage.sql.dialects import dialect_for

Progress = t.Callable[[int, int], None]


@dataclasses.dataclass
class ProjectLineage:
    """Per-node results for a whole project, in dependency order."""

    dialect: str
    nodes: dict[str, NodeLineage]
    declared: dict[str, DeclaredColumns | None]
    resolved_count: int = 0
    cached_count: int = 0


def resolve_project(
    artifacts: ProjectArtifacts,
    *,
    project_dir: str | Path = ".",
    select: t.Collection[str] | None = None,
    cache: LineageCache | None = None,
    progress: Progress | None = None,
    jobs: int | None = None,
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
        jobs: processes to resolve with; the machine's cores by default.
    """
    manifest = artifacts.manifest
    dialect = dialect_for(manifest.metadata.adapter_type)
    relations = manifest.relation_nodes()
    order = _dependency_order(relations, select)
    declared = {
        node_id: declared_columns(relations[node_id], artifacts.catalog, Path(project_dir))
        for node_id in order
    }
    state = _State()
    for node_id, own in declared.items():
        if own is not None and own.complete:
            state.known[node_id] = own.columns  # known before the node itself is resolved
    results: dict[str, NodeLineage] = {}
    project = ProjectLineage(dialect, results, declared)
    done = 0
    with Resolver(lambda: relation_index(relations.values(), dialect), jobs) as resolver:
        for wave in _waves(order, relations, declared):
            tasks: list[tuple[ManifestNode, NodeInputs, str]] = []
            for node_id in wave:
                node = relations[node_id]
                if node.resource_type not in ("model", "snapshot"):
                    results[node_id] = _root_node(node, declared[node_id])
                    continue
                prepared = _prepare(node, declared[node_id], relations, state, dialect)
                cached = cache.get(prepared[2]) if cache is not None else None
                if cached is not None:
                    results[node_id] = cached
                    project.cached_count += 1
                else:
                    tasks.append(prepared)
            outcomes = resolver.resolve([(node, inputs) for node, inputs, _ in tasks])
            for (node, _, key), result in zip(tasks, outcomes, strict=True):
                results[node.unique_id] = result
                project.resolved_count += 1
                if cache is not None:
                    cache.put(key, result)
            for node_id in wave:
                state.learn(relations[node_id], declared[node_id], results[node_id])
                done += 1
                if progress is not None:
                    progress(done, len(order))
    roots = {n for n in order if relations[n].resource_type in ("source", "seed")}
    _add_inferred_source_columns(results, roots)
    if cache is not None:
        cache.save()
    return project


def _dependency_order(
    relations: dict[str, ManifestNode], select: t.Collection[str] | None
) -> list[str]:
    sorter: graphlib.TopologicalSorter[str] = graphlib.TopologicalSorter()
    wanted = set(relations) if select is None else _with_upstreams(relations, select)
    for node_id in sorted(wanted):
        parents = [
            p for p in relations[node_id].depends_on.nodes if p in relations and p != node_id
        ]
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


class _State:
    """The columns each resolved relation offers its readers, and which are incomplete."""

    def __init__(self) -> None:
        self.known: dict[str, dict[str, str]] = {}
        self.partial: set[str] = set()

    def learn(self, node: ManifestNode, own: DeclaredColumns | None, result: NodeLineage) -> None:
        node_id = node.unique_id
        if node.resource_type not in ("model", "snapshot"):
            if own is not None:
                self.known[node_id] = own.columns
                if not own.complete:
                    self.partial.add(node_id)
            return
        outputs = {name: column.data_type for name, column in result.columns.items()}
        complete = all(column.resolved for column in result.columns.values())
        if own is not None and own.complete:
            self.known[node_id] = own.columns
        elif outputs and (complete or own is None):
            self.known[node_id] = outputs
        elif own is not None:
            self.known[node_id] = own.columns
            self.partial.add(node_id)


def _waves(
    order: list[str],
    relations: dict[str, ManifestNode],
    declared: dict[str, DeclaredColumns | None],
) -> list[list[str]]:
    """Group nodes so that each reads only nodes of earlier groups, or complete ones.

    A relation whose columns the catalog (or a seed's header) gives completely is known
    before it is resolved, so its readers need not wait for it: with a full catalog every
    model lands in one group and the cores are never left waiting on a slow one.
    """
    level: dict[str, int] = {}
    for node_id in order:
        waits = [
            level[p]
            for p in relations[node_id].depends_on.nodes
            if p in level and not (declared.get(p) is not None and declared[p].complete)
        ]
        level[node_id] = 1 + max(waits, default=-1)
    waves: list[list[str]] = [[] for _ in range(1 + max(level.values(), default=-1))]
    for node_id in order:
        waves[level[node_id]].append(node_id)
    return waves


def _prepare(
    node: ManifestNode,
    own: DeclaredColumns | None,
    relations: dict[str, ManifestNode],
    state: _State,
    dialect: str,
) -> tuple[ManifestNode, NodeInputs, str]:
    """The inputs a node is resolved with, and the cache key they make."""
    own_columns = own.columns if own is not None else {}
    upstream_ids = [p for p in node.depends_on.nodes if p in relations]
    if own is not None and own.complete:
        upstream_ids.append(node.unique_id)  # incremental models read `{{ this }}`
    schema: dict[str, dict[str, str]] = {}
    partial_names: set[str] = set()
    identity: list[t.Any] = []
    for upstream_id in sorted(set(upstream_ids)):
        columns = state.known.get(upstream_id) if upstream_id != node.unique_id else own_columns
        name = schema_name(relations[upstream_id])
        identity.append([upstream_id, name, columns, upstream_id in state.partial])
        if columns:
            schema[name] = columns
            if upstream_id in state.partial:
                partial_names.add(name)
    key = cache_key(node.unique_id, dialect, node.compiled_code or "", [identity, own_columns])
    inputs = NodeInputs(
        dialect, schema, frozenset(partial_names), None, own_columns, frozenset(upstream_ids)
    )
    return node, inputs, key


def _root_node(node: ManifestNode, own: DeclaredColumns | None) -> NodeLineage:
    """A source or seed: its columns have no upstream inside the project."""
    result = NodeLineage(node.unique_id, columns_from=own.origin if own is not None else "")
    for name, data_type in (own.columns if own is not None else {}).items():
        result.columns[name] = ColumnLineage(name, data_type)
    return result


def _add_inferred_source_columns(results: dict[str, NodeLineage], roots: set[str]) -> None:
    """Give sources and seeds the columns their readers use, when nothing declared them."""
    for result in list(results.values()):
        for node_id, columns in result.inferred.items():
            target = results.get(node_id)
            if target is None or node_id not in roots:
                continue
            folded = {existing.casefold() for existing in target.columns}
            for name, data_type in columns.items():
                if name.casefold() not in folded:
                    folded.add(name.casefold())
                    target.columns[name] = ColumnLineage(name, data_type, inferred=True)
                    target.columns_from = target.columns_from or "inferred"
