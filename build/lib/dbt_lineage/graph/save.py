"""Write a ``LineageGraph`` as ``lineage.json``."""

from __future__ import annotations

import os
from pathlib import Path

from dbt_lineage.graph.document import encode
from dbt_lineage.graph.model import LineageGraph


def save_graph(graph: LineageGraph, path: str | Path) -> Path:
    """Write ``graph`` to ``path`` atomically (a reader never sees half a file)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(path.suffix + ".partial")
    with partial.open("wb") as handle:
        for piece in encode(graph):
            handle.write(piece)
    os.replace(partial, path)
    return path
