"""Columns a relation declares outside its SQL: catalog.json, YAML, a seed's CSV header."""

from __future__ import annotations

import csv
import dataclasses
from pathlib import Path

from dbt_lineage.artifacts.catalog import Catalog
from dbt_lineage.artifacts.manifest import ManifestNode


@dataclasses.dataclass(frozen=True)
class DeclaredColumns:
    """Columns in order with their types, and whether they are the whole truth.

    Catalog columns (read from the warehouse) and a seed's CSV header are complete; YAML
    columns are often only the documented ones, so they are not.
    """

    columns: dict[str, str]
    origin: str
    complete: bool


def declared_columns(
    node: ManifestNode, catalog: Catalog | None, project_dir: Path
) -> DeclaredColumns | None:
    """The best declared columns of ``node``: catalog, else YAML, else (seeds) the CSV header."""
    table = catalog.table(node.unique_id) if catalog is not None else None
    if table is not None and table.columns:
        columns = {column.name: column.type or "" for column in table.ordered_columns()}
        return DeclaredColumns(columns, "catalog", True)
    if node.resource_type == "seed":
        header = _csv_header(project_dir / node.original_file_path)
        if header:
            types = {name.casefold(): info.data_type or "" for name, info in node.columns.items()}
            columns = {name: types.get(name.casefold(), "") for name in header}
            return DeclaredColumns(columns, "seed_csv", True)
    if node.columns:
        columns = {info.name or name: info.data_type or "" for name, info in node.columns.items()}
        return DeclaredColumns(columns, "yaml", False)
    return None


def _csv_header(path: Path) -> list[str]:
    try:
        with path.open(newline="", encoding="utf-8-sig") as handle:
            return [name.strip() for name in next(csv.reader(handle), [])]
    except OSError:
        return []
