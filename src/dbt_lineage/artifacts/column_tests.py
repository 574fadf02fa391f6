"""The data tests dbt runs on each column, read from the manifest's test nodes."""

from __future__ import annotations

from dbt_lineage.artifacts.manifest import Manifest
from dbt_lineage.types import ColumnRef


def column_tests(manifest: Manifest) -> dict[ColumnRef, tuple[str, ...]]:
    """Each tested column, with the unique ids of the tests on it.

    A test is on a column when it names one (``column_name``, set for tests declared under a
    column in YAML, e.g. ``unique``, ``not_null``, ``relationships``); its relation is its
    ``attached_node`` (dbt 1.5 and later), else its only project node in ``depends_on``.
    Tests of a whole relation (``column_name`` empty) and disabled tests are left out. Column
    names are as the YAML spells them: match them ignoring case.

    >>> from dbt_lineage.artifacts.manifest import Manifest, ManifestMetadata, ManifestNode
    >>> test = ManifestNode(unique_id="test.p.unique_orders_id.1", resource_type="test",
    ...                     name="unique_orders_id", attached_node="model.p.orders",
    ...                     column_name="id")
    >>> manifest = Manifest(metadata=ManifestMetadata(dbt_schema_version="v12"),
    ...                     nodes={test.unique_id: test})
    >>> column_tests(manifest)
    {ColumnRef(node_id='model.p.orders', column='id'): ('test.p.unique_orders_id.1',)}
    """
    found: dict[ColumnRef, list[str]] = {}
    for unique_id, node in manifest.nodes.items():
        if node.resource_type != "test" or not node.column_name or not node.config.enabled:
            continue
        attached = node.attached_node or _only_parent(node.depends_on.nodes)
        if attached is None:
            continue
        found.setdefault(ColumnRef(attached, node.column_name), []).append(unique_id)
    return {ref: tuple(sorted(ids)) for ref, ids in found.items()}


def _only_parent(parents: list[str]) -> str | None:
    relations = [p for p in dict.fromkeys(parents) if not p.startswith("macro.")]
    return relations[0] if len(relations) == 1 else None
