"""The SQL of each node as the project wrote it (Jinja and all), read from the manifest."""

from __future__ import annotations

from pathlib import Path

import pydantic

from dbt_lineage.artifacts._json import read_artifact
from dbt_lineage.artifacts.manifest import SUPPORTED_VERSIONS


class _Node(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(extra="ignore", frozen=True)

    resource_type: str = ""
    raw_code: str | None = None
    raw_sql: str | None = None


class _Manifest(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(extra="ignore", frozen=True)

    nodes: dict[str, _Node] = {}


def raw_code(manifest_path: str | Path) -> dict[str, str]:
    """Each model's and snapshot's ``raw_code``, by unique id.

    ``load_manifest`` leaves it out (lineage reads the compiled SQL, and a large project's
    raw code costs memory for every build); this reads it when a question needs the macros a
    model calls, such as which columns a masking macro computes.

    Raises:
        ArtifactError: the manifest is missing, unreadable or of an unsupported version.
    """
    artifact = read_artifact(
        Path(manifest_path),
        _Manifest,
        kind="manifest",
        supported=SUPPORTED_VERSIONS,
        remedy="regenerate it with dbt (`dbt compile`)",
    )
    return {
        unique_id: code
        for unique_id, node in artifact.model.nodes.items()
        if node.resource_type in ("model", "snapshot") and (code := node.raw_code or node.raw_sql)
    }
