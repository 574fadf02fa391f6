"""Builds every pair of ``pairs.py`` once per session, with real dbt on DuckDB.

The template is built once (``template_project``: ``dbt build`` and ``dbt docs generate``).
Each side of a pair is a copy of that built project (its DuckDB file included, so that
``is_incremental()`` compiles alike on both sides) with the pair's edits, then ``dbt compile``:
both sides are manifests compiled the same way, and only the edit tells them apart. The
environment-noise pair builds its head for real, in another target schema, with its catalog.
"""

from __future__ import annotations

import shutil
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.dbt_projects import DBT, dbt, run
from tests.diff_pairs.pairs import PAIRS, Edit, Pair

_COPY_IGNORED = shutil.ignore_patterns("logs", "catalog.json", "*.duckdb.wal")


@dataclass(frozen=True)
class BuiltPair:
    """A pair's two dbt target directories."""

    pair: Pair
    base: Path
    head: Path
    dialect: str = "duckdb"


def _compiled(built: Path, name: str, *edits: Edit | None) -> Path:
    """A sibling copy of the built project with ``edits`` applied, compiled: its target."""
    project = built.parent / name
    shutil.copytree(built, project, symlinks=True, ignore=_COPY_IGNORED)
    for edit in edits:
        if edit is not None:
            edit(project)
    run([str(DBT), "compile", "--profiles-dir", "."], project)
    return project / "target"


def _other_schema(built: Path, name: str, schema: str, edit: Edit | None) -> Path:
    """A copy of the template (with ``edit``) built and documented in target schema
    ``schema``."""
    project = built.parent / name
    shutil.copytree(built, project, symlinks=True, ignore=shutil.ignore_patterns("logs", "target"))
    if edit is not None:
        edit(project)
    profiles = project / "profiles.yml"
    if schema != "main":
        profiles.write_text(profiles.read_text().replace("schema: main", f"schema: {schema}", 1))
    dbt(project, "build")
    dbt(project, "docs", "generate")
    return project / "target"


def _build(template: Path, pair: Pair, shared_base: Path) -> BuiltPair:
    if pair.schema is not None:
        head = _other_schema(template, f"pair_{pair.name}", pair.schema, pair.base)
        if pair.base is None:
            return BuiltPair(pair, template / "target", head)
        # both sides built and documented, as the template is
        base = _other_schema(template, f"pair_{pair.name}_base", "main", pair.base)
        return BuiltPair(pair, base, head)
    base = shared_base
    if pair.base is not None:
        base = _compiled(template, f"pair_{pair.name}_base", pair.base)
    return BuiltPair(pair, base, _compiled(template, f"pair_{pair.name}", pair.base, pair.head))


@pytest.fixture(scope="session")
def diff_pairs(request: pytest.FixtureRequest, template_project: Path) -> dict[str, BuiltPair]:
    """The pairs this session's tests use (all of ``PAIRS`` unless ``-k`` picks some), by
    name; two dbt processes at a time."""
    wanted = {
        item.callspec.params["built"]
        for item in request.session.items
        if "built" in getattr(getattr(item, "callspec", None), "params", {})
    }
    pairs = [pair for pair in PAIRS if pair.name in wanted]
    shared_base = _compiled(template_project, "pair_base")
    with ThreadPoolExecutor(max_workers=2) as pool:
        built = pool.map(lambda pair: _build(template_project, pair, shared_base), pairs)
        return {b.pair.name: b for b in built}
