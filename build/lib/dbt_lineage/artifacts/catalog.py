"""dbt's ``catalog.json`` (from ``dbt docs generate``): the warehouse's real columns."""

from __future__ import annotations

from pathlib import Path

import pydantic

from dbt_lineage.artifacts._json import read_artifact

SUPPORTED_VERSIONS = (1,)


class _Artifact(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(extra="ignore", populate_by_name=True, frozen=True)


class CatalogColumn(_Artifact):
    name: str
    type: str | None = None
    index: int | None = None


class CatalogTable(_Artifact):
    columns: dict[str, CatalogColumn] = {}
    unique_id: str | None = None

    def ordered_columns(self) -> list[CatalogColumn]:
        """Columns in warehouse order (by ``index``, then as listed)."""
        listed = list(self.columns.values())
        return sorted(listed, key=lambda column: (column.index is None, column.index or 0))


class Catalog(_Artifact):
    nodes: dict[str, CatalogTable] = {}
    sources: dict[str, CatalogTable] = {}
    path: str = ""

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
