"""Read ``lineage.json`` back into a ``LineageGraph``."""

from __future__ import annotations

import json
from pathlib import Path

from dbt_lineage.errors import ArtifactError
from dbt_lineage.graph._encoding import decode
from dbt_lineage.graph.model import SCHEMA_VERSION, LineageGraph


def load_graph(path: str | Path) -> LineageGraph:
    """Load a graph written by ``dbt-lineage build``.

    Raises:
        ArtifactError: the file is missing, unreadable, or from another layout version.
    """
    path = Path(path)
    if not path.is_file():
        raise ArtifactError("no lineage.json: run `dbt-lineage build` first", path=path)
    try:
        document = json.loads(path.read_bytes())
    except (OSError, ValueError) as error:
        raise ArtifactError(
            "lineage.json is not valid JSON: rerun `dbt-lineage build`", path=path
        ) from error
    version = document.get("schema_version") if isinstance(document, dict) else None
    if version != SCHEMA_VERSION:
        raise ArtifactError(
            f"lineage.json has layout version {version}, this dbt-lineage reads "
            f"{SCHEMA_VERSION}: rerun `dbt-lineage build`",
            path=path,
        )
    return decode(document)
