"""dbt's ``catalog.json`` (from ``dbt docs generate``): the warehouse's real columns."""

from __future__ import annotations

import typing as t
from pathlib import Path

import pydantic

from dbt_lineage.artifacts._json import ArtifactModel, read_artifact

SUPPORTED_VERSIONS = (1,)


class CatalogColumn(ArtifactModel):
    name: str
    type: str | None = None
    index: int | None = None


class CatalogTable(ArtifactModel):
    columns: dict[str, CatalogColumn] = {}
    unique_id: str | None = None

    def ordered_columns(self) -> list[CatalogColumn]:
        """Columns in warehouse order (by ``index``, then as listed)."""
        listed = list(self.columns.values())
        return sorted(listed, key=lambda column: (column.index is None, column.index or 0))


class Catalog(ArtifactModel):
    nodes: dict[str, CatalogTable] = {}
    sources: dict[str, CatalogTable] = {}
    path: str = ""

    @pydantic.field_validator("nodes", "sources", mode="before")
    @classmethod
    def _empty_list(cls, value: t.Any) -> t.Any:
        """An empty list where dbt writes an object means no relation, as ``{}`` does."""
        return {} if value == [] else value

    def table(self, unique_id: str) -> CatalogTable | None:
        return self.nodes.get(unique_id) or self.sources.get(unique_id)


def load_catalog(path: str | Path) -> Catalog:
    """Load and validate ``catalog.json``.

    Raises:
        ArtifactError: missing, unreadable, an unsupported version, or malformed.
    """
    path = Path(path)
    catalog = read_artifact(
        path,
        Catalog,
        kind="catalog",
        supported=SUPPORTED_VERSIONS,
        remedy="rerun `dbt docs generate`",
    ).model
    return catalog.model_copy(update={"path": str(path)})
