"""``dbt_lineage.load``: open the lineage ``dbt-lineage build`` wrote."""

from __future__ import annotations

from pathlib import Path

from dbt_lineage.api.freshness import freshness
from dbt_lineage.api.lineage import Lineage
from dbt_lineage.errors import ArtifactError
from dbt_lineage.graph.index_meta import index_meta


def load(path: str | Path, *, project_dir: str | Path | None = None) -> Lineage:
    """The lineage at ``path``: a dbt target directory holding lineage.json, a dbt project
    directory (its ``target/``), or a lineage.json itself.

    Opens the query index beside lineage.json when it is current (a question then reads
    only the rows it reaches), else reads lineage.json.

    Args:
        path: where the lineage is.
        project_dir: the dbt project, whose vars and seeds some questions read (default:
            the directory above the target directory when it holds dbt_project.yml, else
            the target directory).

    Raises:
        ArtifactError: no lineage.json there, or one older than the manifest.json or
            catalog.json beside it, or unreadable; the message says how to build it.
    """
    lineage_path = _lineage_path(Path(path))
    target = lineage_path.parent
    if project_dir is None:
        above = target.parent
        project_dir = above if (above / "dbt_project.yml").is_file() else target
    project = Path(project_dir)
    how = _how(project, target)
    if not lineage_path.is_file():
        raise ArtifactError(f"no lineage.json at {lineage_path}: {how}", path=lineage_path)
    meta = index_meta(lineage_path)
    graph = None
    if meta is not None:
        from dbt_lineage.graph.indexed_graph import indexed_graph

        graph = indexed_graph(lineage_path, meta=meta)
    from_index = graph is not None
    if graph is None:
        from dbt_lineage.graph.io import load_graph

        try:
            graph = load_graph(lineage_path)
        except ArtifactError as error:
            # its message says what to do; the location goes into the message itself
            raise ArtifactError(error.one_line(), path=lineage_path) from None
    stale = freshness(lineage_path, graph.metadata.manifest_checksum, meta)
    if stale is not None:
        raise ArtifactError(f"{stale} ({lineage_path}): re{how}", path=lineage_path)
    return Lineage(
        graph, path=lineage_path, project_dir=project, target_dir=target, from_index=from_index
    )


def _how(project: Path, target: Path) -> str:
    """How to build the lineage of ``project`` into ``target``."""
    if target == project / "target":
        return (
            f"build it with `dbt-lineage build --project-dir {project}` or "
            f"dbt_lineage.build({str(project)!r})"
        )
    try:
        given = target.relative_to(project)  # dbt takes a relative target path from the project
    except ValueError:
        given = target.absolute()
    return (
        f"build it with `dbt-lineage build --project-dir {project} --target-path {given}` or "
        f"dbt_lineage.build({str(project)!r}, target_path={str(given)!r})"
    )


def _lineage_path(path: Path) -> Path:
    """The lineage.json ``path`` names (a path that is not there names a directory unless it
    ends in ``.json``)."""
    if path.is_file() or (path.suffix == ".json" and not path.is_dir()):
        return path
    if (path / "lineage.json").is_file() or not (path / "dbt_project.yml").is_file():
        return path / "lineage.json"
    return path / "target" / "lineage.json"
