"""What the report shows of a project that lineage.json does not keep: SQL and tests."""

from __future__ import annotations

import dataclasses
import typing as t

from dbt_lineage.artifacts.manifest import Manifest
from dbt_lineage.artifacts.manifest_code import ManifestCode
from dbt_lineage.types import ColumnRef


@dataclasses.dataclass(frozen=True)
class ProjectFacts:
    """The compiled SQL of each node and the data tests declared on nodes and columns.

    Attributes:
        sql: compiled SQL by node id (nodes dbt compiled).
        node_tests: test names declared on a whole node, by node id.
        column_tests: test names declared on a column.
    """

    sql: dict[str, str] = dataclasses.field(default_factory=dict)
    node_tests: dict[str, list[str]] = dataclasses.field(default_factory=dict)
    column_tests: dict[ColumnRef, list[str]] = dataclasses.field(default_factory=dict)


def project_facts(manifest: Manifest | ManifestCode) -> ProjectFacts:
    """Compiled SQL and data tests of a manifest's relations (from the whole manifest, or
    from only its code: ``load_manifest_code``).

    A generic test is named by its macro (``not_null``, ``accepted_values``); a singular
    test by its own name. A test is attached to ``attached_node`` when dbt says so, else
    to the one relation it depends on.
    """
    relations: dict[str, t.Any] = manifest.relation_nodes()
    sql = {
        node_id: node.compiled_code
        for node_id, node in relations.items()
        if node.compiled_code and node.compiled_code.strip()
    }
    node_tests: dict[str, list[str]] = {}
    column_tests: dict[ColumnRef, list[str]] = {}
    for node in manifest.nodes.values():
        if node.resource_type != "test":
            continue
        owner = node.attached_node or _only(node.depends_on.nodes, relations)
        if owner is None or owner not in relations:
            continue
        name = node.test_metadata.name if node.test_metadata else ""
        name = name or node.name
        if node.column_name:
            column_tests.setdefault(ColumnRef(owner, node.column_name), []).append(name)
        else:
            node_tests.setdefault(owner, []).append(name)
    for names in (*node_tests.values(), *column_tests.values()):
        names.sort()
    return ProjectFacts(sql=sql, node_tests=node_tests, column_tests=column_tests)


def _only(depends_on: list[str], relations: dict[str, object]) -> str | None:
    found = [node_id for node_id in dict.fromkeys(depends_on) if node_id in relations]
    return found[0] if len(found) == 1 else None
