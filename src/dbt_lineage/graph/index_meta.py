"""Read, and add to, what a fresh query index records beside its tables."""

from __future__ import annotations

import sqlite3
import typing as t
from pathlib import Path

from dbt_lineage.graph.index_file import INDEX_VERSION, index_file


def index_meta(
    lineage_path: str | Path, *, update: t.Mapping[str, str] | None = None
) -> dict[str, str] | None:
    """The ``meta`` table of the index beside ``lineage_path``, when that index is fresh (of
    this version, and written from the lineage.json there now); None otherwise.

    With ``update``, those keys are set first (only in a fresh index): ``build`` records
    there what it built from, and what it printed, so that a build whose inputs have not
    changed can say so without doing the work again.

    >>> index_meta("/nowhere/lineage.json") is None
    True
    """
    expected = index_file(lineage_path)
    if expected.identity is None or not expected.path.is_file():
        return None
    mode = "rw" if update else "ro"
    try:
        connection = sqlite3.connect(
            f"{expected.path.resolve().as_uri()}?mode={mode}", uri=True, isolation_level=None
        )
    except sqlite3.Error:
        return None
    try:
        meta = dict(connection.execute("SELECT key, value FROM meta"))
        if meta.get("version") != str(INDEX_VERSION) or meta.get("identity") != (expected.identity):
            return None
        if update:
            connection.executemany(
                "INSERT OR REPLACE INTO meta VALUES (?, ?)", list(update.items())
            )
            meta.update(update)
        return meta
    except sqlite3.Error:
        return None
    finally:
        connection.close()
