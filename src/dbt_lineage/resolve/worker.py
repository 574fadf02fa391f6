"""One node's resolution behind the per-node boundary, in a worker process.

Any exception but the engine's own ``SqlError`` (which ``resolve_node`` turns into a
diagnostic) is a bug of ours: it becomes an ``internal_error`` diagnostic on that node,
naming the node and its file, with the traceback kept for ``--debug``; the build goes on.
A fault that kills the process instead (a crash in compiled code) is the pool's to report.

``DBT_LINEAGE_INJECT_FAULT=KIND:NODE_ID`` makes the worker fail on that node, for tests of
both boundaries: ``raise`` raises an exception, ``segv`` sends the worker SIGSEGV.
"""

from __future__ import annotations

import dataclasses
import gc
import json
import os
import signal
import traceback
import typing as t

from dbt_lineage.memory import collected_after
from dbt_lineage.resolve.failures import Outcome, internal_error
from dbt_lineage.resolve.node_lineage import NodeInputs, SqlNode
from dbt_lineage.resolve.relations import RelationIndex
from dbt_lineage.resolve.resolve_node import resolve_node

_FAULT_KIND, _, _FAULT_NODE = os.environ.get("DBT_LINEAGE_INJECT_FAULT", "").partition(":")


def worker(node: SqlNode, inputs: NodeInputs) -> Outcome:
    """Module entry: resolve one node; a bug becomes an ``internal_error`` diagnostic."""
    with collected_after():
        try:
            if _FAULT_NODE and node.unique_id == _FAULT_NODE:
                _inject_fault()
            return Outcome(resolve_node(node, inputs))
        except Exception as error:  # noqa: BLE001 - the per-node boundary
            text = " ".join(f"{type(error).__name__}: {error}".split())[:500]
            return Outcome(internal_error(node, inputs, text), traceback.format_exc())


def _inject_fault() -> None:
    if _FAULT_KIND == "segv":
        os.kill(os.getpid(), signal.SIGSEGV)
    raise RuntimeError(f"fault injected by DBT_LINEAGE_INJECT_FAULT={_FAULT_KIND}:{_FAULT_NODE}")


def serve(connection: t.Any) -> None:
    """A worker process: receive the relation index, then tasks until told to stop (a new
    index between tasks starts another build's: ``diff`` resolves both sides with the same
    workers)."""
    # Parsed SQL trees are many small objects with parent links: collect cycles less often.
    gc.freeze()
    gc.set_threshold(50_000, 50, 100)
    connection.send("ready")
    index: RelationIndex | None = connection.recv()
    if index is None:  # told to stop before any task
        return
    # Upstream column lists by the key the pool gave them: each comes once, and a task names
    # the ones its schema holds (a wide relation read by many models crosses once).
    relations: dict[int, dict[str, str]] = {}
    while True:
        message = connection.recv()
        if message is None:
            return
        if isinstance(message, RelationIndex):  # the next build's (``pool.renew``)
            index = message
            relations.clear()
            continue
        task_id, node, inputs, refs, new = message
        relations.update(new)
        schema = {name: relations[key] for name, key in refs.items()}
        outcome = worker(node, dataclasses.replace(inputs, index=index, schema=schema))
        # JSON text crosses the process boundary: it pickles for nothing, and the cache
        # keeps it as it is.
        text = json.dumps(outcome.result.to_json(), separators=(",", ":"))
        connection.send((task_id, text, outcome.traceback))


if __name__ == "__main__":
    import multiprocessing.connection
    import sys

    serve(multiprocessing.connection.Connection(int(sys.argv[1])))
