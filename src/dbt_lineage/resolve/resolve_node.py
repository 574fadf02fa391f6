"""Resolve one model's or snapshot's compiled SQL to column lineage over dbt node ids."""

from __future__ import annotations

from dbt_lineage.artifacts.manifest import ManifestNode
from dbt_lineage.errors import SqlError
from dbt_lineage.resolve.node_lineage import (
    ColumnLineage,
    NodeDiagnostic,
    NodeInputs,
    NodeLineage,
    SqlNode,
    UpstreamEdge,
)
from dbt_lineage.resolve.relations import EPHEMERAL_PREFIX
from dbt_lineage.sql.column_lineage import QueryLineage, Upstream, column_lineage
from dbt_lineage.types import ColumnRef, EdgeKind, UnresolvedReason

SNAPSHOT_COLUMNS = (
    "dbt_scd_id",
    "dbt_updated_at",
    "dbt_valid_from",
    "dbt_valid_to",
    "dbt_is_deleted",
)
"""Columns dbt adds to every snapshot; they have no upstream column."""


def resolve_node(node: ManifestNode | SqlNode, inputs: NodeInputs) -> NodeLineage:
    """Resolve every output column of ``node``; failures become diagnostics, not exceptions."""
    if not node.compiled_code:
        message = "no compiled SQL in the manifest: run `dbt compile` (or `dbt build`) first"
        return _failed(node, inputs, UnresolvedReason.NO_COMPILED_SQL, message)
    try:
        lineage = _lineage(node.compiled_code, inputs)
    except SqlError as error:
        detail = error.message.removeprefix("SQL does not parse: ")
        message = (
            f"SQL does not parse ({detail}); its columns stay unresolved: check the compiled SQL"
        )
        return _failed(node, inputs, UnresolvedReason.PARSE_ERROR, message)
    result = NodeLineage(node.unique_id, columns_from="sql")
    _map_columns(node, lineage, inputs, result)
    _map_indirect(node, lineage, inputs, result)
    _map_inferred(lineage, inputs, result)
    _add_diagnostics(node, lineage, result)
    return result


def _failed(
    node: ManifestNode | SqlNode, inputs: NodeInputs, reason: UnresolvedReason, message: str
) -> NodeLineage:
    """A node whose SQL could not be read: one diagnostic, its declared columns unresolved."""
    result = NodeLineage(node.unique_id)
    result.diagnostics.append(
        NodeDiagnostic(node.unique_id, node.original_file_path, reason.value, message)
    )
    for name, data_type in inputs.declared.items():
        result.columns[name] = ColumnLineage(name, data_type, [], reason.value)
    return result


def _node_of(upstream: Upstream, inputs: NodeInputs) -> str | None:
    """The dbt node an engine-reported table is, decided among the reader's dependencies."""
    return inputs.index.lookup(upstream.table_parts or (upstream.table,), inputs.upstream_ids)


def _lineage(sql: str, inputs: NodeInputs) -> QueryLineage:
    ephemeral = [name for name in inputs.schema if name.startswith(EPHEMERAL_PREFIX)]
    lineage = column_lineage(
        sql, dialect=inputs.dialect, schema=inputs.schema, tables_over_ctes=ephemeral
    )
    unknown = any(
        r.startswith(UnresolvedReason.UNKNOWN_COLUMN.value) for r in lineage.unresolved.values()
    )
    if unknown and inputs.partial:
        # YAML columns are often only the documented ones: infer those tables from the SQL.
        schema = {name: cols for name, cols in inputs.schema.items() if name not in inputs.partial}
        retry = column_lineage(
            sql, dialect=inputs.dialect, schema=schema, tables_over_ctes=ephemeral
        )
        if len(retry.unresolved) < len(lineage.unresolved):
            return retry
    return lineage


def _map_columns(
    node: ManifestNode | SqlNode, lineage: QueryLineage, inputs: NodeInputs, result: NodeLineage
) -> None:
    declared_types = {name.casefold(): data_type for name, data_type in inputs.declared.items()}
    for name, upstreams in lineage.columns.items():
        reason = lineage.unresolved.get(name, "")
        edges: dict[ColumnRef, UpstreamEdge] = {}
        for upstream in upstreams:
            node_id = _node_of(upstream, inputs)
            if node_id is None:
                reason = reason or f"{UnresolvedReason.UNKNOWN_TABLE.value}: {upstream.table}"
                continue
            if node_id == node.unique_id:
                continue
            ref = ColumnRef(node_id, upstream.column)
            kind = upstream.kind
            previous = edges.get(ref)
            if previous is None or kind.rank > previous.kind.rank:
                edges[ref] = UpstreamEdge(ref, kind, upstream.expression)
        data_type = declared_types.get(name.casefold()) or lineage.output_types.get(name, "")
        result.columns[name] = ColumnLineage(name, data_type, list(edges.values()), reason)
    if node.resource_type == "snapshot":
        for name, data_type in inputs.declared.items():
            if name.casefold() in SNAPSHOT_COLUMNS and name not in result.columns:
                result.columns[name] = ColumnLineage(name, data_type)
    if not lineage.columns and lineage.unresolved:
        reason = next(iter(lineage.unresolved.values()))
        for name, data_type in inputs.declared.items():
            result.columns.setdefault(name, ColumnLineage(name, data_type, [], reason))


def _map_indirect(
    node: ManifestNode | SqlNode, lineage: QueryLineage, inputs: NodeInputs, result: NodeLineage
) -> None:
    seen: set[tuple[ColumnRef, EdgeKind, str | None]] = set()
    for upstream in lineage.indirect:
        node_id = _node_of(upstream, inputs)
        if node_id is None or node_id == node.unique_id:
            continue
        ref = ColumnRef(node_id, upstream.column)
        edge = UpstreamEdge(ref, upstream.kind, upstream.expression)
        for name in upstream.columns if upstream.columns is not None else (None,):
            if (ref, upstream.kind, name) in seen:
                continue
            seen.add((ref, upstream.kind, name))
            if name is None:
                result.indirect.append(edge)
            elif name in result.columns:
                result.columns[name].indirect.append(edge)


def _map_inferred(lineage: QueryLineage, inputs: NodeInputs, result: NodeLineage) -> None:
    for parts, columns in lineage.inferred_schema.items():
        node_id = inputs.index.lookup(parts, inputs.upstream_ids)
        if node_id is not None and node_id != result.node_id:
            result.inferred.setdefault(node_id, {}).update(columns)


def _add_diagnostics(
    node: ManifestNode | SqlNode, lineage: QueryLineage, result: NodeLineage
) -> None:
    by_reason: dict[str, list[str]] = {}
    for column in result.columns.values():
        if column.reason:
            by_reason.setdefault(column.reason, []).append(column.name)
    if "*" in lineage.unresolved and "*" not in result.columns:
        by_reason.setdefault(lineage.unresolved["*"], []).append("*")
    for reason, columns in by_reason.items():
        code = reason.split(":", 1)[0]
        shown = ", ".join(columns[:5]) + (
            f" and {len(columns) - 5} more" if len(columns) > 5 else ""
        )
        message = f"{len(columns)} column(s) unresolved ({reason}): {shown}"
        result.diagnostics.append(
            NodeDiagnostic(node.unique_id, node.original_file_path, code, message, tuple(columns))
        )
