"""Everything dbt left in a project's target directory, loaded in one call."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from dbt_lineage.artifacts.catalog import Catalog, load_catalog
from dbt_lineage.artifacts.consistency import consistency
from dbt_lineage.artifacts.manifest import Manifest, load_manifest
from dbt_lineage.artifacts.run_results import RunResults, load_run_results
from dbt_lineage.errors import ArtifactError
from dbt_lineage.memory import release_memory


@dataclasses.dataclass(frozen=True)
class ProjectArtifacts:
    """A project's manifest, and its catalog and run results when dbt wrote them."""

    target_path: Path
    manifest: Manifest
    catalog: Catalog | None
    run_results: RunResults | None
    warnings: tuple[str, ...] = ()
    """What the user should know about the artifacts (a catalog of another project...)."""


def load_project(
    project_dir: str | Path = ".",
    target_path: str | Path | None = None,
    *,
    run_results: bool = False,
    catalog: bool = True,
    manifest: Manifest | None = None,
) -> ProjectArtifacts:
    """Load ``manifest.json`` (required), ``catalog.json`` (when present) and, when asked,
    ``run_results.json`` (when present).

    Args:
        project_dir: the dbt project directory.
        target_path: where dbt wrote its artifacts; ``<project_dir>/target`` by default.
            A relative path is taken relative to ``project_dir``, as dbt does.
        run_results: also load ``run_results.json``.
        catalog: load ``catalog.json`` (False: resolve from the manifest alone).
        manifest: the target's ``manifest.json`` when the caller has loaded it already
            (``diff`` reads it to see whether a side's lineage.json is current): not read
            again.

    Raises:
        ArtifactError: the manifest is missing or unreadable, or an artifact that exists
            is of an unsupported version.
    """
    project_dir = Path(project_dir)
    if not project_dir.is_dir():
        raise ArtifactError(
            "the dbt project directory does not exist: pass --project-dir with your project's "
            "directory",
            path=project_dir,
        )
    target = Path(target_path) if target_path is not None else Path("target")
    if not target.is_absolute():
        target = project_dir / target
    manifest_path = target / "manifest.json"
    if not manifest_path.is_file():
        raise ArtifactError(
            "no manifest.json: run `dbt compile` (or `dbt build`) first, or pass --target-path",
            path=manifest_path,
        )
    if manifest is None:
        manifest = load_manifest(manifest_path)
        release_memory()  # the parser's buffers for a large manifest
    catalog_path = target / "catalog.json"
    found = load_catalog(catalog_path) if catalog and catalog_path.is_file() else None
    warnings: tuple[str, ...] = ()
    if found is not None:
        found, warnings = consistency(manifest, found)
    results_path = target / "run_results.json"
    results = load_run_results(results_path) if run_results and results_path.is_file() else None
    return ProjectArtifacts(target, manifest, found, results, warnings)
