"""Loading dbt artifacts: versions are checked first, and errors say what to do."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dbt_lineage.artifacts.manifest import load_manifest
from dbt_lineage.artifacts.project import load_project
from dbt_lineage.errors import ArtifactError


def _manifest(version: int, **extra: object) -> dict[str, object]:
    return {
        "metadata": {
            "dbt_schema_version": f"https://schemas.getdbt.com/dbt/manifest/v{version}.json",
            "dbt_version": "1.9.0",
            "adapter_type": "duckdb",
            "project_name": "shop",
        },
        "nodes": {
            "model.shop.orders": {
                "unique_id": "model.shop.orders",
                "resource_type": "model",
                "name": "orders",
                "package_name": "shop",
                "schema": "main",
                "database": "shop",
                "relation_name": '"shop"."main"."orders"',
                "compiled_code": "select 1 as id",
                "config": {"materialized": "table"},
                "columns": {"id": {"name": "id", "meta": {"classification": "pii"}}},
                "some_future_field": {"ignored": True},
            }
        },
        "sources": {},
        "exposures": {},
        **extra,
    }


def _write(tmp_path: Path, document: object, name: str = "manifest.json") -> Path:
    target = tmp_path / "target"
    target.mkdir(exist_ok=True)
    path = target / name
    path.write_text(json.dumps(document))
    return path


@pytest.mark.parametrize("version", [10, 11, 12])
def test_supported_manifest_versions_load(tmp_path: Path, version: int) -> None:
    manifest = load_manifest(_write(tmp_path, _manifest(version)))
    node = manifest.nodes["model.shop.orders"]
    assert node.schema_name == "main"
    assert node.columns["id"].meta == {"classification": "pii"}
    assert manifest.metadata.adapter_type == "duckdb"


def test_unsupported_version_names_found_and_supported(tmp_path: Path) -> None:
    with pytest.raises(ArtifactError) as caught:
        load_manifest(_write(tmp_path, _manifest(7)))
    line = caught.value.one_line()
    assert "\n" not in line
    assert "unsupported manifest version v7" in line
    assert "v10, v11, v12" in line
    assert "manifest.json" in line


def test_version_checked_before_validation(tmp_path: Path) -> None:
    document = _manifest(99)
    document["nodes"] = "garbage"
    with pytest.raises(ArtifactError, match="unsupported manifest version v99"):
        load_manifest(_write(tmp_path, document))


def test_broken_json_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "target"
    path.mkdir()
    (path / "manifest.json").write_text('{"metadata": ')
    with pytest.raises(ArtifactError) as caught:
        load_project(tmp_path)
    assert "not valid JSON" in caught.value.one_line()
    assert "\n" not in caught.value.one_line()


def test_malformed_manifest_names_the_field(tmp_path: Path) -> None:
    document = _manifest(12)
    del document["nodes"]["model.shop.orders"]["resource_type"]
    with pytest.raises(ArtifactError, match=r"malformed at nodes\.model\.shop\.orders"):
        load_manifest(_write(tmp_path, document))


def test_missing_manifest_says_to_compile(tmp_path: Path) -> None:
    with pytest.raises(ArtifactError, match="run `dbt compile`"):
        load_project(tmp_path)


def test_catalog_and_run_results_are_optional(tmp_path: Path) -> None:
    _write(tmp_path, _manifest(12))
    artifacts = load_project(tmp_path)
    assert artifacts.catalog is None and artifacts.run_results is None
    _write(
        tmp_path,
        {
            "metadata": {"dbt_schema_version": "https://schemas.getdbt.com/dbt/catalog/v1.json"},
            "nodes": {
                "model.shop.orders": {
                    "metadata": {"type": "BASE TABLE", "schema": "main", "name": "orders"},
                    "columns": {
                        "b": {"name": "b", "type": "INTEGER", "index": 2},
                        "a": {"name": "a", "type": "VARCHAR", "index": 1},
                    },
                }
            },
            "sources": {},
        },
        "catalog.json",
    )
    artifacts = load_project(tmp_path)
    assert artifacts.catalog is not None
    table = artifacts.catalog.table("model.shop.orders")
    assert [column.name for column in table.ordered_columns()] == ["a", "b"]


def test_manifest_of_a_catalog_kind_is_rejected(tmp_path: Path) -> None:
    document = _manifest(12)
    document["metadata"]["dbt_schema_version"] = "https://schemas.getdbt.com/dbt/catalog/v1.json"
    with pytest.raises(ArtifactError, match="not a dbt manifest artifact"):
        load_manifest(_write(tmp_path, document))


def test_run_results_are_read_only_when_asked(tmp_path: Path) -> None:
    _write(tmp_path, _manifest(12))
    version = "https://schemas.getdbt.com/dbt/run-results/v99.json"
    _write(tmp_path, {"metadata": {"dbt_schema_version": version}}, "run_results.json")
    assert load_project(tmp_path).run_results is None, "a build never reads them"
    with pytest.raises(ArtifactError, match="unsupported run-results version v99"):
        load_project(tmp_path, run_results=True)


def test_manifest_without_nodes_is_an_error_not_an_empty_project(tmp_path: Path) -> None:
    document = _manifest(12)
    del document["nodes"]
    with pytest.raises(ArtifactError, match="malformed at nodes: Field required"):
        load_manifest(_write(tmp_path, document))


def _catalog(nodes: dict[str, object] | list[object]) -> dict[str, object]:
    return {
        "metadata": {"dbt_schema_version": "https://schemas.getdbt.com/dbt/catalog/v1.json"},
        "nodes": nodes,
        "sources": {},
    }


def _table(name: str) -> dict[str, object]:
    return {
        "metadata": {"type": "BASE TABLE", "schema": "main", "name": name},
        "columns": {"id": {"name": "id", "type": "INTEGER", "index": 1}},
    }


def test_a_catalog_of_another_project_is_set_aside_with_a_warning(tmp_path: Path) -> None:
    _write(tmp_path, _manifest(12))
    _write(tmp_path, _catalog({"model.other.thing": _table("thing")}), "catalog.json")
    artifacts = load_project(tmp_path)
    assert artifacts.catalog is None
    (warning,) = artifacts.warnings
    assert "belongs to another project" in warning and "dbt docs generate" in warning


@pytest.mark.parametrize("nodes", [[], {}])
def test_an_empty_catalog_is_not_used(tmp_path: Path, nodes: object) -> None:
    _write(tmp_path, _manifest(12))
    _write(tmp_path, _catalog(nodes), "catalog.json")  # type: ignore[arg-type]
    artifacts = load_project(tmp_path)
    assert artifacts.catalog is None
    assert "lists no relation" in artifacts.warnings[0]


def test_a_catalog_missing_relations_is_kept_and_said(tmp_path: Path) -> None:
    document = _manifest(12)
    document["nodes"]["model.shop.customers"] = {  # type: ignore[index]
        **document["nodes"]["model.shop.orders"],  # type: ignore[index]
        "unique_id": "model.shop.customers",
        "name": "customers",
    }
    _write(tmp_path, document)
    _write(tmp_path, _catalog({"model.shop.orders": _table("orders")}), "catalog.json")
    artifacts = load_project(tmp_path)
    assert artifacts.catalog is not None
    (warning,) = artifacts.warnings
    assert "misses 1 of the manifest's 2 relations (model.shop.customers)" in warning
