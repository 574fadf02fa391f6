"""Test nodes, groups and raw SQL read from the manifest, for coverage and classification."""

from __future__ import annotations

import json
from pathlib import Path

from dbt_lineage.artifacts.column_tests import column_tests
from dbt_lineage.artifacts.manifest import load_manifest
from dbt_lineage.artifacts.raw_code import raw_code
from dbt_lineage.types import ColumnRef


def _node(unique_id: str, resource_type: str, **extra: object) -> dict[str, object]:
    return {
        "unique_id": unique_id,
        "resource_type": resource_type,
        "name": unique_id.split(".")[2],
        "package_name": "shop",
        **extra,
    }


def test_tests_groups_and_raw_code(tmp_path: Path) -> None:
    nodes = [
        _node("model.shop.orders", "model", group="sales", raw_code="select {{ mask('e') }} e"),
        # a column test (dbt 1.5+: attached_node)
        _node(
            "test.shop.unique_orders_id.1",
            "test",
            attached_node="model.shop.orders",
            column_name="id",
            depends_on={"nodes": ["model.shop.orders"]},
        ),
        # an older manifest: no attached_node, one project node in depends_on
        _node(
            "test.shop.not_null_orders_id.2",
            "test",
            column_name="ID",
            depends_on={"nodes": ["model.shop.orders"], "macros": ["macro.dbt.test"]},
        ),
        # a test of the whole relation, and a disabled one: no column
        _node("test.shop.rows.3", "test", attached_node="model.shop.orders"),
        _node(
            "test.shop.off.4",
            "test",
            attached_node="model.shop.orders",
            column_name="status",
            config={"enabled": False},
        ),
    ]
    manifest_path = tmp_path / "manifest.json"
    manifest_path.write_text(
        json.dumps(
            {
                "metadata": {
                    "dbt_schema_version": "https://schemas.getdbt.com/dbt/manifest/v12.json",
                    "project_name": "shop",
                },
                "nodes": {node["unique_id"]: node for node in nodes},
                "groups": {
                    "group.shop.sales": {
                        "name": "sales",
                        "owner": {"name": "Sales Ops", "email": "ops@example.com"},
                    }
                },
            }
        )
    )
    manifest = load_manifest(manifest_path)
    assert column_tests(manifest) == {
        ColumnRef("model.shop.orders", "id"): ("test.shop.unique_orders_id.1",),
        ColumnRef("model.shop.orders", "ID"): ("test.shop.not_null_orders_id.2",),
    }
    assert manifest.nodes["model.shop.orders"].group == "sales"
    assert manifest.groups["group.shop.sales"].owner.name == "Sales Ops"
    assert raw_code(manifest_path) == {"model.shop.orders": "select {{ mask('e') }} e"}
