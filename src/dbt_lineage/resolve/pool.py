"""Worker processes that resolve one node each at a time, each node under a time budget.

Every build resolves its nodes here, with one worker for ``--jobs 1``
(``docs/decisions/0009-one-job-in-a-worker.md``).

A node that runs past its budget has its worker killed and replaced, and becomes a
``timeout`` result; a worker that dies (out of memory, a crash in compiled code) costs only
its node the same way (the node it held to run next is sent again). Workers are fresh
interpreters (``spawn``): they do not carry the memory of the process that loaded the
manifest, and, being its own children, their CPU time is the build's in any process
accounting. They are started as ``python -m`` commands rather than with
``multiprocessing``'s spawn, which would import the caller's ``__main__`` again.
"""

from __future__ import annotations

import collections
import json
import math
import multiprocessing
import pickle
import select
import socket
import subprocess
import sys
import time
import typing as t

from dbt_lineage.errors import DbtLineageError
from dbt_lineage.resolve.failures import Outcome
from dbt_lineage.resolve.node_lineage import NodeInputs, NodeLineage, SqlNode
from dbt_lineage.resolve.relations import RelationIndex

IN_FLIGHT = 2
"""Tasks a worker holds at once: the next waits in its pipe, so that it starts the moment
the last ends, without the worker sleeping on an empty pipe and being woken for it. On
GitLab's project (2 workers; 30 cold builds alternating with and without) this saves about
0.2 s of CPU (of 7.2 s) and 0.3 s of wall time (of 4.9 s), and a third of the context
switches. Its time budget starts when the one before it ends."""

REQUEUE = "requeue"
"""The ``problem`` of a task its worker had not started when it stopped: to send again."""

_PROTOCOL = pickle.HIGHEST_PROTOCOL

_STARTS = 3
"""Workers that may die before they are ready before the build gives up on workers."""


class Finished(t.NamedTuple):
    """A task's end: its outcome, or None when it ran out of time or its worker died."""

    task_id: str
    outcome: Outcome | None
    problem: str = ""


def _pipe_room() -> int:
    """The send buffer of a new socket pair, as ``multiprocessing.Pipe`` makes them."""
    first, second = socket.socketpair()
    try:
        return int(first.getsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF))
    finally:
        first.close()
        second.close()


class _Worker:
    """One worker: ``python -m dbt_lineage.resolve.worker FD``, talking over a socket pair."""

    def __init__(self) -> None:
        self.connection, child = multiprocessing.Pipe()
        fd = child.fileno()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "dbt_lineage.resolve.worker", str(fd)],
            pass_fds=[fd],
            stdin=subprocess.DEVNULL,
        )
        child.close()
        self.ready = False
        """Set when the worker says it has started: a task's time budget starts only then."""
        self.tasks: collections.deque[str] = collections.deque()
        """Tasks sent, in order: the first runs (its time budget runs), the next waits in
        the worker's pipe to start the moment it ends."""
        self.deadline = 0.0
        self.sent: dict[int, dict[str, str]] = {}
        """The upstream column lists this worker holds, by ``id`` (kept here, so that no id
        is reused while the worker lives): each crosses the process boundary once."""

    @property
    def task(self) -> str | None:
        """The task running, if any."""
        return self.tasks[0] if self.tasks else None

    def exit_code(self) -> int | None:
        return self.process.poll()

    def stop(self, *, kill: bool) -> None:
        if kill:
            self.process.kill()
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.connection.close()


class WorkerPool:
    """``jobs`` worker processes; ``submit`` a task, ``wait`` for finished ones."""

    def __init__(self, jobs: int, index: RelationIndex, timeout: float | None) -> None:
        self._index = index
        self.timeout = timeout
        self.closed = False
        self._failed_starts = 0
        self._poll = select.poll()
        self._watched: set[int] = set()
        self._held_bytes = _pipe_room() // 4
        """The largest task sent to a busy worker: it must fit in the pipe's buffer."""
        self._workers = [_Worker() for _ in range(jobs)]

    @property
    def idle(self) -> int:
        """Tasks ready workers can take now (each holds up to ``IN_FLIGHT``)."""
        return sum(IN_FLIGHT - len(w.tasks) for w in self._workers if w.ready)

    @property
    def busy(self) -> int:
        """Workers running a task or still starting: something ``wait`` can wait for."""
        return sum(1 for worker in self._workers if worker.task is not None or not worker.ready)

    def submit(self, task_id: str, node: SqlNode, inputs: NodeInputs) -> bool:
        """Send a task to an idle worker, else to one busy with a single task; False (not
        sent) when only busy workers have room and the task is too large to wait in a pipe
        (sending it could block until the worker's current task ends, past its deadline)."""
        free = [w for w in self._workers if w.ready and len(w.tasks) < IN_FLIGHT]
        worker = min(free, key=lambda w: len(w.tasks))  # an idle worker first
        refs: dict[str, int] = {}
        new: dict[int, dict[str, str]] = {}
        for name, columns in inputs.schema.items():
            key = id(columns)
            if key not in worker.sent:
                new[key] = columns
            refs[name] = key
        # Plain pickle: the message holds no descriptor that needs ForkingPickler's reducers.
        data = pickle.dumps((task_id, node, inputs.without_schema(), refs, new), _PROTOCOL)
        if worker.tasks and len(data) > self._held_bytes:
            return False
        if not worker.tasks:
            worker.deadline = self._deadline()
        worker.tasks.append(task_id)
        worker.sent.update(new)
        worker.connection.send_bytes(data)
        return True

    def renew(self, jobs: int, index: RelationIndex, timeout: float | None) -> None:
        """Serve another build with these workers (``diff``'s second side): its relation
        index and time budget, ``jobs`` workers. Call between builds (no task in flight):
        ready workers get the index now (and forget the column lists of the last build, as
        the pool does), workers still starting get it when ready."""
        self._index = index
        self.timeout = timeout
        for worker in self._workers[jobs:]:
            try:
                if worker.ready:
                    worker.connection.send(None)  # it reads the stop and exits
            except OSError:
                pass
            worker.stop(kill=not worker.ready)
        del self._workers[jobs:]
        for worker in self._workers:
            worker.sent.clear()
            if worker.ready:
                worker.connection.send(index)
        self._workers += [_Worker() for _ in range(jobs - len(self._workers))]

    def wait(self) -> list[Finished]:
        """Block until a task finishes (or runs out of time), or a worker becomes ready."""
        busy = [w for w in self._workers if w.task is not None or not w.ready]
        if not busy:
            return []
        deadlines = [w.deadline for w in busy if w.task is not None]
        nearest = min(deadlines, default=float("inf"))
        timeout = None if nearest == float("inf") else max(0.0, nearest - time.monotonic())
        ready = self._ready(busy, timeout)
        finished: list[Finished] = []
        for worker in busy:
            if worker.connection.fileno() in ready:
                if not worker.ready:
                    self._started(worker)
                else:
                    finished.extend(self._receive(worker))
            elif worker.task is not None and time.monotonic() >= worker.deadline:
                finished.append(Finished(worker.tasks.popleft(), None, "timeout"))
                finished.extend(self._replace(worker))
        return finished

    def _deadline(self) -> float:
        return time.monotonic() + self.timeout if self.timeout else float("inf")

    def _ready(self, busy: list[_Worker], timeout: float | None) -> set[int]:
        """The descriptors of ``busy`` workers with something to read (or closed), waiting
        up to ``timeout`` seconds. One poll object for the pool: ``connection.wait`` makes
        and fills a selector on every call (GitLab: 0.12 s -> 0.09 s of waiting's CPU)."""
        wanted = {worker.connection.fileno() for worker in busy}
        for fd in self._watched - wanted:
            self._poll.unregister(fd)
        for fd in wanted - self._watched:
            self._poll.register(fd, select.POLLIN)
        self._watched = wanted
        milliseconds = None if timeout is None else math.ceil(timeout * 1000)
        return {fd for fd, _ in self._poll.poll(milliseconds)}

    def _started(self, worker: _Worker) -> None:
        """A worker that finished starting gets the relation index (it is reading now, so
        sending does not block on a worker still importing)."""
        try:
            worker.connection.recv()
            worker.connection.send(self._index)
        except (EOFError, OSError):
            self._failed_starts += 1
            if self._failed_starts > _STARTS:
                raise DbtLineageError(
                    f"worker processes exit as they start ({sys.executable} -m "
                    "dbt_lineage.resolve.worker): install dbt-lineage again"
                ) from None
            self._replace(worker)
            return
        worker.ready = True

    def _receive(self, worker: _Worker) -> list[Finished]:
        try:
            task_id, text, traceback = worker.connection.recv()
        except (EOFError, OSError):
            task = worker.tasks.popleft()
            requeued = self._replace(worker)
            code = worker.exit_code()
            return [Finished(task, None, f"its worker process died (exit code {code})"), *requeued]
        worker.tasks.popleft()
        if worker.tasks:
            worker.deadline = self._deadline()  # the next task starts now
        result = NodeLineage.from_json(json.loads(text))
        result.cached = False
        if not traceback:
            result.text = text  # the cache stores it as is
        return [Finished(task_id, Outcome(result, traceback))]

    def _replace(self, worker: _Worker) -> list[Finished]:
        """A new worker for one that stopped; the tasks it had not started, to send again."""
        worker.stop(kill=True)
        position = self._workers.index(worker)
        self._workers[position] = _Worker()
        requeued = [Finished(task, None, REQUEUE) for task in worker.tasks]
        worker.tasks.clear()
        return requeued

    def close(self) -> None:
        """Tells ready, idle workers to stop; kills the rest (a worker still starting has
        done no work, and would wait for the relation index before it reads a stop)."""
        self.closed = True
        idle = [w for w in self._workers if w.ready and w.task is None]
        for worker in idle:
            try:
                worker.connection.send(None)
            except (BrokenPipeError, OSError):
                pass
        for worker in self._workers:
            worker.stop(kill=worker not in idle)

    def __enter__(self) -> WorkerPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class SharedWorkers:
    """One worker pool for builds run one after the other (``diff``'s two sides): the
    second starts no worker processes of its own (GitLab: the head, resolving 4 nodes after
    the base filled the cache, spent 0.5 s of CPU starting two workers). Every node is
    still resolved in a worker (``docs/decisions/0009-one-job-in-a-worker.md``). A context
    manager: leaving it stops the workers."""

    def __init__(self) -> None:
        self._pool: WorkerPool | None = None

    def pool(self, jobs: int, index: RelationIndex, timeout: float | None) -> WorkerPool:
        """The pool, started for the first build, renewed for the next (a new one when a
        build stopped half-way closed it)."""
        if self._pool is None or self._pool.closed:
            self._pool = WorkerPool(jobs, index, timeout)
        else:
            self._pool.renew(jobs, index, timeout)
        return self._pool

    def close(self) -> None:
        if self._pool is not None and not self._pool.closed:
            self._pool.close()

    def __enter__(self) -> SharedWorkers:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
