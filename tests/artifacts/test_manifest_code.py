"""The manifest's code and tests alone: the same values as the whole manifest gives."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dbt_lineage.artifacts.manifest import load_manifest
from dbt_lineage.artifacts.manifest_code import load_manifest_code
from dbt_lineage.errors import ArtifactError
from dbt_lineage.outputs.report.project_facts import project_facts

FIXTURE = Path(__file__).parents[2] / "fixtures" / "snowflake_compiled" / "target"
V12 = "https://schemas.getdbt.com/dbt/manifest/v12.json"


def _node(unique_id: str, resource_type: str, **extra: object) -> dict[str, object]:
    return {"unique_id": unique_id, "resource_type": resource_type, "name": "n", **extra}


def _write(path: Path, nodes: list[dict[str, object]], version: str = V12) -> Path:
    document = {
        "metadata": {"dbt_schema_version": version, "project_name": "shop"},
        "nodes": {node["unique_id"]: node for node in nodes},
        "sources": {
            "source.shop.raw.orders": _node(
                "source.shop.raw.orders", "source", columns={"id": {"name": "id"}}
            )
        },
    }
    path.write_text(json.dumps(document))
    return path


def test_same_code_tests_and_checksum_as_the_whole_manifest(tmp_path: Path) -> None:
    nodes = [
        _node("model.shop.orders", "model", compiled_code="select 1 as id", columns={}),
        _node("model.shop.off", "model", compiled_code="select 2", config={"enabled": False}),
        _node("seed.shop.codes", "seed"),
        _node(
            "test.shop.unique_orders_id.1",
            "test",
            attached_node="model.shop.orders",
            column_name="id",
            test_metadata={"name": "unique", "kwargs": {"column_name": "id"}},
        ),
        _node("test.shop.rows.2", "test", depends_on={"nodes": ["model.shop.orders"]}),
    ]
    for path in (_write(tmp_path / "manifest.json", nodes), FIXTURE / "manifest.json"):
        whole, code = load_manifest(path), load_manifest_code(path)
        assert code.metadata == whole.metadata
        assert code.metadata.sha256
        assert sorted(code.relation_nodes()) == sorted(whole.relation_nodes())
        assert project_facts(code) == project_facts(whole)
    facts = project_facts(load_manifest_code(tmp_path / "manifest.json"))
    assert facts.sql == {"model.shop.orders": "select 1 as id"}
    assert facts.node_tests == {"model.shop.orders": ["n"]}
    assert list(facts.column_tests.values()) == [["unique"]]


def test_other_version_and_malformed_files_are_refused(tmp_path: Path) -> None:
    old = _write(tmp_path / "old.json", [], "https://schemas.getdbt.com/dbt/manifest/v4.json")
    with pytest.raises(ArtifactError, match="unsupported manifest version v4"):
        load_manifest_code(old)
    broken = _write(tmp_path / "broken.json", [{"unique_id": "model.shop.x"}])
    with pytest.raises(ArtifactError, match="malformed at nodes.model.shop.x.resource_type"):
        load_manifest_code(broken)
