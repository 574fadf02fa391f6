"""Whether a lineage.json is older than the dbt artifacts beside it, cheaply: a file that is
not newer than lineage.json is current; a newer one is hashed and compared with the digest
the build recorded (dbt rewrites its artifacts on every run, often with the same content)."""

from __future__ import annotations

import json
import typing as t
from pathlib import Path

from dbt_lineage.api.build_inputs import file_digest


def freshness(
    lineage_path: Path, manifest_checksum: str, meta: t.Mapping[str, str] | None
) -> str | None:
    """Why the lineage.json at ``lineage_path`` is stale, or None when it is current.

    Args:
        lineage_path: the lineage.json.
        manifest_checksum: the sha256 of the manifest it was built from (its metadata).
        meta: its index's ``meta`` table (``graph.index_meta``), None without a fresh index:
            the digests of the manifest and catalog the build read.

    >>> freshness(Path("/nowhere/lineage.json"), "", None) is None
    True
    """
    try:
        built = lineage_path.stat().st_mtime_ns
    except OSError:
        return None
    recorded: dict[str, t.Any] = {"manifest": manifest_checksum or None}
    if meta is not None and "inputs" in meta:
        try:
            recorded.update(json.loads(meta["inputs"]))
        except ValueError:
            pass
    for name in ("manifest", "catalog"):
        path = lineage_path.with_name(f"{name}.json")
        try:
            changed = path.stat().st_mtime_ns > built
        except OSError:
            continue
        if changed and file_digest(path) != recorded.get(name):
            return f"{name}.json changed since lineage.json was built"
    return None
