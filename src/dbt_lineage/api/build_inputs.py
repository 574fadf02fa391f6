"""What a full ``dbt-lineage build`` depends on, so that a build with the same inputs can
keep the lineage.json it wrote last time instead of writing the same bytes again.

The inputs: the code of this package (every module, not only the engine: the graph and its
JSON layout shape lineage.json too) and sqlglot's version; the bytes of manifest.json and
catalog.json; the size and time of each seed's CSV file (a seed without catalog columns
takes them from its header); and the options that change results (``--jobs``,
``--node-timeout``). The build records them in the query index beside lineage.json, with
what it printed; the index is fresh only while lineage.json is the file that build wrote.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.metadata
import json
import typing as t
from pathlib import Path

from dbt_lineage.graph.model import LineageGraph, NodeType

_CHUNK = 1 << 20


def build_inputs(
    target: Path,
    *,
    jobs: int | None,
    node_timeout: float | None,
    manifest: str | None,
    catalog: bool = True,
) -> dict[str, t.Any]:
    """The inputs a build in ``target`` reads now, less the seeds (see ``seed_files``).

    ``manifest`` is the sha256 of the manifest file, which the build computed with the
    record the index keeps of it (``api.stale.manifest_record``: one read of the file for
    both). None for a build that is not compared with the last one: that records the sha256
    of the manifest it loads instead (the same digest, which loading computes anyway:
    GitLab's 54 MB cost 0.05 s to hash). Without ``catalog`` (a build that does not read
    it), the catalog's digest is None.
    """
    return {
        "code": _code(),
        "manifest": manifest,
        "catalog": file_digest(target / "catalog.json") if catalog else None,
        "options": [jobs, node_timeout],
    }


def seed_files(graph: LineageGraph, project_dir: Path) -> list[list[t.Any]]:
    """Each seed's CSV path with its size and modification time (None: missing)."""
    files = []
    for node in graph.nodes.values():
        if node.type is NodeType.SEED and node.path:
            files.append([node.path, *_status(project_dir / node.path)])
    return files


def unchanged(recorded: dict[str, t.Any], now: dict[str, t.Any], project_dir: Path) -> bool:
    """Whether the inputs ``recorded`` by a build (``build_inputs`` plus ``seeds``) are the
    inputs ``now``, the seeds' files included."""
    if {key: recorded.get(key) for key in now} != now:
        return False
    seeds = recorded.get("seeds")
    if not isinstance(seeds, list):
        return False
    return all(
        isinstance(seed, list) and seed[1:] == _status(project_dir / str(seed[0])) for seed in seeds
    )


def _status(path: Path) -> list[int | None]:
    try:
        status = path.stat()
    except OSError:
        return [None, None]
    return [status.st_size, status.st_mtime_ns]


def file_digest(path: Path) -> str | None:
    """The sha256 of the file at ``path`` (hex), None when there is none."""
    digest = hashlib.sha256()
    try:
        with open(path, "rb") as stream:
            while chunk := stream.read(_CHUNK):
                digest.update(chunk)
    except FileNotFoundError:
        return None
    return digest.hexdigest()


@functools.lru_cache(maxsize=1)
def _code() -> str:
    """A fingerprint of this package's code and of sqlglot's version."""
    package = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256(importlib.metadata.version("sqlglot").encode())
    for path in sorted(package.rglob("*.py")):
        digest.update(str(path.relative_to(package)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def dumps(inputs: dict[str, t.Any]) -> str:
    """The inputs as the index records them."""
    return json.dumps(inputs, separators=(",", ":"), sort_keys=True)
