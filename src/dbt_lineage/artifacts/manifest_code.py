"""The compiled code and the data tests of a ``manifest.json``, without the rest of it.

What the HTML report takes from the manifest beside ``lineage.json``. Validating only these
fields skips the columns, configs and descriptions of every node without making Python
objects of them: at 10,000 models the full ``Manifest`` costs about 500 MB and two seconds,
this a fraction of either.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from dbt_lineage.artifacts._json import ArtifactModel, read_artifact
from dbt_lineage.artifacts.manifest import (
    SUPPORTED_VERSIONS,
    DependsOn,
    ManifestMetadata,
    TestMetadata,
    enabled_relations,
)


class CodeConfig(ArtifactModel):
    enabled: bool = True


class CodeNode(ArtifactModel):
    """A model, seed, snapshot, source or data test: the fields ``ManifestNode`` has of the
    same names, and only those the report shows."""

    unique_id: str
    resource_type: str
    name: str
    compiled_code: str | None = None
    depends_on: DependsOn = DependsOn()
    config: CodeConfig = CodeConfig()
    column_name: str | None = None
    attached_node: str | None = None
    test_metadata: TestMetadata | None = None


class ManifestCode(ArtifactModel):
    metadata: ManifestMetadata
    nodes: dict[str, CodeNode]
    sources: dict[str, CodeNode] = {}

    def relation_nodes(self) -> dict[str, CodeNode]:
        """Every enabled model, seed, snapshot and source, keyed by unique id (as
        ``Manifest.relation_nodes``)."""
        return enabled_relations(self.nodes, self.sources)


def load_manifest_code(path: str | Path) -> ManifestCode:
    """Load the compiled code and tests of ``manifest.json``; its version is checked first
    and ``metadata.sha256`` set, as ``load_manifest`` does.

    Raises:
        ArtifactError: missing, unreadable, an unsupported version, or malformed.
    """
    path = Path(path)
    artifact = read_artifact(
        path,
        ManifestCode,
        kind="manifest",
        supported=SUPPORTED_VERSIONS,
        remedy="regenerate it with dbt (`dbt compile`)",
    )
    metadata = artifact.model.metadata.model_copy(
        update={
            "sha256": hashlib.sha256(artifact.raw).hexdigest(),
            "schema_version_number": artifact.version,
        }
    )
    return artifact.model.model_copy(update={"metadata": metadata})
