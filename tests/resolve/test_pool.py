"""The worker pool: its shutdown never waits on a worker still starting; a task held behind
one that runs out of time comes back unstarted."""

from __future__ import annotations

import dataclasses
import time

from dbt_lineage.resolve.node_lineage import NodeInputs, SqlNode
from dbt_lineage.resolve.pool import IN_FLIGHT, REQUEUE, Finished, SharedWorkers, WorkerPool
from dbt_lineage.resolve.relations import RelationIndex


def test_closing_before_the_workers_are_ready_returns_at_once() -> None:
    # A small project's nodes can all finish on the first ready worker while another is
    # still importing; closing the pool then used to wait 5 s for that worker to exit.
    pool = WorkerPool(2, RelationIndex("duckdb"), timeout=None)
    started = time.monotonic()
    pool.close()
    assert time.monotonic() - started < 2.0
    assert all(w.exit_code() is not None for w in pool._workers)


def test_ready_idle_workers_are_told_to_stop_and_exit_cleanly() -> None:
    pool = WorkerPool(1, RelationIndex("duckdb"), timeout=None)
    while pool.idle == 0:
        pool.wait()
    pool.close()
    assert [w.exit_code() for w in pool._workers] == [0]


def test_a_task_waiting_behind_one_that_times_out_is_handed_back_unstarted() -> None:
    # A worker holds the next task while it runs one; when the first runs out of time and
    # the worker is killed, the second has not started: it comes back to be sent again.
    pool = WorkerPool(1, RelationIndex("duckdb"), timeout=0.5)
    try:
        while pool.idle == 0:
            pool.wait()
        assert pool.idle == IN_FLIGHT
        slow = " + ".join(["x"] * 200_000)
        pool.submit("slow", _node("slow", f"select {slow} as y from t"), _inputs())
        pool.submit("quick", _node("quick", "select 1 as y"), _inputs())
        finished: list[Finished] = []
        while len(finished) < 2:
            finished += pool.wait()
        assert [(f.task_id, f.problem) for f in finished] == [
            ("slow", "timeout"),
            ("quick", REQUEUE),
        ]
        while pool.idle == 0:
            pool.wait()
        pool.submit("quick", _node("quick", "select 1 as y"), _inputs())
        (done,) = pool.wait()
        assert done.task_id == "quick" and done.outcome is not None
        assert list(done.outcome.result.columns) == ["y"]
    finally:
        pool.close()


def _node(name: str, sql: str) -> SqlNode:
    return SqlNode(f"model.p.{name}", "model", f"models/{name}.sql", sql)


def _inputs() -> NodeInputs:
    return NodeInputs("duckdb", {}, frozenset(), None, {})


def test_a_task_too_large_for_the_pipe_waits_for_an_idle_worker() -> None:
    # Sent to a busy worker, it could fill the pipe and block the build until that worker's
    # task ends, past any deadline: submit declines it until a worker is idle.
    pool = WorkerPool(1, RelationIndex("duckdb"), timeout=None)
    try:
        while pool.idle == 0:
            pool.wait()
        large = _node("large", "select 1 as y -- " + "x" * pool._held_bytes)
        assert pool.submit("small", _node("small", "select 1 as y"), _inputs())
        assert not pool.submit("large", large, _inputs())
        (done,) = pool.wait()
        assert done.task_id == "small"
        assert pool.submit("large", large, _inputs())
        (done,) = pool.wait()
        assert done.task_id == "large" and done.outcome is not None
    finally:
        pool.close()


def test_shared_workers_resolve_the_next_build_with_its_relations_and_no_new_process() -> None:
    # diff resolves its head with the workers that resolved its base: the head's relation
    # index and column lists must replace the base's, in the same processes.
    def index(node_id: str) -> RelationIndex:
        found = RelationIndex("duckdb")
        found.add_name("t", node_id)
        return found

    def resolve(pool: WorkerPool, columns: dict[str, str]) -> dict[str, list[str]]:
        inputs = dataclasses.replace(_inputs(), schema={"t": columns})
        while pool.idle == 0:
            pool.wait()
        pool.submit("reader", _node("reader", "select * from t"), inputs)
        finished: list[Finished] = []
        while not finished:  # (or another worker becoming ready)
            finished = pool.wait()
        (done,) = finished
        assert done.outcome is not None
        result = done.outcome.result.columns
        return {name: [edge.upstream.node_id for edge in c.upstreams] for name, c in result.items()}

    with SharedWorkers() as workers:
        pool = workers.pool(2, index("model.p.base"), None)
        assert resolve(pool, {"a": "int"}) == {"a": ["model.p.base"]}
        processes = [worker.process.pid for worker in pool._workers]
        assert workers.pool(2, index("model.p.head"), None) is pool
        assert resolve(pool, {"b": "int"}) == {"b": ["model.p.head"]}
        assert [worker.process.pid for worker in pool._workers] == processes
        assert workers.pool(1, index("model.p.third"), None) is pool
        assert len(pool._workers) == 1
    assert pool.closed and all(w.exit_code() is not None for w in pool._workers)


def test_inputs_without_schema_keep_every_other_field() -> None:
    # The pool sends inputs without their column lists; every other field must cross.
    inputs = NodeInputs(
        "duckdb",
        {"t": {"a": "int"}},
        frozenset({"t"}),
        RelationIndex("duckdb"),
        {"b": "text"},
        frozenset({"model.p.t"}),
        True,
        frozenset({"u"}),
    )
    assert inputs.without_schema() == dataclasses.replace(inputs, schema={})
