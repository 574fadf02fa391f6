"""The rows of ``lineage_column_edges``: a graph's edges, or a manifest's model-level edges."""

from __future__ import annotations

import typing as t

from dbt_lineage.artifacts.manifest import Manifest
from dbt_lineage.graph.model import EdgeType, LineageEdge, LineageGraph
from dbt_lineage.types import ColumnRef, Layer


class EdgeRow(t.NamedTuple):
    """One edge as a table row; ``from_column``/``to_column`` are None for relations."""

    edge_type: str
    kind: str
    from_unique_id: str
    from_column: str | None
    to_unique_id: str
    to_column: str | None
    expression: str
    layer: str


def edge_rows(source: LineageGraph | Manifest) -> list[EdgeRow]:
    """Every edge of a lineage graph; or, from a manifest, its ``depends_on`` edges.

    From a manifest the rows are relation to relation (and relation to exposure),
    ``edge_type`` ``depends``, as ``dbt-lineage build`` would write them, for a project that
    has no ``lineage.json`` yet.

    >>> from dbt_lineage.graph.model import LineageEdge
    >>> from dbt_lineage.types import EdgeKind
    >>> rows = edge_rows(LineageGraph(edges=[LineageEdge(
    ...     ColumnRef("model.a.x", "id"), ColumnRef("model.a.y", "id"), EdgeType.DIRECT,
    ...     EdgeKind.IDENTITY)]))
    >>> rows[0].from_column, rows[0].to_unique_id, rows[0].kind
    ('id', 'model.a.y', 'identity')
    """
    if isinstance(source, LineageGraph):
        return [_graph_row(edge.source, edge.target, edge) for edge in source.edges]
    relations = source.relation_nodes()
    rows = [
        _depends_row(parent, node_id)
        for node_id, node in relations.items()
        for parent in dict.fromkeys(node.depends_on.nodes)
        if parent in relations
    ]
    rows.extend(
        _depends_row(parent, exposure_id)
        for exposure_id, exposure in source.exposures.items()
        for parent in dict.fromkeys(exposure.depends_on.nodes)
        if parent in relations
    )
    return rows


def _split(key: str | ColumnRef) -> tuple[str, str | None]:
    return (key.node_id, key.column) if isinstance(key, ColumnRef) else (key, None)


def _graph_row(source: str | ColumnRef, target: str | ColumnRef, edge: LineageEdge) -> EdgeRow:
    from_id, from_column = _split(source)
    to_id, to_column = _split(target)
    return EdgeRow(
        edge_type=edge.type.value,
        kind=edge.kind.value if edge.kind is not None else "",
        from_unique_id=from_id,
        from_column=from_column,
        to_unique_id=to_id,
        to_column=to_column,
        expression=edge.expression,
        layer=edge.layer.value,
    )


def _depends_row(parent: str, child: str) -> EdgeRow:
    return EdgeRow(
        edge_type=EdgeType.DEPENDS.value,
        kind="",
        from_unique_id=parent,
        from_column=None,
        to_unique_id=child,
        to_column=None,
        expression="",
        layer=Layer.SCHEMA.value,
    )
