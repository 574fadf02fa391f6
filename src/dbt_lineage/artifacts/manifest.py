"""The parts of dbt's ``manifest.json`` that lineage needs, validated with pydantic."""

from __future__ import annotations

import hashlib
import typing as t
from pathlib import Path

import pydantic

from dbt_lineage.artifacts._json import ArtifactModel, read_artifact
from dbt_lineage.artifacts.names import NamedNode

SUPPORTED_VERSIONS = (10, 11, 12)
"""Manifest schema versions we read: dbt 1.6 (v10) to dbt 1.12 (v12)."""

RELATION_TYPES = ("model", "seed", "snapshot", "source")
"""Resource types that are relations with columns of their own."""


class ColumnInfo(ArtifactModel):
    name: str
    data_type: str | None = None
    description: str = ""
    meta: dict[str, t.Any] = {}
    tags: list[str] = []


class DependsOn(ArtifactModel):
    nodes: list[str] = []
    macros: list[str] = []


class Macro(ArtifactModel):
    """A macro: a diff names the macros whose text changed under a model."""

    macro_sql: str = ""


class TestMetadata(ArtifactModel):
    """A generic data test's macro (``not_null``, ``unique``, ``accepted_values``...)."""

    name: str = ""


class NodeContract(ArtifactModel):
    """A model's contract: with ``enforced``, dbt checks its declared columns and types."""

    enforced: bool = False


class NodeConfig(ArtifactModel):
    materialized: str | None = None
    enabled: bool = True
    unique_key: str | list[str] | None = None
    """A snapshot's (or incremental model's) key: a column, an expression, or a list."""
    strategy: str | None = None
    """A snapshot's strategy: ``timestamp`` or ``check``."""
    updated_at: str | None = None
    check_cols: str | list[str] | None = None
    """A check snapshot's compared columns, or ``all``."""
    snapshot_meta_column_names: dict[str, str | None] | None = None
    """dbt 1.9+: custom names of the columns dbt adds to a snapshot."""


class ManifestNode(ArtifactModel):
    """A model, seed, snapshot or source; also a test (``attached_node``, ``column_name``)
    and, read but unused, analyses."""

    unique_id: str
    resource_type: str
    name: str
    package_name: str = ""
    database: str | None = None
    schema_name: str | None = pydantic.Field(default=None, alias="schema")
    alias: str | None = None
    identifier: str | None = None
    relation_name: str | None = None
    compiled_code: str | None = None
    original_file_path: str = ""
    patch_path: str | None = None
    source_name: str | None = None
    depends_on: DependsOn = DependsOn()
    config: NodeConfig = NodeConfig()
    columns: dict[str, ColumnInfo] = {}
    meta: dict[str, t.Any] = {}
    tags: list[str] = []
    description: str = ""
    checksum: dict[str, t.Any] = {}
    group: str | None = None
    version: str | int | float | None = None
    """A versioned model's version (its YAML entry lives under ``versions:``)."""
    column_name: str | None = None
    """For a data test: the column it tests, when it tests one."""
    attached_node: str | None = None
    """For a data test: the node it is declared on (dbt 1.5+)."""
    test_metadata: TestMetadata | None = None
    contract: NodeContract = NodeContract()
    unrendered_config: dict[str, t.Any] = {}
    """The config as the project wrote it, before rendering: the same in every environment
    (``dbt-lineage diff`` tells config-only changes by it)."""

    @pydantic.field_validator("contract", "unrendered_config", mode="before")
    @classmethod
    def _null_is_empty(cls, value: t.Any) -> t.Any:
        """A null where dbt usually writes an object means an empty one."""
        return {} if value is None else value

    @property
    def materialized(self) -> str:
        return self.config.materialized or ""

    @property
    def named(self) -> NamedNode:
        """What users' names for this node are matched against (``resolve_name``)."""
        return NamedNode(
            self.unique_id, self.resource_type, self.name, self.package_name, self.source_name or ""
        )

    @property
    def is_ephemeral(self) -> bool:
        return self.materialized == "ephemeral"


class ExposureOwner(ArtifactModel):
    name: str | None = None
    email: str | None = None


class Exposure(ArtifactModel):
    unique_id: str
    name: str
    type: str = ""
    label: str | None = None
    url: str | None = None
    maturity: str | None = None
    owner: ExposureOwner = ExposureOwner()
    depends_on: DependsOn = DependsOn()
    original_file_path: str = ""
    description: str = ""
    meta: dict[str, t.Any] = {}
    tags: list[str] = []


class Group(ArtifactModel):
    """A dbt group: models that share an owner."""

    name: str
    owner: ExposureOwner = ExposureOwner()


class ManifestMetadata(ArtifactModel):
    dbt_schema_version: str
    dbt_version: str = ""
    adapter_type: str | None = None
    project_name: str | None = None
    invocation_id: str | None = None
    generated_at: str | None = None
    schema_version_number: int = 0
    """Set by the loader from ``dbt_schema_version``."""
    sha256: str = ""
    """Set by the loader: the sha256 of the manifest file, the version of the project's
    lineage."""


class Manifest(ArtifactModel):
    metadata: ManifestMetadata
    nodes: dict[str, ManifestNode]
    sources: dict[str, ManifestNode] = {}
    exposures: dict[str, Exposure] = {}
    macros: dict[str, Macro] = {}
    groups: dict[str, Group] = {}
    disabled: dict[str, list[t.Any]] = {}
    """Disabled nodes as dbt writes them (unique id -> versions), kept unvalidated: only
    ``disabled_names`` reads them."""
    path: str = ""

    def disabled_names(self) -> list[NamedNode]:
        """What names of disabled models, seeds and snapshots can match: a disabled model
        was still built by earlier runs, so its recorded runs can be traced."""
        named = []
        for unique_id, versions in self.disabled.items():
            entry = versions[0] if versions and isinstance(versions[0], dict) else {}
            resource_type = str(entry.get("resource_type", ""))
            if resource_type in RELATION_TYPES and resource_type != "source":
                named.append(
                    NamedNode(
                        unique_id,
                        resource_type,
                        str(entry.get("name", "")),
                        str(entry.get("package_name", "")),
                    )
                )
        return named

    def relation_nodes(self) -> dict[str, ManifestNode]:
        """Every enabled model, seed, snapshot and source, keyed by unique id."""
        return enabled_relations(self.nodes, self.sources)


def enabled_relations(
    nodes: t.Mapping[str, t.Any], sources: t.Mapping[str, t.Any]
) -> dict[str, t.Any]:
    """The enabled models, seeds and snapshots of ``nodes`` (which have ``resource_type``
    and ``config.enabled``), then ``sources``, keyed by unique id."""
    relations = {
        unique_id: node
        for unique_id, node in nodes.items()
        if node.resource_type in RELATION_TYPES and node.config.enabled
    }
    relations.update(sources)
    return relations


def load_manifest(path: str | Path) -> Manifest:
    """Load and validate ``manifest.json``; the schema version is checked first.

    Args:
        path: the manifest file.

    Raises:
        ArtifactError: missing, unreadable, an unsupported version, or malformed (a
            manifest without ``nodes`` included).
    """
    path = Path(path)
    artifact = read_artifact(
        path,
        Manifest,
        kind="manifest",
        supported=SUPPORTED_VERSIONS,
        remedy="regenerate it with dbt (`dbt compile`)",
    )
    manifest = artifact.model
    metadata = manifest.metadata.model_copy(
        update={
            "sha256": hashlib.sha256(artifact.raw).hexdigest(),
            "schema_version_number": artifact.version,
        }
    )
    return manifest.model_copy(update={"metadata": metadata, "path": str(path)})
