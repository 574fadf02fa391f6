"""An explicit on-disk cache of per-node resolution results.

One gzip JSON file under the target directory. Each entry is the JSON text of one node's
result (parsed only when a build uses it), keyed by a sha256 of everything that result
depends on: our version, the cache layout version, sqlglot's version, the dialect, the
compiled SQL, and the names, ids and columns of its upstream relations.
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import importlib.metadata
import json
import os
import typing as t
from pathlib import Path

from dbt_lineage._version import __version__
from dbt_lineage.resolve.node_lineage import NodeLineage

CACHE_VERSION = 3
"""Bump when the layout of an entry changes (any change to the engine's code already
invalidates old entries through the code's fingerprint)."""

CACHE_FILE = "dbt_lineage_cache.json.gz"


class LineageCache:
    """Results by key, loaded once, written back once when anything changed."""

    def __init__(self, path: Path | None, *, read: bool = True) -> None:
        self.path = path
        self._entries: dict[str, str] = {}
        """Each entry is kept as its JSON text and parsed only when a build asks for it."""
        self._used: set[str] = set()
        self._dirty = False
        if read and path is not None and path.is_file():
            try:
                document = json.loads(gzip.decompress(path.read_bytes()))
                if document.get("version") == _stamp():
                    self._entries = document["entries"]
            except (OSError, ValueError, KeyError, EOFError, AttributeError):
                self._entries = {}  # unreadable: start again

    def get(self, key: str) -> NodeLineage | None:
        entry = self._entries.get(key)
        if entry is None:
            return None
        self._used.add(key)
        return NodeLineage.from_json(json.loads(entry))

    def put(self, key: str, result: NodeLineage) -> None:
        document = result.document or result.to_json()
        self._entries[key] = json.dumps(document, separators=(",", ":"))
        self._used.add(key)
        self._dirty = True

    def save(self, *, prune: bool = True) -> None:
        """Write the cache back: with ``prune`` (a full build), only the entries this build
        used, so stale ones go; without (a selected build), every entry."""
        stale = len(self._used) != len(self._entries)
        if self.path is None or not (self._dirty or (prune and stale)):
            return
        entries = {key: self._entries[key] for key in self._used} if prune else self._entries
        self.path.parent.mkdir(parents=True, exist_ok=True)
        partial = self.path.with_suffix(".partial")
        # One dumps and one write: json.dump into a gzip stream uses the slow encoder.
        text = json.dumps({"version": _stamp(), "entries": entries}, separators=(",", ":"))
        partial.write_bytes(gzip.compress(text.encode("utf-8"), compresslevel=1))
        os.replace(partial, self.path)


def cache_key(node_id: str, dialect: str, sql: str, upstream: t.Any) -> str:
    """The sha256 of everything a node's resolution depends on.

    ``upstream`` is plain lists, dicts and strings built in a fixed order, so its ``repr``
    names it exactly (and costs a third of a sorted JSON dump).
    """
    digest = hashlib.sha256(sql.encode())
    digest.update(repr([node_id, dialect, upstream]).encode())
    return digest.hexdigest()


def _stamp() -> list[t.Any]:
    return [CACHE_VERSION, __version__, importlib.metadata.version("sqlglot"), _engine()]


@functools.lru_cache(maxsize=1)
def _engine() -> str:
    """A fingerprint of the code that resolves nodes: a change to it forgets old results
    even when the version number has not moved (as while developing)."""
    package = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    for path in sorted(
        [*package.joinpath("sql").glob("*.py"), *Path(__file__).parent.glob("*.py")]
    ):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]
