"""The diff of two sides (a base's artifacts and a pull request's), each loaded, or built
when its lineage.json is not current: what ``dbt-lineage diff`` renders."""

from __future__ import annotations

import dataclasses
import re
import typing as t
from pathlib import Path

from dbt_lineage.api.side_lineage import Side, side_lineage
from dbt_lineage.artifacts.names import resolve_name
from dbt_lineage.errors import DbtLineageError, SelectionError
from dbt_lineage.memory import fewer_collections
from dbt_lineage.queries.diff import diff
from dbt_lineage.queries.diff_side import diff_side
from dbt_lineage.resolve.cache import CACHE_FILE, LineageCache


@dataclasses.dataclass(frozen=True)
class Comparison:
    """The diff document, and the two sides it compared."""

    document: dict[str, t.Any]
    before: Side
    after: Side


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
        before = side_lineage(
            base, option="--base", project_dir=project_dir, cache=cache, jobs=jobs
        )
        after = side_lineage(head, option="--head", project_dir=project_dir, cache=cache, jobs=jobs)
        only = _selected(select, before, after) if select else None
        document = diff(
            diff_side(before.graph, before.manifest),
            diff_side(after.graph, after.manifest),
            only=only,
        )
    return Comparison(document, before, after)


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
