"""Provenance: which run built a relation, from which runs of its inputs, back to sources.

``provenance`` finds the run asked about, has ``instance_graph`` fetch the runs upstream of
it into an instance-layer ``LineageGraph`` fragment (invocation and node-run nodes; ``ran``
edges invocation -> node run, ``fed`` edges input -> consumer), and walks that from the run
into a ``TracedRun`` tree. The row types and ``InstanceSource`` live in ``instance_graph``
and are importable from here too.
"""

from __future__ import annotations

import dataclasses
import datetime
import typing as t

from dbt_lineage.errors import DbtLineageError
from dbt_lineage.graph.model import EdgeType, InvocationNode, LineageGraph, NodeType
from dbt_lineage.queries.instance_graph import (
    InstanceSource,
    InvocationRow,
    NodeRunRow,
    RunInputRow,
    instance_graph,
)
from dbt_lineage.types import RunRef

__all__ = [
    "InstanceSource",
    "InvocationRow",
    "NodeRunRow",
    "RunInputRow",
    "TracedInput",
    "TracedRun",
    "provenance",
]


@dataclasses.dataclass(frozen=True)
class TracedInput:
    """One input of a traced run: the run of it that fed the consumer, or why there is none.

    ``note`` is empty when ``run`` is set; else ``source`` or ``not recorded``. An ephemeral
    input has a run of status ``ephemeral`` (inlined into the consumer; dbt never runs it).
    """

    unique_id: str
    relation_name: str | None
    run: TracedRun | None = None
    note: str = ""

    def to_dict(self) -> dict[str, t.Any]:
        entry: dict[str, t.Any] = {
            "unique_id": self.unique_id,
            "relation_name": self.relation_name,
        }
        if self.run is not None:
            entry["run"] = self.run.to_dict()
        else:
            entry["note"] = self.note
        return entry


@dataclasses.dataclass(frozen=True)
class TracedRun:
    """A node run with its invocation and, recursively, the runs of its inputs.

    ``repeated`` marks a run already shown elsewhere in the tree (its inputs are left out
    there: the tree is a DAG unfolded once).
    """

    unique_id: str
    relation_name: str | None
    invocation_id: str
    status: str
    started_at: datetime.datetime | None
    ended_at: datetime.datetime | None
    rows_affected: int | None
    invocation: InvocationRow
    inputs: tuple[TracedInput, ...] = ()
    repeated: bool = False

    def to_dict(self) -> dict[str, t.Any]:
        """Nested plain data for JSON (timestamps as ISO text)."""
        entry: dict[str, t.Any] = {
            "unique_id": self.unique_id,
            "relation_name": self.relation_name,
            "invocation_id": self.invocation_id,
            "status": self.status,
            "started_at": _iso(self.started_at),
            "ended_at": _iso(self.ended_at),
            "rows_affected": self.rows_affected,
            "invocation": {
                name: _iso(value)
                for name, value in dataclasses.asdict(self.invocation).items()
                if name != "invocation_id"
            },
        }
        if self.repeated:
            entry["repeated"] = True
        else:
            entry["inputs"] = [item.to_dict() for item in self.inputs]
        return entry


def provenance(
    unique_id: str,
    source: InstanceSource,
    *,
    stamp: str | None = None,
    ephemeral: t.Mapping[str, t.Sequence[str]] | None = None,
) -> TracedRun:
    """The run that built ``unique_id`` (or the run of invocation ``stamp``), traced back.

    Args:
        unique_id: the relation's dbt unique id.
        source: where the instance rows come from.
        stamp: an invocation id, as a row's stamp column holds it: trace that
            invocation's run of the relation instead of the latest successful one.
        ephemeral: the project's ephemeral models, each with the unique ids it reads
            (from the manifest): traced through to the runs of what they read.

    Raises:
        DbtLineageError: no such run is recorded.
    """
    if stamp is not None:
        found = source.node_runs([RunRef(stamp, unique_id)])
        if not found:
            raise DbtLineageError(
                f"invocation {stamp} has no recorded run of {unique_id}: check the stamp, "
                "and that the hook was active in that run",
                node_id=unique_id,
            )
        root = found[0]
    else:
        last = source.last_build(unique_id)
        if last is None:
            raise DbtLineageError(
                f"no successful run of {unique_id} is recorded: run dbt with the "
                "dbt_lineage.record_run hook (see README), or pass --stamp",
                node_id=unique_id,
            )
        root = last
    graph = instance_graph(root, source, ephemeral or {})
    return _walk(graph, root.key, set())


def _walk(graph: LineageGraph, key: RunRef, expanded: set[RunRef]) -> TracedRun:
    """Unfold the graph into a tree from ``key``; a run met again is marked repeated."""
    run = graph.runs[key.invocation_id][key.unique_id]
    invocation = graph.nodes[key.invocation_id]
    assert isinstance(invocation, InvocationNode)
    repeated = key in expanded
    expanded.add(key)
    inputs: list[TracedInput] = []
    if not repeated:
        feeding = [
            data["edge"].source
            for _, _, data in graph.digraph().in_edges(key, data=True)
            if data["edge"].type is EdgeType.FED
        ]
        for upstream in sorted(feeding, key=_sort_key):
            if isinstance(upstream, RunRef):
                traced = _walk(graph, upstream, expanded)
                inputs.append(TracedInput(upstream.unique_id, traced.relation_name, run=traced))
            else:
                node = graph.nodes[upstream]
                note = "source" if node.type is NodeType.SOURCE else "not recorded"
                relation_name = getattr(node, "relation_name", "") or None
                inputs.append(TracedInput(upstream, relation_name, note=note))
    return TracedRun(
        unique_id=key.unique_id,
        relation_name=run.relation_name or None,
        invocation_id=key.invocation_id,
        status=run.status,
        started_at=run.started_at,
        ended_at=run.ended_at,
        rows_affected=run.rows_affected,
        invocation=InvocationRow(
            invocation.node_id,
            invocation.command or None,
            invocation.dbt_version or None,
            invocation.target_name or None,
            invocation.started_at,
            invocation.ended_at,
        ),
        inputs=tuple(inputs),
        repeated=repeated,
    )


def _sort_key(key: str | RunRef) -> tuple[str, str]:
    return (key.unique_id, key.invocation_id) if isinstance(key, RunRef) else (key, "")


def _iso(value: datetime.datetime | None) -> str | None:
    return value.isoformat() if isinstance(value, datetime.datetime) else value
