"""A node's columns from their lineage.json entries: shared by the document decoder and the
query index's reader (which must not import pydantic)."""

from __future__ import annotations

import typing as t

from dbt_lineage.graph.model import EMPTY, ColumnNode, NodeType


def column_entries(
    node_id: str, entries: t.Mapping[str, t.Mapping[str, t.Any]]
) -> dict[str, ColumnNode]:
    """``entries`` (column name -> its JSON entry) as the node's ``ColumnNode``s."""
    column_type = NodeType.COLUMN
    return {
        name: ColumnNode(
            node_id=node_id,
            type=column_type,
            name=name,
            column=name,
            description=column.get("description", ""),
            meta=column.get("meta") or EMPTY,
            tags=tuple(column.get("tags", ())),
            data_type=column.get("data_type", ""),
            resolved=column.get("resolved", True),
            reason=column.get("reason", ""),
            inferred=column.get("inferred", False),
        )
        for name, column in entries.items()
    }
