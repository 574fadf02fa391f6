"""Resolve nodes as soon as the columns they read are known, keeping every worker busy.

A model waits only for the upstream models whose columns it cannot know yet (a catalog
gives them up front). Ready nodes go to workers one at a time, in dependency order, an idle
worker first; each worker also holds the next node to start when its current one ends
(``pool.IN_FLIGHT``), so a slow node holds up its own readers and at most that one node,
never a whole wave. Every node is resolved in a worker process, even with one job: a node
that kills its process (a crash in compiled code) then costs only itself
(``docs/decisions/0009-one-job-in-a-worker.md``).
"""

from __future__ import annotations

import collections
import dataclasses
import typing as t

from dbt_lineage.resolve.failures import internal_error, timed_out
from dbt_lineage.resolve.inputs import Prepared
from dbt_lineage.resolve.node_lineage import NodeLineage
from dbt_lineage.resolve.pool import REQUEUE, SharedWorkers, WorkerPool
from dbt_lineage.resolve.relations import RelationIndex


class Job(t.Protocol):
    """What the scheduler asks of a build."""

    def start(self, node_id: str) -> Prepared | NodeLineage:
        """Either the inputs to resolve the node with, or its result already (cache, root)."""

    def finish(self, node_id: str, result: NodeLineage, traceback: str) -> None:
        """Take a node's result; its readers may become ready."""


@dataclasses.dataclass
class Schedule:
    """Nodes in dependency order and what each waits for."""

    order: list[str]
    waits: dict[str, set[str]]

    def dependents(self) -> dict[str, list[str]]:
        found: dict[str, list[str]] = collections.defaultdict(list)
        for node_id, parents in self.waits.items():
            for parent in parents:
                found[parent].append(node_id)
        return found


def schedule(
    plan: Schedule,
    job: Job,
    *,
    index: t.Callable[[], RelationIndex],
    jobs: int,
    timeout: float | None,
    expected: int,
    workers: SharedWorkers | None = None,
) -> None:
    """Module entry: run every node of ``plan`` through ``job``.

    Args:
        plan: the nodes and their waits.
        job: prepares nodes and takes their results.
        index: the relation index (built once, only when some node must be resolved).
        jobs: worker processes at most.
        timeout: seconds a node may take in a worker; None for no limit.
        expected: how many nodes will need resolving at most (no more workers start).
        workers: the pool to take (and leave running) when builds share one; None starts
            one for this schedule and stops it after.
    """
    waits = {node_id: set(parents) for node_id, parents in plan.waits.items()}
    dependents = plan.dependents()
    ready = collections.deque(node_id for node_id in plan.order if not waits[node_id])
    readied = set(ready)  # every node ever put in ``ready``: each resolves once, even in a cycle
    position = {node_id: number for number, node_id in enumerate(plan.order)}
    queued: collections.deque[tuple[str, Prepared]] = collections.deque()
    pending: dict[str, Prepared] = {}
    pool: WorkerPool | None = None
    done: set[str] = set()

    def finish(node_id: str, result: NodeLineage, traceback: str = "") -> None:
        done.add(node_id)
        job.finish(node_id, result, traceback)
        for reader in dependents.get(node_id, ()):
            waits[reader].discard(node_id)
            if not waits[reader] and reader not in readied:
                readied.add(reader)
                ready.append(reader)

    try:
        while len(done) < len(plan.order):
            if not ready and not queued and (pool is None or not pool.busy):
                # A dependency cycle: resolve the earliest waiting node with what is known.
                waiting = [n for n in plan.order if n not in readied]
                if not waiting:
                    break
                stuck = min(waiting, key=position.__getitem__)
                waits[stuck].clear()
                readied.add(stuck)
                ready.append(stuck)
            while ready:
                node_id = ready.popleft()
                started = job.start(node_id)
                if isinstance(started, NodeLineage):
                    finish(node_id, started)
                else:
                    queued.append((node_id, started))
            if queued and pool is None:
                size = max(1, min(jobs, expected))
                if workers is not None:
                    pool = workers.pool(size, index(), timeout)
                else:
                    pool = WorkerPool(size, index(), timeout)
            while queued and pool is not None and pool.idle:
                node_id, prepared = queued[0]
                if not pool.submit(node_id, prepared.node, prepared.inputs):
                    break  # too large to wait behind another task: an idle worker takes it
                queued.popleft()
                pending[node_id] = prepared
            if pool is not None and pool.busy:
                finished_tasks = pool.wait()
                requeued = [f.task_id for f in finished_tasks if f.problem == REQUEUE]
                queued.extendleft((task, pending.pop(task)) for task in reversed(requeued))
                for finished in finished_tasks:
                    if finished.problem == REQUEUE:
                        continue
                    prepared = pending.pop(finished.task_id)
                    if finished.outcome is not None:
                        outcome = finished.outcome
                        finish(finished.task_id, outcome.result, outcome.traceback)
                    elif finished.problem == "timeout":
                        result = timed_out(prepared.node, prepared.inputs, timeout or 0.0)
                        finish(finished.task_id, result)
                    else:
                        result = internal_error(prepared.node, prepared.inputs, finished.problem)
                        finish(finished.task_id, result)
    finally:
        # A shared pool stays for the next build, unless this one stopped half-way (tasks
        # may be in flight).
        if pool is not None and (workers is None or len(done) < len(plan.order)):
            pool.close()
