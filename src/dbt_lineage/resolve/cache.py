"""An explicit on-disk cache of per-node resolution results.

One gzip JSON file under the target directory, keyed by a sha256 of everything a node's
result depends on: our version, the cache layout version, sqlglot's version, the dialect,
the compiled SQL, and the names, ids and columns of its upstream relations.
"""

from __future__ import annotations

import gzip
import hashlib
import importlib.metadata
import json
import os
import typing as t
from pathlib import Path

from dbt_lineage._version import __version__
from dbt_lineage.resolve.node_lineage import NodeLineage

CACHE_VERSION = 1
"""Bump when resolution changes in a way that makes old results wrong."""

CACHE_FILE = "dbt_lineage_cache.json.gz"


class LineageCache:
    """Results by key, loaded once, written back once when anything changed."""

    def __init__(self, path: Path | None, *, read: bool = True) -> None:
        self.path = path
        self._entries: dict[str, dict[str, t.Any]] = {}
        self._used: set[str] = set()
        self._dirty = False
        if read and path is not None and path.is_file():
            try:
                with gzip.open(path, "rt", encoding="utf-8") as handle:
                    document = json.load(handle)
                if document.get("version") == _stamp():
                    self._entries = document["entries"]
            except (OSError, ValueError, KeyError, EOFError):
                self._entries = {}

    def get(self, key: str) -> NodeLineage | None:
        entry = self._entries.get(key)
        if entry is None:
            return None
        self._used.add(key)
        return NodeLineage.from_json(entry)

    def put(self, key: str, result: NodeLineage) -> None:
        self._entries[key] = result.document or result.to_json()
        self._used.add(key)
        self._dirty = True

    def save(self) -> None:
        """Write back the entries used in this build (stale ones are dropped)."""
        if self.path is None or not (self._dirty or len(self._used) != len(self._entries)):
            return
        entries = {key: self._entries[key] for key in self._used}
        self.path.parent.mkdir(parents=True, exist_ok=True)
        partial = self.path.with_suffix(".partial")
        # One dumps and one write: json.dump into a gzip stream uses the slow encoder.
        text = json.dumps({"version": _stamp(), "entries": entries}, separators=(",", ":"))
        partial.write_bytes(gzip.compress(text.encode("utf-8"), compresslevel=1))
        os.replace(partial, self.path)


def cache_key(node_id: str, dialect: str, sql: str, upstream: t.Any) -> str:
    """The sha256 of everything a node's resolution depends on."""
    digest = hashlib.sha256()
    payload = [node_id, dialect, sql, upstream]
    digest.update(json.dumps(payload, sort_keys=True, separators=(",", ":")).encode())
    return digest.hexdigest()


def _stamp() -> list[t.Any]:
    return [CACHE_VERSION, __version__, importlib.metadata.version("sqlglot")]
