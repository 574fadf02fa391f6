"""Column types inferred from the SQL against DuckDB's own: the template project built with
real dbt, every column of every model typed from its SQL alone (seeds' and sources' types
from the catalog, each model's upstream models typed from their SQL in turn), then compared
with the types the warehouse gave it (catalog.json of ``dbt docs generate``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from dbt_lineage.api.build_lineage import build_lineage
from dbt_lineage.artifacts.catalog import load_catalog
from dbt_lineage.artifacts.manifest import load_manifest
from dbt_lineage.queries.diff_side import diff_side
from dbt_lineage.queries.inferred_types import inferred_types
from dbt_lineage.sql.type_match import type_match

pytestmark = pytest.mark.slow


def test_inferred_types_are_duckdbs_own(template_project: Path, tmp_path: Path) -> None:
    target = template_project / "target"
    built = build_lineage(template_project, target, output=tmp_path / "lineage.json")
    manifest = load_manifest(target / "manifest.json")
    catalog = load_catalog(target / "catalog.json")
    side = diff_side(built.graph, manifest, catalog=catalog)
    models = [
        node_id
        for node_id, node in manifest.relation_nodes().items()
        if node.resource_type == "model" and not node.is_ephemeral
    ]
    types = inferred_types(side, models, from_sql=models)  # no model's catalog types used
    checked, wrong = 0, []
    for node_id in models:
        truth = {name.casefold(): kind for name, kind in side.catalog[node_id].items()}
        assert set(types[node_id]) == set(truth), node_id  # every column typed or said None
        for column, inferred in types[node_id].items():
            if inferred is None:
                continue
            checked += 1
            if type_match(truth[column], inferred, "duckdb") is not True:
                wrong.append((node_id, column, inferred, truth[column]))
    assert wrong == []
    total = sum(len(columns) for columns in types.values())
    print(f"\n{checked} of {total} model columns typed from the SQL, all as DuckDB types them")
    assert checked >= 20  # casts, identities through CTEs and joins, min/max: most of them
