"""The settings a project gives dbt-lineage: ``dbt_project.yml`` vars and ``dbt_lineage.yml``."""

from __future__ import annotations

import typing as t
from pathlib import Path

from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError

from dbt_lineage.errors import ConfigError

SETTINGS_FILE = "dbt_lineage.yml"
"""An optional file next to ``dbt_project.yml``; its keys override the project's vars."""


def project_vars(project_dir: str | Path) -> dict[str, t.Any]:
    """The vars dbt-lineage reads, merged: ``dbt_project.yml`` then ``dbt_lineage.yml``.

    From ``dbt_project.yml``: the global ``vars:`` and the ones scoped to the project itself
    (``vars: {shop: {...}}``), which win, as in dbt. Then every top-level key of
    ``dbt_lineage.yml`` (same names, e.g. ``dbt_lineage_classification_tags``), which wins
    over both. Values are read as written: Jinja in a var is not rendered. A missing file
    gives nothing.

    Raises:
        ConfigError: a file that is not valid YAML, or whose vars are not a mapping.
    """
    project_dir = Path(project_dir)
    merged: dict[str, t.Any] = {}
    project = _read(project_dir / "dbt_project.yml")
    if project:
        found = project.get("vars") or {}
        if not isinstance(found, dict):
            raise ConfigError(
                "`vars:` is not a mapping: write `vars: {name: value}`",
                path=project_dir / "dbt_project.yml",
            )
        name = project.get("name")
        scoped = found.get(name)
        merged.update((key, value) for key, value in found.items() if key != name)
        if isinstance(scoped, dict):
            merged.update(scoped)
    merged.update(_read(project_dir / SETTINGS_FILE))
    return merged


def _read(path: Path) -> dict[str, t.Any]:
    if not path.is_file():
        return {}
    try:
        document = YAML(typ="safe", pure=True).load(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, YAMLError) as error:
        detail = " ".join(str(error).split())[:200]
        raise ConfigError(f"cannot read {path.name} ({detail}): fix the YAML", path=path) from error
    if document is None:
        return {}
    if not isinstance(document, dict):
        raise ConfigError(f"{path.name} is not a YAML mapping: write `key: value` lines", path=path)
    return document
