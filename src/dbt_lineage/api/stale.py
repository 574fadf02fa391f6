"""Say so when lineage.json was built from another manifest than the one dbt wrote since.

The rule. A full ``dbt-lineage build`` records, in the query index beside lineage.json, the
manifest.json it read: its size and modification time, and the sha256 and the size of its
content less its ``metadata`` (which holds the invocation id and time: ``dbt compile`` run
again on the same code writes the same content with new metadata). A command that answers
from lineage.json compares that with ``<target>/manifest.json`` now:

1. the same size and time: the same file (a stat, nothing read);
2. else, content of another size (the file's size less its ``metadata``, read from its
   first bytes): another manifest, without reading the rest;
3. else the same content digest (a streamed read, about 0.1 s per 100 MB): the same
   manifest, and the index records the file's new size and time, so that the next command
   is back to step 1;
4. else (or without an index: lineage.json's own ``manifest_checksum``, of the whole file,
   is compared) another manifest: :func:`stale` returns the warning the commands print, one
   line on standard error, with how to rebuild (nothing in this layer prints).

A manifest that differs only in what lineage does not read (``dbt run`` compiles the tests
too, ``dbt test`` leaves models uncompiled) is another manifest all the same: the rule
compares files, not their meaning, so that it never costs a parse. The queries never rebuild
on their own (they answer in a second from the index; a build takes seconds to minutes);
``report`` rebuilds a stale lineage.json first, and ``report``, ``diff`` and
``openlineage`` build one when there is none.
"""

from __future__ import annotations

import hashlib
import json
import os
import typing as t
from pathlib import Path

from dbt_lineage.graph.index_meta import index_meta

MANIFEST = "manifest"
"""The key, in the index's ``meta`` table, of the manifest built from (``manifest_record``)."""

_ANSWERS: dict[tuple[t.Any, ...], str | None] = {}
"""The last answer of ``stale``, by its files' paths and stats (one entry: no growth)."""
_CHUNK = 1 << 20
_HEAD = b'{"metadata": '


def stale(lineage_path: Path, manifest_path: Path, checksum: str | None) -> str | None:
    """The warning a command prints when ``lineage_path`` (whose metadata records
    ``checksum``, the sha256 of the manifest file it was built from) was built from another
    manifest than ``manifest_path``; None when it was, or when there is nothing to compare.

    >>> stale(Path("/nowhere/lineage.json"), Path("/nowhere/manifest.json"), "00") is None
    True
    """
    try:
        status = manifest_path.stat()
        built = lineage_path.stat()
    except OSError:
        return None
    key = (lineage_path, manifest_path, checksum, _stamp(status), _stamp(built))
    if key not in _ANSWERS:  # a command asks twice (its warning, then its error's reason)
        _ANSWERS.clear()
        _ANSWERS[key] = _stale(lineage_path, manifest_path, checksum, status)
    return _ANSWERS[key]


def _stale(
    lineage_path: Path, manifest_path: Path, checksum: str | None, status: os.stat_result
) -> str | None:
    meta = index_meta(lineage_path) or {}
    recorded = _recorded(meta)
    if recorded.get("file") == [status.st_size, status.st_mtime_ns]:
        return None
    if recorded.get("content"):
        if _same_content(manifest_path, status, recorded):
            recorded["file"] = [status.st_size, status.st_mtime_ns]
            index_meta(lineage_path, update={MANIFEST: json.dumps(recorded)})
            return None
    elif not checksum or _digests(manifest_path, content=False)[0] == checksum:
        return None
    return (
        f"Warning: {lineage_path} was built from another manifest.json than {manifest_path} "
        "(dbt ran since): answers may miss or misstate new and changed nodes; run "
        "`dbt-lineage build` (it resolves only what changed)"
    )


class ManifestRecord(t.NamedTuple):
    """What a build records of the manifest it is about to read (see the module)."""

    record: str | None
    """The JSON the index keeps under ``MANIFEST``: the file's size and time, its content's
    digest and size; None when there is no manifest."""
    digest: str | None
    """The sha256 of the whole file (the build's ``inputs`` record it too: one read)."""


def manifest_record(manifest_path: Path) -> ManifestRecord:
    """What the index records of the manifest a build is about to read, and the sha256 of
    the whole file, from one read.

    >>> import tempfile, os
    >>> one, two = (tempfile.NamedTemporaryFile("w", delete=False) for _ in range(2))
    >>> _ = one.write('{"metadata": {"invocation_id": "a"}, "nodes": {}}'); one.close()
    >>> _ = two.write('{"metadata": {"invocation_id": "bb"}, "nodes": {}}'); two.close()
    >>> first, second = (manifest_record(Path(f.name)) for f in (one, two))
    >>> [json.loads(r.record)["content"] for r in (first, second)].count(None)
    0
    >>> json.loads(first.record)["content"] == json.loads(second.record)["content"]
    True
    >>> json.loads(first.record)["content_size"], first.digest == second.digest
    (14, False)
    >>> os.unlink(one.name); os.unlink(two.name)
    >>> manifest_record(Path("/nowhere/manifest.json"))
    ManifestRecord(record=None, digest=None)
    """
    try:
        status = manifest_path.stat()
    except OSError:
        return ManifestRecord(None, None)
    whole, content, size = _digests(manifest_path)
    if content is None:
        return ManifestRecord(None, None)
    file = [status.st_size, status.st_mtime_ns]
    record = {"file": file, "content": content, "content_size": size}
    return ManifestRecord(json.dumps(record), whole)


def _digests(
    path: Path, *, whole: bool = True, content: bool = True
) -> tuple[str | None, str | None, int]:
    """The sha256 of the file (when ``whole``), and of its content less a leading
    ``metadata`` object (when ``content``; the whole file's when it does not start with one,
    as dbt writes it), with that content's size in bytes; None, None, 0 when it cannot be
    read."""
    whole_digest, content_digest, size = hashlib.sha256(), hashlib.sha256(), 0
    try:
        with open(path, "rb") as stream:
            head = stream.read(_CHUNK)
            if whole:
                whole_digest.update(head)
            rest = head[_metadata_end(head) :]
            size = len(rest)
            if content:
                content_digest.update(rest)
            while chunk := stream.read(_CHUNK):
                size += len(chunk)
                if whole:
                    whole_digest.update(chunk)
                if content:
                    content_digest.update(chunk)
    except OSError:
        return None, None, 0
    return (
        whole_digest.hexdigest() if whole else None,
        content_digest.hexdigest() if content else None,
        size,
    )


def _same_content(path: Path, status: os.stat_result, recorded: dict[str, t.Any]) -> bool:
    """Whether the manifest at ``path`` has the content ``recorded``: content of another size
    (read from the file's first bytes, where its ``metadata`` ends) is not, the rest unread;
    else the digests are compared. An index written before sizes were recorded has none."""
    size = recorded.get("content_size")
    if size is not None:
        try:
            with open(path, "rb") as stream:
                start = _metadata_end(stream.read(_CHUNK))
        except OSError:
            return False
        if status.st_size - start != size:
            return False
    return _digests(path, whole=False)[1] == recorded["content"]


def _metadata_end(head: bytes) -> int:
    """The byte offset just past the leading ``"metadata": {...}`` in ``head``, else 0."""
    if not head.startswith(_HEAD):
        return 0
    text = head.decode("utf-8", errors="replace")
    try:
        _, end = json.JSONDecoder().raw_decode(text, len(_HEAD))
    except ValueError:
        return 0
    return len(text[:end].encode("utf-8", errors="replace"))


def _stamp(status: os.stat_result) -> tuple[int, int, int]:
    return (status.st_ino, status.st_size, status.st_mtime_ns)


def _recorded(meta: dict[str, str]) -> dict[str, t.Any]:
    try:
        value = json.loads(meta.get(MANIFEST, "{}"))
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}
