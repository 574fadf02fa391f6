"""Write a ``LineageGraph`` as ``lineage.json``."""

from __future__ import annotations

from pathlib import Path

from dbt_lineage.files import is_stream, write_file
from dbt_lineage.graph.document import encode
from dbt_lineage.graph.model import LineageGraph


def save_graph(graph: LineageGraph, path: str | Path, *, index: bool = False) -> Path:
    """Write ``graph`` to ``path`` atomically (a reader never sees half a file); with
    ``index``, its query index beside it too, in the same pass (see ``save_index``). A
    stream (``-``, a FIFO, a device: ``files.is_stream``) gets the document, never an index.

    Raises:
        OutputError: ``path`` is not a file that can be written (see ``files.write_file``).
    """
    if not index or is_stream(path):
        return write_file(path, encode(graph))
    from dbt_lineage.graph.save_index import IndexWriter

    writer = IndexWriter(path)
    try:
        written = write_file(path, encode(graph, writer))
    except BaseException:
        writer.abandon()
        raise
    writer.finish(graph)
    return written
