"""The SQL of each node as the project wrote it (Jinja and all), read from the manifest."""

from __future__ import annotations

from pathlib import Path

from dbt_lineage.artifacts._json import read_artifact
from dbt_lineage.artifacts.manifest import SUPPORTED_VERSIONS


def raw_code(manifest_path: str | Path) -> dict[str, str]:
    """Each model's and snapshot's ``raw_code``, by unique id.

    ``load_manifest`` leaves it out (lineage reads the compiled SQL, and a large project's
    raw code costs memory for every build); this reads it when a question needs the macros a
    model calls, such as which columns a masking macro computes.

    Raises:
        ArtifactError: the manifest is missing, unreadable or of an unsupported version.
    """
    path = Path(manifest_path)
    document = read_artifact(path, kind="manifest", supported=SUPPORTED_VERSIONS)
    found = {}
    for unique_id, node in (document.get("nodes") or {}).items():
        if not isinstance(node, dict) or node.get("resource_type") not in ("model", "snapshot"):
            continue
        code = node.get("raw_code") or node.get("raw_sql")
        if isinstance(code, str) and code:
            found[unique_id] = code
    return found
