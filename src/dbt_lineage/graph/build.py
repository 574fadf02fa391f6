"""Assemble the schema layer of the lineage graph from resolved nodes and the manifest."""

from __future__ import annotations

import datetime
import typing as t

from dbt_lineage._version import __version__
from dbt_lineage.artifacts.manifest import ManifestNode
from dbt_lineage.artifacts.project import ProjectArtifacts
from dbt_lineage.graph.model import (
    EDGE_DEFAULTS,
    NODE_DEFAULTS,
    Diagnostic,
    EdgeType,
    GraphMetadata,
    LineageEdge,
    LineageGraph,
    LineageNode,
    NodeType,
    fast_construct,
)
from dbt_lineage.sql.node_lineage import ColumnLineage, NodeLineage
from dbt_lineage.sql.project import ProjectLineage
from dbt_lineage.types import ColumnRef, Layer


def build_graph(artifacts: ProjectArtifacts, lineage: ProjectLineage) -> LineageGraph:
    """The schema-layer graph: relations, exposures, columns, and their edges.

    Args:
        artifacts: the loaded manifest and catalog.
        lineage: per-node resolution results from ``resolve_project``.
    """
    manifest = artifacts.manifest
    relations = manifest.relation_nodes()
    nodes: dict[str, LineageNode] = {}
    columns: dict[str, dict[str, LineageNode]] = {}
    edges: list[LineageEdge] = []
    for node_id, result in lineage.nodes.items():
        node = relations[node_id]
        nodes[node_id] = _relation_node(node)
        columns[node_id] = {
            name: _column_node(node, column) for name, column in result.columns.items()
        }
    folded = {
        node_id: {name.casefold(): name for name in by_name} for node_id, by_name in columns.items()
    }
    failed = {
        item.node_id: item.reason
        for result in lineage.nodes.values()
        for item in result.diagnostics
        if item.reason in _NODE_FAILURES
    }
    for node_id, result in lineage.nodes.items():
        edges.extend(_column_edges(node_id, result, relations, columns, folded, failed))
        for parent in relations[node_id].depends_on.nodes:
            if parent in nodes:
                edges.append(
                    fast_construct(
                        LineageEdge,
                        EDGE_DEFAULTS,
                        source=parent,
                        target=node_id,
                        type=EdgeType.DEPENDS,
                        layer=Layer.SCHEMA,
                        kind="",
                        expression="",
                    )
                )
    for exposure in manifest.exposures.values():
        nodes[exposure.unique_id] = fast_construct(
            LineageNode,
            NODE_DEFAULTS,
            node_id=exposure.unique_id,
            column=None,
            type=NodeType.EXPOSURE,
            layer=Layer.SCHEMA,
            name=exposure.label or exposure.name,
            data_type="",
            description=exposure.description,
            relation_name="",
            materialized=exposure.type,
            path=exposure.original_file_path,
            meta={
                **exposure.meta,
                **_owner(exposure.owner.name, exposure.owner.email, exposure.url),
            },
            tags=tuple(exposure.tags),
            resolved=True,
            reason="",
        )
        for parent in exposure.depends_on.nodes:
            if parent in nodes:
                edges.append(
                    fast_construct(
                        LineageEdge,
                        EDGE_DEFAULTS,
                        source=parent,
                        target=exposure.unique_id,
                        type=EdgeType.DEPENDS,
                        layer=Layer.SCHEMA,
                        kind="",
                        expression="",
                    )
                )
    diagnostics = [
        Diagnostic(
            node_id=item.node_id,
            path=item.path,
            reason=item.reason,
            message=item.message,
            columns=item.columns,
        )
        for result in lineage.nodes.values()
        for item in result.diagnostics
    ]
    return LineageGraph.model_construct(
        metadata=_metadata(artifacts),
        nodes=nodes,
        columns=columns,
        edges=edges,
        diagnostics=diagnostics,
    )


def _column_edges(
    node_id: str,
    result: NodeLineage,
    relations: dict[str, ManifestNode],
    columns: dict[str, dict[str, LineageNode]],
    folded: dict[str, dict[str, str]],
    failed: dict[str, str],
) -> list[LineageEdge]:
    found: list[tuple[t.Any, str | ColumnRef, EdgeType]] = [
        (edge, ColumnRef(node_id, name), EdgeType.DIRECT)
        for name, column in result.columns.items()
        for edge in column.upstreams
    ]
    found.extend((edge, node_id, EdgeType.INDIRECT) for edge in result.indirect)
    edges = []
    for edge, target, edge_type in found:
        source = _canonical(edge.upstream, relations, columns, folded, failed, node_id)
        if source is not None:
            edges.append(
                fast_construct(
                    LineageEdge,
                    EDGE_DEFAULTS,
                    source=source,
                    target=target,
                    type=edge_type,
                    layer=Layer.SCHEMA,
                    kind=edge.kind.value,
                    expression=edge.expression,
                )
            )
    return edges


def _canonical(
    ref: ColumnRef,
    relations: dict[str, ManifestNode],
    columns: dict[str, dict[str, LineageNode]],
    folded: dict[str, dict[str, str]],
    failed: dict[str, str],
    reader: str,
) -> ColumnRef | None:
    """The upstream column's node key, adding a column its relation was not known to have.

    A source or seed simply has the column; a model whose SQL failed keeps its failure as the
    reason; any other model was read for a column its SQL does not produce.
    """
    by_name = columns.get(ref.node_id)
    if by_name is None:
        return None
    if ref.column in by_name:
        return ref
    name = folded[ref.node_id].get(ref.column.casefold())
    if name is not None:
        return ColumnRef(ref.node_id, name)
    node = relations[ref.node_id]
    if node.resource_type in ("source", "seed"):
        reason = ""
    else:
        reason = failed.get(ref.node_id) or f"unknown_column: read by {reader}, not an output"
    by_name[ref.column] = _column_node(node, ColumnLineage(ref.column, "", [], reason))
    folded[ref.node_id][ref.column.casefold()] = ref.column
    return ref


_NODE_FAILURES = ("parse_error", "no_compiled_sql", "unsupported_sql")

_NODE_TYPES = {
    "source": NodeType.SOURCE,
    "seed": NodeType.SEED,
    "model": NodeType.MODEL,
    "snapshot": NodeType.SNAPSHOT,
}


def _relation_node(node: ManifestNode) -> LineageNode:
    name = f"{node.source_name}.{node.name}" if node.resource_type == "source" else node.name
    return fast_construct(
        LineageNode,
        NODE_DEFAULTS,
        node_id=node.unique_id,
        column=None,
        type=_NODE_TYPES[node.resource_type],
        layer=Layer.SCHEMA,
        name=name,
        data_type="",
        description=node.description,
        relation_name=node.relation_name or "",
        materialized=node.materialized,
        path=node.original_file_path,
        meta=dict(node.meta),
        tags=tuple(node.tags),
        resolved=True,
        reason="",
    )


def _column_node(node: ManifestNode, column: ColumnLineage) -> LineageNode:
    documented = node.columns.get(column.name) if node.columns else None
    if documented is None and node.columns:
        documented = _folded_lookup(node, column.name)
    return fast_construct(
        LineageNode,
        NODE_DEFAULTS,
        node_id=node.unique_id,
        column=column.name,
        type=NodeType.COLUMN,
        layer=Layer.SCHEMA,
        name=column.name,
        data_type=column.data_type or (documented.data_type or "" if documented else ""),
        description=documented.description if documented else "",
        relation_name="",
        materialized="",
        path="",
        meta=dict(documented.meta) if documented else {},
        tags=tuple(documented.tags) if documented else (),
        resolved=column.resolved,
        reason=column.reason,
    )


def _folded_lookup(node: ManifestNode, name: str):  # noqa: ANN202 - ColumnInfo | None
    wanted = name.casefold()
    for key, info in node.columns.items():
        if key.casefold() == wanted:
            return info
    return None


def _owner(name: str | None, email: str | None, url: str | None) -> dict[str, str]:
    values = {"owner_name": name, "owner_email": email, "url": url}
    return {key: value for key, value in values.items() if value}


def _metadata(artifacts: ProjectArtifacts) -> GraphMetadata:
    manifest = artifacts.manifest
    return GraphMetadata(
        dbt_lineage_version=__version__,
        project_name=manifest.metadata.project_name or "",
        adapter_type=manifest.metadata.adapter_type or "",
        dbt_version=manifest.metadata.dbt_version,
        manifest_schema_version=manifest.metadata.dbt_schema_version,
        manifest_checksum=manifest.metadata.sha256,
        generated_at=datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        has_catalog=artifacts.catalog is not None,
    )
