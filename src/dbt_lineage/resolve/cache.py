"""An explicit on-disk cache of per-node resolution results.

One gzip file under the target directory. Each entry is the JSON text of one node's
result (parsed only when a build uses it), keyed by a sha256 of everything that result
depends on: our version, the cache layout version, sqlglot's version, the dialect, the
compiled SQL, and the ids and columns of its upstream relations. Relation names are not in
the key: the SQL's are replaced by marks of the relations' unique ids, in the key and in
the kept result, so that the same code compiled into another database or schema (a diff of
a production manifest against a CI build) reads the same entries (:func:`placeholders`).

The file's first line is a JSON object (``version``, and the ``compiled`` SQL kept for
partial manifests); every further line is one entry, its key, a space and its text as is.
Entry texts are compact JSON, without line breaks: written as lines they need no
escaping as JSON strings, nor unescaping when read (GitLab: 0.10 s -> 0.04 s to lay out).

The gzip container stores without compressing (level 0): the file is a local cache, and
compressing GitLab's 29 MB took 0.13 s of each build (level 1, to 3.7 MB), its reading back
0.06 s; stored, 0.02 s each way.
"""

from __future__ import annotations

import contextlib
import functools
import gzip
import hashlib
import importlib.metadata
import json
import typing as t
from pathlib import Path

from dbt_lineage._version import __version__
from dbt_lineage.errors import OutputError
from dbt_lineage.files import write_file
from dbt_lineage.resolve.node_lineage import NodeLineage

CACHE_VERSION = 5
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
        self._compiled: dict[str, list[str]] = {}
        """Node id -> [checksum of its raw code, its compiled SQL], from the last build that
        had compiled SQL for it."""
        self._holding = False
        self._pending: bool | None = None
        """The ``prune`` of a save ``held`` put off, until a later one writes for both."""
        self._unread = read and path is not None
        """The file is read when first needed: a diff whose two sides' lineage.json are
        current resolves nothing and never needs it (GitLab: 0.15 s of CPU and 60 MB)."""

    def _read(self) -> None:
        self._unread = False
        if self.path is None or not self.path.is_file():
            return
        try:
            text = gzip.decompress(self.path.read_bytes()).decode("utf-8")
            head, _, lines = text.partition("\n")
            document = json.loads(head)
            if document.get("version") == _stamp():
                # A line without a space fails dict()'s pair check: ValueError.
                self._entries = dict(line.split(" ", 1) for line in lines.split("\n") if line)
                self._compiled = document["compiled"]
        except (OSError, ValueError, KeyError, EOFError, AttributeError):
            self._entries, self._compiled = {}, {}  # unreadable: start again

    def get(self, key: str, marks: dict[str, str] | None = None) -> NodeLineage | None:
        """The result kept under ``key``, with each mark of ``marks`` (relation name ->
        mark) back to the name this build's SQL uses."""
        if self._unread:
            self._read()
        entry = self._entries.get(key)
        if entry is None:
            return None
        self._used.add(key)
        if marks:
            entry = placeholders(entry, {_in_json(m): _in_json(n) for n, m in marks.items()})
        return NodeLineage.from_json(json.loads(entry))

    def put(self, key: str, result: NodeLineage, marks: dict[str, str] | None = None) -> None:
        """Keep ``result`` under ``key``, each relation name of ``marks`` that it shows (in an
        expression that holds a subquery) replaced by its mark: a build that names the same
        relations otherwise (another database or schema) reads it with its own names."""
        if self._unread:
            self._read()
        text = result.text or json.dumps(result.to_json(), separators=(",", ":"))
        if marks:
            text = placeholders(text, {_in_json(n): _in_json(m) for n, m in marks.items()})
        self._entries[key] = text
        self._used.add(key)
        self._dirty = True

    def remember_sql(self, node_id: str, checksum: str, sql: str) -> None:
        """Keep a node's compiled SQL for builds from manifests that lack it."""
        if self._unread:
            self._read()
        if checksum and self._compiled.get(node_id) != [checksum, sql]:
            self._compiled[node_id] = [checksum, sql]
            self._dirty = True

    def recall_sql(self, node_id: str, checksum: str) -> str | None:
        """The compiled SQL a node had when its raw code had ``checksum``, if kept."""
        if self._unread:
            self._read()
        kept = self._compiled.get(node_id)
        return kept[1] if checksum and kept is not None and kept[0] == checksum else None

    @contextlib.contextmanager
    def held(self) -> t.Iterator[None]:
        """Inside, the first save asked for is put off until the next, which writes for both
        (pruned only if both asked for it); leaving writes one still put off. ``diff``'s two
        sides share one cache: the head's save writes all the base's did and more (``used``
        keeps growing), so the base's, 0.15 s of CPU on GitLab's project, was written for
        nothing. The head's is written where it was (before its graph is built, not at the
        end, where it raised the diff's peak memory by 13 MB)."""
        self._holding = True
        try:
            yield
        finally:
            self._holding = False
            if self._pending is not None:
                self.save(prune=self._pending)

    def save(self, *, prune: bool = True) -> None:
        """Write the cache back: with ``prune`` (a full build), only the entries this build
        used, so stale ones go; without (a selected build), every entry."""
        if self._holding and self._pending is None:
            self._pending = prune
            return
        if self._pending is not None:
            prune, self._pending = prune and self._pending, None
        if self._unread:
            self._read()
        stale = len(self._used) != len(self._entries)
        if self.path is None or not (self._dirty or (prune and stale)):
            return
        keys = self._used if prune else self._entries
        head = {"version": _stamp(), "compiled": self._compiled}
        lines = [json.dumps(head, separators=(",", ":"))]
        lines += [f"{key} {self._entries[key]}" for key in keys]
        try:
            write_file(self.path, gzip.compress("\n".join(lines).encode("utf-8"), compresslevel=0))
        except OutputError:
            pass  # the cache only saves time: a build that cannot keep it still succeeds


def cache_key(node_id: str, dialect: str, sql: str, upstream: str) -> str:
    """The sha256 of everything a node's resolution depends on.

    ``upstream`` is the ``repr`` of plain lists, dicts and strings built in a fixed order,
    which names them exactly (and costs a third of a sorted JSON dump); the key is that of
    ``repr([node_id, dialect, upstream_lists])``.
    """
    digest = hashlib.sha256(sql.encode())
    digest.update(f"[{node_id!r}, {dialect!r}, {upstream}]".encode())
    return digest.hexdigest()


def placeholders(text: str, marks: dict[str, str]) -> str:
    """``text`` with each key of ``marks`` replaced by its value, longest first (a longer
    relation name may hold a shorter one). The cache key's SQL names each relation by a mark
    of its unique id, so that a project compiled into another database or schema (a
    production manifest against a CI build) finds the results of the same code."""
    for name in sorted(marks, key=len, reverse=True):
        if name in text:
            text = text.replace(name, marks[name])
    return text


def _in_json(text: str) -> str:
    """``text`` as it reads inside a JSON string."""
    return json.dumps(text)[1:-1]


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
