"""Where the query index of a ``lineage.json`` lives, and which ``lineage.json`` it indexes.

``dbt-lineage build`` writes ``lineage.index.sqlite`` beside ``lineage.json`` (``X.json`` gets
``X.index.sqlite``): the same graph as a SQLite file (stdlib ``sqlite3``), so that
``impact``, ``upstream`` and ``downstream`` read only the rows a query reaches instead of the
whole JSON document. The index records the identity of the ``lineage.json`` it was written
from (size, modification time in nanoseconds, a hash of its first bytes, which hold the
metadata with the build's time); an index whose identity no longer matches is stale and is
not read.

Tables (``INDEX_SCHEMA``):

- ``meta(key, value)``: ``version`` (``INDEX_VERSION``), ``identity`` (JSON list) and
  ``metadata`` (lineage.json's);
- ``nodes(id, node_id, short, entry)``: every key an edge or node uses, with its integer
  id, in lineage.json's order; for a relation or exposure (NULL for a key only an edge
  names) the name a bare name matches (``graph.model.short_name``) and its lineage.json
  entry, columns included (JSON, the very text lineage.json holds);
- ``edges(source, source_column, target, target_column, type, kind, expression)``: one row
  per schema-layer edge, in the order ``lineage.json`` lists them (``rowid``), a relation
  end having a NULL column; indexed by each end's node (a query reads a node's edges at
  once: a walk that reaches one column of a relation often reaches its others).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
from pathlib import Path

INDEX_VERSION = 4
"""Bump when the tables change: an index of another version is not read."""

INDEX_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE nodes (
    id INTEGER PRIMARY KEY, node_id TEXT NOT NULL UNIQUE, short TEXT, entry TEXT
);
CREATE TABLE edges (
    source INTEGER NOT NULL, source_column TEXT, target INTEGER NOT NULL, target_column TEXT,
    type TEXT NOT NULL, kind TEXT, expression TEXT NOT NULL
);
"""
INDEX_KEYS = """
CREATE INDEX nodes_by_short ON nodes (short);
CREATE INDEX edges_by_source ON edges (source);
CREATE INDEX edges_by_target ON edges (target);
"""

_HEAD = 4096
"""Bytes of lineage.json hashed into its identity (its metadata, with the build's time)."""


@dataclasses.dataclass(frozen=True)
class IndexFile:
    """The index of one ``lineage.json``.

    Attributes:
        path: where the index is (or would be).
        identity: the lineage.json's identity as the index stores it (a JSON string), or
            None when there is no lineage.json to index.
    """

    path: Path
    identity: str | None


def index_file(lineage_path: str | Path) -> IndexFile:
    """The index beside ``lineage_path`` and the identity the lineage.json has now.

    >>> index_file("/nowhere/target/lineage.json")
    IndexFile(path=PosixPath('/nowhere/target/lineage.index.sqlite'), identity=None)
    """
    lineage_path = Path(lineage_path)
    stem = lineage_path.name[:-5] if lineage_path.name.endswith(".json") else lineage_path.name
    path = lineage_path.with_name(f"{stem}.index.sqlite")
    try:
        with open(lineage_path, "rb") as stream:
            status = os.fstat(stream.fileno())
            head = stream.read(_HEAD)
    except OSError:
        return IndexFile(path, None)
    digest = hashlib.sha256(head).hexdigest()
    return IndexFile(path, json.dumps([status.st_size, status.st_mtime_ns, digest]))
