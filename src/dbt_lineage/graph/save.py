"""Write a ``LineageGraph`` as ``lineage.json``."""

from __future__ import annotations

from pathlib import Path

from dbt_lineage.files import write_file
from dbt_lineage.graph.document import encode
from dbt_lineage.graph.model import LineageGraph


def save_graph(graph: LineageGraph, path: str | Path) -> Path:
    """Write ``graph`` to ``path`` atomically (a reader never sees half a file).

    Raises:
        OutputError: ``path`` is not a file that can be written (see ``files.write_file``).
    """
    return write_file(path, encode(graph))
