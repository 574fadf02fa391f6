"""Assemble the schema layer of the lineage graph from resolved nodes and the manifest."""

from __future__ import annotations

import datetime
import typing as t

from dbt_lineage._version import __version__
from dbt_lineage.artifacts.manifest import ColumnInfo, ManifestNode
from dbt_lineage.artifacts.project import ProjectArtifacts
from dbt_lineage.graph.model import (
    ColumnNode,
    Diagnostic,
    EdgeType,
    ExposureNode,
    GraphMetadata,
    LineageEdge,
    LineageGraph,
    LineageNode,
    NodeType,
    RelationNode,
)
from dbt_lineage.resolve.node_lineage import ColumnLineage, NodeLineage, UpstreamEdge
from dbt_lineage.resolve.project import ProjectLineage
from dbt_lineage.types import ColumnRef, UnresolvedReason

_NODE_FAILURES = (
    UnresolvedReason.PARSE_ERROR.value,
    UnresolvedReason.NO_COMPILED_SQL.value,
    UnresolvedReason.UNSUPPORTED_SQL.value,
    UnresolvedReason.INTERNAL_ERROR.value,
    UnresolvedReason.TIMEOUT.value,
)

_NODE_TYPES = {
    "source": NodeType.SOURCE,
    "seed": NodeType.SEED,
    "model": NodeType.MODEL,
    "snapshot": NodeType.SNAPSHOT,
}


def build_graph(artifacts: ProjectArtifacts, lineage: ProjectLineage) -> LineageGraph:
    """The schema-layer graph: relations, exposures, columns, and their edges.

    Args:
        artifacts: the loaded manifest and catalog.
        lineage: per-node resolution results from ``resolve_project``.
    """
    manifest = artifacts.manifest
    relations = manifest.relation_nodes()
    nodes: dict[str, LineageNode] = {}
    columns: dict[str, dict[str, ColumnNode]] = {}
    for node_id, result in lineage.nodes.items():
        node = relations[node_id]
        nodes[node_id] = _relation_node(node, result.columns_from)
        columns[node_id] = _column_nodes(node, result.columns)
    builder = _EdgeBuilder(relations, columns, lineage)
    for node_id, result in lineage.nodes.items():
        builder.add_node(node_id, result)
        for parent in dict.fromkeys(relations[node_id].depends_on.nodes):
            if parent in nodes:
                builder.edges.append(LineageEdge(parent, node_id, EdgeType.DEPENDS))
    for exposure in manifest.exposures.values():
        nodes[exposure.unique_id] = ExposureNode(
            node_id=exposure.unique_id,
            type=NodeType.EXPOSURE,
            name=exposure.label or exposure.name,
            description=exposure.description,
            path=exposure.original_file_path,
            meta=dict(exposure.meta),
            tags=tuple(exposure.tags),
            exposure_type=exposure.type,
            label=exposure.label or "",
            url=exposure.url or "",
            maturity=exposure.maturity or "",
            owner_name=exposure.owner.name or "",
            owner_email=exposure.owner.email or "",
        )
        for parent in dict.fromkeys(exposure.depends_on.nodes):
            if parent in nodes:
                builder.edges.append(LineageEdge(parent, exposure.unique_id, EdgeType.DEPENDS))
    diagnostics = [
        Diagnostic(item.node_id, item.reason, item.message, item.path, item.columns)
        for result in lineage.nodes.values()
        for item in result.diagnostics
    ]
    return LineageGraph(
        metadata=_metadata(artifacts),
        nodes=nodes,
        columns=columns,
        edges=builder.edges,
        diagnostics=diagnostics,
    )


class _EdgeBuilder:
    """Turns each node's upstream edges into graph edges to canonical column keys."""

    def __init__(
        self,
        relations: dict[str, ManifestNode],
        columns: dict[str, dict[str, ColumnNode]],
        lineage: ProjectLineage,
    ) -> None:
        self.relations = relations
        self.columns = columns
        self.folded: dict[str, dict[str, str]] = {}
        """A relation's column names by their case-folded form, made when first needed
        (only an edge to a column its relation does not list needs them)."""
        self.failed = {
            item.node_id: item.reason
            for result in lineage.nodes.values()
            for item in result.diagnostics
            if item.reason in _NODE_FAILURES
        }
        self.edges: list[LineageEdge] = []

    def add_node(self, node_id: str, result: NodeLineage) -> None:
        direct, indirect = EdgeType.DIRECT, EdgeType.INDIRECT
        for name, column in result.columns.items():
            if column.upstreams or column.indirect:  # most lists are empty: no call for them
                target = ColumnRef(node_id, name)
                if column.upstreams:
                    self._add(node_id, column.upstreams, target, direct)
                if column.indirect:
                    self._add(node_id, column.indirect, target, indirect)
        if result.indirect:
            self._add(node_id, result.indirect, node_id, indirect)

    def _add(
        self,
        reader: str,
        found: t.Iterable[UpstreamEdge],
        target: str | ColumnRef,
        edge_type: EdgeType,
    ) -> None:
        columns, edges = self.columns, self.edges
        for edge in found:
            upstream = edge.upstream
            by_name = columns.get(upstream.node_id)
            if by_name is not None and upstream.column in by_name:
                source: ColumnRef | None = upstream
            else:
                source = self._canonical(upstream, reader)
            if source is not None:
                edges.append(LineageEdge(source, target, edge_type, edge.kind, edge.expression))

    def _canonical(self, ref: ColumnRef, reader: str) -> ColumnRef | None:
        """The upstream column's key, adding a column its relation was not known to have.

        A source or seed simply has the column (inferred from its readers); a model whose
        SQL failed keeps its failure as the reason; any other model was read for a column
        its SQL does not produce.
        """
        by_name = self.columns.get(ref.node_id)
        if by_name is None:
            return None
        if ref.column in by_name:
            return ref
        folded = self.folded.get(ref.node_id)
        if folded is None:
            folded = self.folded[ref.node_id] = {name.casefold(): name for name in by_name}
        name = folded.get(ref.column.casefold())
        if name is not None:
            return ColumnRef(ref.node_id, name)
        node = self.relations[ref.node_id]
        if node.resource_type in ("source", "seed"):
            reason = ""
        else:
            reason = self.failed.get(ref.node_id) or (
                f"{UnresolvedReason.UNKNOWN_COLUMN.value}: read by {reader}, not an output"
            )
        column = ColumnLineage(ref.column, "", [], reason, inferred=True)
        by_name[ref.column] = _column_node(node, column, _Documented(node).get(ref.column))
        folded[ref.column.casefold()] = ref.column
        return ref


def _relation_node(node: ManifestNode, columns_from: str) -> RelationNode:
    name = f"{node.source_name}.{node.name}" if node.resource_type == "source" else node.name
    return RelationNode(
        node_id=node.unique_id,
        type=_NODE_TYPES[node.resource_type],
        name=name,
        description=node.description,
        path=node.original_file_path,
        meta=dict(node.meta),
        tags=tuple(node.tags),
        relation_name=node.relation_name or "",
        materialized=node.materialized,
        package_name=node.package_name,
        columns_from=columns_from,
    )


def _column_nodes(node: ManifestNode, found: dict[str, ColumnLineage]) -> dict[str, ColumnNode]:
    """A relation's column nodes, with their YAML entries when the relation has any."""
    if node.columns:
        documented = _Documented(node)
        return {
            name: _column_node(node, column, documented.get(name)) for name, column in found.items()
        }
    return {name: _column_node(node, column, None) for name, column in found.items()}


def _column_node(
    node: ManifestNode, column: ColumnLineage, documented: ColumnInfo | None
) -> ColumnNode:
    if documented is None:
        return ColumnNode(
            node_id=node.unique_id,
            type=NodeType.COLUMN,
            name=column.name,
            column=column.name,
            data_type=column.data_type,
            resolved=not column.reason,
            reason=column.reason,
            inferred=column.inferred,
        )
    return ColumnNode(
        node_id=node.unique_id,
        type=NodeType.COLUMN,
        name=column.name,
        column=column.name,
        description=documented.description,
        meta=dict(documented.meta),
        tags=tuple(documented.tags),
        data_type=column.data_type or documented.data_type or "",
        resolved=not column.reason,
        reason=column.reason,
        inferred=column.inferred,
    )


class _Documented:
    """A node's YAML columns by name: exactly, else the one entry equal ignoring case."""

    def __init__(self, node: ManifestNode) -> None:
        self.columns = node.columns
        self._folded: dict[str, list[ColumnInfo]] | None = None

    def get(self, name: str) -> ColumnInfo | None:
        if not self.columns:
            return None
        found = self.columns.get(name)
        if found is not None:
            return found
        if self._folded is None:
            self._folded = {}
            for key, info in self.columns.items():
                self._folded.setdefault(key.casefold(), []).append(info)
        matches = self._folded.get(name.casefold(), [])
        return matches[0] if len(matches) == 1 else None


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
