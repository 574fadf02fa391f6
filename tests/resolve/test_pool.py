"""The worker pool's shutdown: a build never waits on a worker that is still starting."""

from __future__ import annotations

import time

from dbt_lineage.resolve.pool import WorkerPool
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
