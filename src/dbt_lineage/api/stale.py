"""Say so when lineage.json was built from another manifest than the one dbt wrote since.

The rule. A full ``dbt-lineage build`` records, in the query index beside lineage.json, the
manifest.json it read: its size and modification time, and the sha256 of its content less
its ``metadata`` (which holds the invocation id and time: ``dbt compile`` run again on the
same code writes the same content with new metadata). A command that answers from
lineage.json compares that with ``<target>/manifest.json`` now:

1. the same size and time: the same file (a stat, nothing read);
2. else the same content digest (a streamed read, about 0.2 s per 100 MB): the same
   manifest, and the index records the file's new size and time, so that the next command
   is back to step 1;
3. else (or without an index: lineage.json's own ``manifest_checksum``, of the whole file,
   is compared) another manifest: one warning line on standard error, with how to rebuild.

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

import click

from dbt_lineage.graph.index_meta import index_meta

MANIFEST = "manifest"
"""The key, in the index's ``meta`` table, of the manifest built from (``manifest_record``)."""

_ANSWERS: dict[tuple[t.Any, ...], str | None] = {}
"""The last answer of ``stale``, by its files' paths and stats (one entry: no growth)."""
_CHUNK = 1 << 20
_HEAD = b'{"metadata": '


def stale(lineage_path: Path, manifest_path: Path, checksum: str | None) -> str | None:
    """The warning to print when ``lineage_path`` (whose metadata records ``checksum``, the
    sha256 of the manifest file it was built from) was built from another manifest than
    ``manifest_path``; None when it was, or when there is nothing to compare.

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
        if manifest_digest(manifest_path)[1] == recorded["content"]:
            recorded["file"] = [status.st_size, status.st_mtime_ns]
            index_meta(lineage_path, update={MANIFEST: json.dumps(recorded)})
            return None
    elif not checksum or manifest_digest(manifest_path)[0] == checksum:
        return None
    return (
        f"Warning: {lineage_path} was built from another manifest.json than {manifest_path} "
        "(dbt ran since): answers may miss or misstate new and changed nodes; run "
        "`dbt-lineage build` (it resolves only what changed)"
    )


def warn_if_stale(lineage_path: Path, manifest_path: Path, checksum: str | None) -> None:
    """Print :func:`stale`'s warning on standard error, if any."""
    warning = stale(lineage_path, manifest_path, checksum)
    if warning:
        click.secho(warning, fg="yellow", err=True)


def manifest_record(manifest_path: Path) -> str | None:
    """What the index records of the manifest a build is about to read (JSON), or None
    when there is none: its size and time, and its content digest (see the module)."""
    try:
        status = manifest_path.stat()
    except OSError:
        return None
    content = manifest_digest(manifest_path)[1]
    if content is None:
        return None
    return json.dumps({"file": [status.st_size, status.st_mtime_ns], "content": content})


def manifest_digest(path: Path) -> tuple[str | None, str | None]:
    """The sha256 of the file, and of its content less a leading ``metadata`` object (the
    whole file's when it does not start with one, as dbt writes it); None, None when it
    cannot be read.

    >>> import tempfile, os
    >>> one, two = (tempfile.NamedTemporaryFile("w", delete=False) for _ in range(2))
    >>> _ = one.write('{"metadata": {"invocation_id": "a"}, "nodes": {}}'); one.close()
    >>> _ = two.write('{"metadata": {"invocation_id": "b"}, "nodes": {}}'); two.close()
    >>> [manifest_digest(Path(f.name))[1] for f in (one, two)].count(None), (
    ...     manifest_digest(Path(one.name))[1] == manifest_digest(Path(two.name))[1])
    (0, True)
    >>> os.unlink(one.name); os.unlink(two.name)
    """
    whole, content = hashlib.sha256(), hashlib.sha256()
    try:
        with open(path, "rb") as stream:
            head = stream.read(_CHUNK)
            whole.update(head)
            content.update(head[_metadata_end(head) :])
            while chunk := stream.read(_CHUNK):
                whole.update(chunk)
                content.update(chunk)
    except OSError:
        return None, None
    return whole.hexdigest(), content.hexdigest()


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
