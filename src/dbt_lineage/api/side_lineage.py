"""The lineage of one side of a diff: its lineage.json when current, else a build.

A side is a dbt target directory, or a manifest.json alone (as downloaded from a production
run). The build writes ``lineage.json`` beside the manifest, as ``dbt-lineage build`` does,
so the next diff of the same artifacts reads it instead of resolving again.
"""

from __future__ import annotations

import atexit
import dataclasses
import shutil
import tempfile
from pathlib import Path

from dbt_lineage.api.build_lineage import build_lineage
from dbt_lineage.artifacts.manifest import Manifest, load_manifest
from dbt_lineage.errors import ArtifactError, DbtLineageError
from dbt_lineage.graph.io import load_graph
from dbt_lineage.graph.model import LineageGraph
from dbt_lineage.resolve.cache import LineageCache
from dbt_lineage.resolve.pool import SharedWorkers


@dataclasses.dataclass
class Side:
    """A side's manifest and graph, and whether the graph was built now or read."""

    manifest: Manifest
    graph: LineageGraph
    built: bool
    resolved: int = 0
    cached: int = 0
    manifest_path: Path | None = None


def side_lineage(
    given: str | Path,
    *,
    option: str,
    project_dir: str | Path,
    cache: LineageCache | None,
    jobs: int | None = None,
    workers: SharedWorkers | None = None,
) -> Side:
    """Load (or build) the lineage of the side at ``given``.

    Args:
        given: a target directory holding manifest.json, or a manifest.json file.
        option: the option it came from (``--base``), for messages.
        project_dir: the dbt project (seeds' CSV headers are read from it).
        cache: the resolution cache both sides share (None: each target's own).
        jobs: processes to resolve with.
        workers: worker processes shared with the other side (None: its own).

    Raises:
        ArtifactError: no manifest there, or one of an unsupported version.
    """
    path = Path(given)
    if path.is_file():
        target = path.parent if path.name == "manifest.json" else _alone(path)
    elif path.is_dir():
        target = path
    else:
        raise ArtifactError(
            f"{option}: no such directory or file: give a dbt target directory (with "
            "manifest.json) or a manifest.json",
            path=path,
        )
    if not (target / "manifest.json").is_file():
        raise ArtifactError(
            f"{option}: no manifest.json in this directory: run `dbt compile` there, or give "
            "the manifest.json's path",
            path=target,
        )
    try:
        manifest = load_manifest(target / "manifest.json")
    except ArtifactError as error:
        if path.is_file():
            error.path = str(path)  # the file the user gave, not the folder made for it
        raise
    graph = _current(target, manifest)
    if graph is not None:
        return Side(manifest, graph, built=False, manifest_path=target / "manifest.json")
    built = build_lineage(
        project_dir if Path(project_dir).is_dir() else target,
        target.resolve(),
        cache=cache,
        jobs=jobs,
        workers=workers,
        manifest=manifest,  # read once: GitLab's takes 0.5 s of CPU to load
    )
    return Side(
        manifest,
        built.graph,
        built=True,
        resolved=built.lineage.resolved_count,
        cached=built.lineage.cached_count,
        manifest_path=target / "manifest.json",
    )


def _alone(path: Path) -> Path:
    """A directory where ``path`` (a manifest under another name) is ``manifest.json``."""
    folder = Path(tempfile.mkdtemp(prefix="dbt-lineage-diff-"))
    atexit.register(shutil.rmtree, folder, True)
    (folder / "manifest.json").symlink_to(path.resolve())
    return folder


def _current(target: Path, manifest: Manifest) -> LineageGraph | None:
    """The side's lineage.json when it was built from this manifest (and catalog)."""
    path = target / "lineage.json"
    if not path.is_file():
        return None
    catalog = target / "catalog.json"
    if catalog.is_file() and catalog.stat().st_mtime > path.stat().st_mtime:
        return None
    try:
        graph = load_graph(path)
    except DbtLineageError:
        return None
    if graph.metadata.manifest_checksum != manifest.metadata.sha256 or graph.metadata.selected:
        return None
    return graph
