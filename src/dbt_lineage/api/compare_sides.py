"""The diff of two sides (a base's artifacts and a pull request's), each loaded, or built
when its lineage.json is not current: what ``dbt-lineage diff`` renders."""

from __future__ import annotations

import dataclasses
import re
import typing as t
from pathlib import Path

from dbt_lineage.api.side_lineage import Side, side_lineage
from dbt_lineage.artifacts.catalog import Catalog, load_catalog
from dbt_lineage.artifacts.names import resolve_name
from dbt_lineage.artifacts.raw_code import raw_code
from dbt_lineage.errors import ArtifactError, DbtLineageError, SelectionError
from dbt_lineage.memory import fewer_collections
from dbt_lineage.queries.diff import diff
from dbt_lineage.queries.diff_side import checksum_scheme, diff_side, seed_code
from dbt_lineage.resolve.cache import CACHE_FILE, LineageCache
from dbt_lineage.resolve.pool import SharedWorkers


@dataclasses.dataclass(frozen=True)
class Comparison:
    """The diff document, the two sides it compared, and what to tell the user about how
    (``notes``: e.g. code compared instead of checksums across dbt versions)."""

    document: dict[str, t.Any]
    before: Side
    after: Side
    notes: tuple[str, ...] = ()


def compare_sides(
    base: str | Path,
    head: str | Path,
    *,
    project_dir: str | Path = ".",
    select: t.Sequence[str] = (),
    no_cache: bool = False,
    jobs: int | None = None,
) -> Comparison:
    """Compare the base side with the head side at column precision.

    Args:
        base: a dbt target directory, or a manifest.json alone (production's).
        head: the pull request's dbt target directory.
        project_dir: the dbt project (seeds' CSV headers are read from it).
        select: compare only the nodes these names name (as dbt writes them; several in one
            string separated by spaces or commas).
        no_cache: resolve both sides again.
        jobs: processes to resolve with.

    Raises:
        DbtLineageError: a side that is no target directory or has no manifest; a name in
            ``select`` that names no node.
    """
    head_dir = Path(head)
    if not head_dir.is_dir():
        raise DbtLineageError(
            "--head: not a directory: give the pull request's dbt target directory",
            path=head_dir,
        )
    cache = LineageCache(head_dir / CACHE_FILE, read=not no_cache)
    with fewer_collections():
        # One pool of workers and one write of the cache for both sides.
        with SharedWorkers() as workers, cache.held():
            before, after = (
                side_lineage(
                    given,
                    option=option,
                    project_dir=project_dir,
                    cache=cache,
                    jobs=jobs,
                    workers=workers,
                )
                for given, option in ((base, "--base"), (head, "--head"))
            )
        only = _selected(select, before, after) if select else None
        code, notes = _code(before, after, Path(project_dir))
        document = diff(
            diff_side(before.graph, before.manifest, code=code[0], catalog=_catalog(before)),
            diff_side(after.graph, after.manifest, code=code[1], catalog=_catalog(after)),
            only=only,
        )
    return Comparison(document, before, after, notes)


def _catalog(side: Side) -> Catalog | None:
    """The side's catalog.json beside its manifest, if any (a catalog that does not load
    only costs the contract check its warehouse types)."""
    if side.manifest_path is None:
        return None
    path = side.manifest_path.parent / "catalog.json"
    if not path.is_file():
        return None
    try:
        return load_catalog(path)
    except ArtifactError:
        return None


def _code(
    before: Side, after: Side, project_dir: Path
) -> tuple[tuple[dict[str, str] | None, dict[str, str] | None], tuple[str, ...]]:
    """Both sides' code as written, when their dbt versions checksum files differently (dbt
    1.12 and 1.11: every node would differ), with a note saying so; None, None otherwise
    (checksums compare)."""
    versions = [side.manifest.metadata.dbt_version for side in (before, after)]
    if len({checksum_scheme(version) for version in versions}) == 1:
        return (None, None), ()
    note = (
        f"The base was written by dbt {versions[0]} and the head by dbt {versions[1]}, which "
        "checksum files differently: comparing the nodes' code instead."
    )
    return (_side_code(before, project_dir), _side_code(after, project_dir)), (note,)


def _side_code(side: Side, project_dir: Path) -> dict[str, str]:
    """A side's models' and snapshots' code, and its seeds' data as ``seed_code`` gives it
    from their CSV files in ``project_dir`` (when there)."""
    code = raw_code(side.manifest_path) if side.manifest_path is not None else {}
    scheme = checksum_scheme(side.manifest.metadata.dbt_version)
    for node_id, node in side.manifest.relation_nodes().items():
        if node.resource_type != "seed":
            continue
        try:
            data = (project_dir / node.original_file_path).read_bytes()
        except OSError:
            continue
        code[node_id] = seed_code(data, str(node.checksum.get("checksum", "")), scheme)
    return code


def _selected(select: t.Sequence[str], before: Side, after: Side) -> set[str]:
    """Node ids the names name, on either side (a removed node is named on the base)."""
    names = [part for item in select for part in re.split(r"[\s,]+", item) if part]
    found: set[str] = set()
    for name in names:
        error: SelectionError | None = None
        for side in (after, before):
            candidates = [node.named for node in side.manifest.relation_nodes().values()]
            try:
                found.add(resolve_name(name.strip("+"), candidates))
                break
            except SelectionError as missing:
                error = error or missing
        else:
            assert error is not None
            raise error
    return found
