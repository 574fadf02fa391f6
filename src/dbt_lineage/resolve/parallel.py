"""Resolve independent nodes on several cores.

Nodes of one dependency wave do not read each other, so a wave can be spread over worker
processes. Workers are forked once per build with the relation index already in memory;
each task carries only the node and its inputs.
"""

from __future__ import annotations

import concurrent.futures
import dataclasses
import gc
import multiprocessing
import os
import typing as t

from dbt_lineage.artifacts.manifest import ManifestNode
from dbt_lineage.resolve.node_lineage import NodeInputs, NodeLineage, SqlNode
from dbt_lineage.resolve.relations import RelationIndex

MIN_PARALLEL_TASKS = 24
"""Below this many nodes in a wave, starting work elsewhere costs more than it saves."""

_worker_index: RelationIndex | None = None


class Resolver:
    """Resolves batches of nodes, in this process or in a pool of ``jobs`` processes."""

    def __init__(self, index: t.Callable[[], RelationIndex], jobs: int | None = None) -> None:
        self._make_index = index
        self._index: RelationIndex | None = None
        self.jobs = max(1, jobs if jobs is not None else (os.cpu_count() or 1))
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None

    def resolve(self, tasks: list[tuple[ManifestNode, NodeInputs]]) -> t.Iterator[NodeLineage]:
        """Results in the order of ``tasks``."""
        if not tasks:
            return
        if self.jobs == 1 or len(tasks) < MIN_PARALLEL_TASKS:
            from dbt_lineage.resolve.resolve_node import resolve_node  # sqlglot only when needed

            for node, inputs in tasks:
                yield resolve_node(node, dataclasses.replace(inputs, index=self.index))
            return
        pool = self._ensure_pool()
        # Only plain values cross the process boundary: unpickling pydantic models and
        # enums costs more than resolving some of the nodes.
        light = [
            (
                (node.unique_id, node.resource_type, node.original_file_path, node.compiled_code),
                dataclasses.replace(inputs, index=None),
            )
            for node, inputs in tasks
        ]
        chunk = max(1, len(light) // (self.jobs * 4))
        for document in pool.map(_resolve_in_worker, light, chunksize=chunk):
            result = NodeLineage.from_json(document)
            result.cached = False
            result.document = document  # the cache stores it as is
            yield result

    @property
    def index(self) -> RelationIndex:
        if self._index is None:
            self._index = self._make_index()
        return self._index

    def _ensure_pool(self) -> concurrent.futures.ProcessPoolExecutor:
        if self._pool is None:
            context = multiprocessing.get_context(
                "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
            )
            self._pool = concurrent.futures.ProcessPoolExecutor(
                max_workers=self.jobs,
                mp_context=context,
                initializer=_start_worker,
                initargs=(self.index,),
            )
        return self._pool

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown()
            self._pool = None

    def __enter__(self) -> Resolver:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _start_worker(index: RelationIndex) -> None:
    global _worker_index
    # Parsed SQL trees are many small objects with parent links: collect cycles less often.
    gc.freeze()
    gc.set_threshold(50_000, 50, 100)
    from dbt_lineage.resolve import resolve_node  # noqa: F401 - import once per worker, not per task

    _worker_index = index


def _resolve_in_worker(task: tuple[tuple[str, str, str, str | None], NodeInputs]) -> dict:
    from dbt_lineage.resolve.resolve_node import resolve_node

    (unique_id, resource_type, path, sql), inputs = task
    node = SqlNode(unique_id, resource_type, path, sql)
    return resolve_node(node, dataclasses.replace(inputs, index=_worker_index)).to_json()
