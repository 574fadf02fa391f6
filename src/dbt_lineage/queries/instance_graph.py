"""The instance-layer graph upstream of a node run, fetched from the run history.

The rows come from an ``InstanceSource`` (the warehouse reader in ``outputs/warehouse``,
which reads the tables the dbt package's on-run-end hook writes). ``instance_graph`` fetches
them level by level from a root run and assembles a ``LineageGraph`` fragment: invocation and
node-run nodes, ``ran`` edges invocation -> node run, ``fed`` edges input -> consumer.
``provenance`` walks it into a tree.

A node run is keyed ``RunRef(invocation_id, unique_id)`` and nests under its invocation in
``graph.runs[invocation_id][unique_id]``; no key is a joined string. An ephemeral
model, which dbt inlines and never runs, becomes a run of status ``ephemeral`` inside its
consumer's invocation. An input with no recorded run (a source, or a node the hook never
saw) is a schema-layer relation node keyed by its unique id.
"""

from __future__ import annotations

import dataclasses
import datetime
import typing as t

from dbt_lineage.graph.model import (
    EdgeType,
    InvocationNode,
    LineageEdge,
    LineageGraph,
    LineageNode,
    NodeRunNode,
    NodeType,
    RelationNode,
)
from dbt_lineage.types import Layer, RunRef


@dataclasses.dataclass(frozen=True)
class NodeRunRow:
    """A row of ``lineage_node_runs`` (the columns provenance reads)."""

    invocation_id: str
    unique_id: str
    status: str
    relation_name: str | None = None
    resource_type: str | None = None
    materialization: str | None = None
    rows_affected: int | None = None
    execute_started_at: datetime.datetime | None = None
    execute_completed_at: datetime.datetime | None = None
    execution_time: float | None = None
    message: str | None = None
    checksum: str | None = None

    @property
    def key(self) -> RunRef:
        return RunRef(self.invocation_id, self.unique_id)


@dataclasses.dataclass(frozen=True)
class RunInputRow:
    """A row of ``lineage_run_inputs``: a node run read ``input_unique_id``, as built by
    ``input_invocation_id`` (None for sources and inputs never recorded)."""

    invocation_id: str
    unique_id: str
    input_unique_id: str
    input_relation_name: str | None = None
    input_invocation_id: str | None = None


@dataclasses.dataclass(frozen=True)
class InvocationRow:
    """A row of ``lineage_invocations`` (the columns provenance reads)."""

    invocation_id: str
    command: str | None = None
    dbt_version: str | None = None
    target_name: str | None = None
    started_at: datetime.datetime | None = None
    ended_at: datetime.datetime | None = None


class InstanceSource(t.Protocol):
    """Where instance rows come from."""

    def last_build(self, unique_id: str) -> NodeRunRow | None:
        """The latest successful run of a node."""

    def node_runs(self, keys: t.Sequence[RunRef]) -> list[NodeRunRow]:
        """The runs with these ``(invocation_id, unique_id)`` keys (missing ones left out)."""

    def run_inputs(self, keys: t.Sequence[RunRef]) -> list[RunInputRow]:
        """The inputs of these runs."""

    def invocations(self, invocation_ids: t.Sequence[str]) -> list[InvocationRow]:
        """These invocations (missing ones left out)."""

    def builds_before(
        self, unique_ids: t.Sequence[str], before: datetime.datetime
    ) -> list[NodeRunRow]:
        """For each node, its latest successful run completed at or before ``before``."""


def instance_graph(
    root: NodeRunRow, source: InstanceSource, ephemeral: t.Mapping[str, t.Sequence[str]]
) -> LineageGraph:
    """Fetch the runs upstream of ``root``, breadth first, into an instance-layer graph.

    Args:
        root: the run to start from.
        source: where the instance rows come from.
        ephemeral: the project's ephemeral models, each with the unique ids it reads.
    """
    runs, inputs = _fetch(root, source, ephemeral)
    invocations = source.invocations(sorted({key.invocation_id for key in runs}))
    nodes: dict[str, LineageNode] = {}
    runs_by_invocation: dict[str, dict[str, NodeRunNode]] = {}
    edges: list[LineageEdge] = []
    for invocation in invocations:
        nodes[invocation.invocation_id] = _invocation_node(invocation)
    for key, run in runs.items():
        nodes.setdefault(key.invocation_id, _invocation_node(InvocationRow(key.invocation_id)))
        runs_by_invocation.setdefault(key.invocation_id, {})[key.unique_id] = _run_node(run)
        edges.append(_edge(key.invocation_id, key, EdgeType.RAN))
    for row in inputs:
        consumer = RunRef(row.invocation_id, row.unique_id)
        upstream = RunRef(row.input_invocation_id or "", row.input_unique_id)
        if upstream not in runs:
            nodes.setdefault(row.input_unique_id, _relation_node(row))
            edges.append(_edge(row.input_unique_id, consumer, EdgeType.FED))
        else:
            edges.append(_edge(upstream, consumer, EdgeType.FED))
    return LineageGraph(nodes=nodes, runs=runs_by_invocation, edges=edges)


def _fetch(
    root: NodeRunRow, source: InstanceSource, ephemeral: t.Mapping[str, t.Sequence[str]]
) -> tuple[dict[RunRef, NodeRunRow], list[RunInputRow]]:
    """The runs upstream of ``root`` and the input rows between them, a level at a time.

    dbt never runs an ephemeral model: it is inlined into each consumer, and the hook
    records the consumer's read of it with no run. Here it becomes a run of its own in
    the consumer's invocation (status ``ephemeral``), whose inputs are the latest
    successful builds of its parents completed before the consumer started (the rule the
    hook uses for every input).
    """
    runs = {root.key: root}
    local: dict[RunRef, list[RunInputRow]] = {}
    inputs: list[RunInputRow] = []
    frontier = [root.key]
    while frontier:
        remote = [key for key in frontier if key not in local]
        fetched = source.run_inputs(remote) if remote else []
        fetched += [row for key in frontier for row in local.get(key, ())]
        missing: set[RunRef] = set()
        fetched, next_keys = _same_invocation_runs(fetched, source, runs, ephemeral)
        for row in fetched:
            if row.input_invocation_id is None and row.input_unique_id in ephemeral:
                key = RunRef(row.invocation_id, row.input_unique_id)
                if key not in runs:
                    consumer = runs[RunRef(row.invocation_id, row.unique_id)]
                    runs[key] = NodeRunRow(
                        invocation_id=row.invocation_id,
                        unique_id=row.input_unique_id,
                        status="ephemeral",
                        execute_started_at=consumer.execute_started_at,
                    )
                    local[key] = _inlined_inputs(runs[key], source, ephemeral)
                    next_keys.add(key)
                row = dataclasses.replace(row, input_invocation_id=row.invocation_id)
            elif row.input_invocation_id is not None:
                key = RunRef(row.input_invocation_id, row.input_unique_id)
                if key not in runs:
                    missing.add(key)
            inputs.append(row)
        for run in source.node_runs(sorted(missing)) if missing else ():
            runs[run.key] = run
            next_keys.add(run.key)
        frontier = sorted(next_keys)
    return runs, inputs


def _same_invocation_runs(
    rows: list[RunInputRow],
    source: InstanceSource,
    runs: dict[RunRef, NodeRunRow],
    ephemeral: t.Mapping[str, t.Sequence[str]],
) -> tuple[list[RunInputRow], set[RunRef]]:
    """Point inputs that no earlier build fed at their own run in the consumer's
    invocation, when there is one: the failed run that made a consumer skip, say.

    The runs fetched for that go into ``runs``; returned with the rows are their keys,
    whose inputs are still to be traced.
    """
    wanted = {
        RunRef(row.invocation_id, row.input_unique_id)
        for row in rows
        if row.input_invocation_id is None
        and row.input_unique_id not in ephemeral
        and not row.input_unique_id.startswith("source.")
    }
    unknown = sorted(wanted - runs.keys())
    fetched = source.node_runs(unknown) if unknown else []
    for run in fetched:
        runs[run.key] = run
    pointed = [
        dataclasses.replace(row, input_invocation_id=row.invocation_id)
        if row.input_invocation_id is None
        and RunRef(row.invocation_id, row.input_unique_id) in wanted
        and RunRef(row.invocation_id, row.input_unique_id) in runs
        else row
        for row in rows
    ]
    return pointed, {run.key for run in fetched}


def _inlined_inputs(
    run: NodeRunRow, source: InstanceSource, ephemeral: t.Mapping[str, t.Sequence[str]]
) -> list[RunInputRow]:
    parents = list(dict.fromkeys(ephemeral[run.unique_id]))
    built = [p for p in parents if p not in ephemeral and not p.startswith("source.")]
    before = run.execute_started_at
    builds = {
        build.unique_id: build.invocation_id
        for build in (source.builds_before(built, before) if built and before else ())
    }
    return [
        RunInputRow(run.invocation_id, run.unique_id, parent, None, builds.get(parent))
        for parent in parents
    ]


def _edge(source: str | RunRef, target: str | RunRef, type_: EdgeType) -> LineageEdge:
    return LineageEdge(source, target, type_, layer=Layer.INSTANCE)


def _invocation_node(row: InvocationRow) -> InvocationNode:
    return InvocationNode(
        node_id=row.invocation_id,
        type=NodeType.INVOCATION,
        layer=Layer.INSTANCE,
        name=row.invocation_id,
        command=row.command or "",
        dbt_version=row.dbt_version or "",
        target_name=row.target_name or "",
        started_at=row.started_at,
        ended_at=row.ended_at,
    )


def _run_node(row: NodeRunRow) -> NodeRunNode:
    return NodeRunNode(
        node_id=row.unique_id,
        invocation_id=row.invocation_id,
        type=NodeType.NODE_RUN,
        layer=Layer.INSTANCE,
        name=row.unique_id,
        status=row.status,
        relation_name=row.relation_name or "",
        materialized=row.materialization or "",
        rows_affected=row.rows_affected,
        started_at=row.execute_started_at,
        ended_at=row.execute_completed_at,
        execution_time=row.execution_time,
        message=row.message,
        checksum=row.checksum,
    )


def _relation_node(row: RunInputRow) -> LineageNode:
    """An input with no recorded run: a source, or a node the hook never saw."""
    resource_type = row.input_unique_id.partition(".")[0]
    node_type = {member.value: member for member in NodeType}.get(resource_type, NodeType.MODEL)
    return RelationNode(
        node_id=row.input_unique_id,
        type=node_type,
        name=row.input_unique_id,
        relation_name=row.input_relation_name or "",
    )
