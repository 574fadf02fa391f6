"""Resolve one model's or snapshot's compiled SQL to column lineage over dbt node ids."""

from __future__ import annotations

import typing as t

from dbt_lineage.errors import SqlError
from dbt_lineage.resolve.failures import failures
from dbt_lineage.resolve.node_lineage import (
    ColumnLineage,
    NodeDiagnostic,
    NodeInputs,
    NodeLineage,
    SqlNode,
    UpstreamEdge,
)
from dbt_lineage.resolve.relations import EPHEMERAL_PREFIX
from dbt_lineage.resolve.snapshot_columns import snapshot_columns
from dbt_lineage.sql.column_lineage import QueryLineage, Upstream, column_lineage
from dbt_lineage.types import ColumnRef, EdgeKind, UnresolvedReason

if t.TYPE_CHECKING:
    from dbt_lineage.artifacts.manifest import ManifestNode

Node = t.Union["ManifestNode", SqlNode]  # noqa: UP007 - a runtime alias


def resolve_node(node: Node, inputs: NodeInputs) -> NodeLineage:
    """Resolve every output column of ``node``; SQL problems become diagnostics.

    Only the engine's own ``SqlError`` (SQL that does not parse) is caught here; any other
    exception is a bug, which the caller turns into an ``internal_error`` diagnostic.
    """
    if not node.compiled_code:
        message = "no compiled SQL in the manifest: run `dbt compile` (or `dbt build`) first"
        return failures(node, inputs, UnresolvedReason.NO_COMPILED_SQL, message)
    ephemeral = [name for name in inputs.schema if name.startswith(EPHEMERAL_PREFIX)]
    try:
        lineage = column_lineage(
            node.compiled_code,
            dialect=inputs.dialect,
            schema=inputs.schema,
            tables_over_ctes=ephemeral,
            partial=inputs.partial,
            lenient=inputs.lenient,
        )
    except SqlError as error:
        detail = error.message.removeprefix("SQL does not parse: ")
        message = (
            f"SQL does not parse ({detail}); its columns stay unresolved: check the compiled SQL"
        )
        return failures(node, inputs, UnresolvedReason.PARSE_ERROR, message)
    result = NodeLineage(node.unique_id, columns_from="sql")
    names = _names(node, lineage, inputs, result)
    _map_columns(node, lineage, inputs, result, names)
    _map_indirect(node, lineage, inputs, result, names)
    _map_inferred(lineage, inputs, result)
    _add_diagnostics(node, lineage, result)
    return result


def _node_of(upstream: Upstream | tuple[str, ...], inputs: NodeInputs) -> str | None:
    """The dbt node an engine-reported table is, decided among the reader's dependencies."""
    parts = upstream if isinstance(upstream, tuple) else (upstream.table_parts or (upstream.table,))
    return inputs.index.lookup(parts, inputs.upstream_ids)


def _names(
    node: Node, lineage: QueryLineage, inputs: NodeInputs, result: NodeLineage
) -> dict[str, str]:
    """Engine output name -> the node's column name.

    With the node's own catalog columns, an output the SQL leaves unnamed takes the
    warehouse's name at its position, and every name takes the catalog's spelling.
    """
    outputs = list(lineage.columns)
    names = {name: name for name in outputs}
    if inputs.declared_complete and len(inputs.declared) == len(outputs):
        declared = list(inputs.declared)
        for position, name in enumerate(outputs):
            if name in lineage.unnamed or declared[position].casefold() == name.casefold():
                names[name] = declared[position]
    else:
        folded = {n.casefold(): n for n in inputs.declared} if inputs.declared_complete else {}
        for name in outputs:
            names[name] = folded.get(name.casefold(), name)
    unnamed = [names[name] for name in lineage.unnamed if names[name] == name]
    if unnamed:
        result.diagnostics.append(
            NodeDiagnostic(
                node.unique_id,
                node.original_file_path,
                UnresolvedReason.UNNAMED_COLUMN.value,
                f"{len(unnamed)} output column(s) have no alias and no catalog name: "
                f"{', '.join(unnamed[:5])} (give them an alias, or run `dbt docs generate`)",
                tuple(unnamed),
            )
        )
    return names


def _map_columns(
    node: Node,
    lineage: QueryLineage,
    inputs: NodeInputs,
    result: NodeLineage,
    names: dict[str, str],
) -> None:
    declared_types = {name.casefold(): data_type for name, data_type in inputs.declared.items()}
    for output, upstreams in lineage.columns.items():
        name = names[output]
        reason = lineage.unresolved.get(output, "")
        edges: dict[ColumnRef, UpstreamEdge] = {}
        for upstream in upstreams:
            node_id = _node_of(upstream, inputs)
            if node_id is None:
                reason = reason or f"{UnresolvedReason.UNKNOWN_TABLE.value}: {upstream.table}"
                continue
            if node_id == node.unique_id:
                continue
            ref = ColumnRef(node_id, upstream.column)
            previous = edges.get(ref)
            if previous is None or upstream.kind.rank > previous.kind.rank:
                edges[ref] = UpstreamEdge(ref, upstream.kind, upstream.expression)
        data_type = declared_types.get(name.casefold()) or lineage.output_types.get(output, "")
        result.columns[name] = ColumnLineage(name, data_type, list(edges.values()), reason)
    _map_star_sources(lineage, inputs, result)
    if node.resource_type == "snapshot":
        snapshot_columns(
            result,
            inputs.snapshot,
            inputs.dialect,
            inputs.declared,
            lineage.unresolved.get("*", ""),
        )
    if not lineage.columns and lineage.unresolved and not lineage.star_sources:
        reason = next(iter(lineage.unresolved.values()))
        for name, data_type in inputs.declared.items():
            result.columns.setdefault(name, ColumnLineage(name, data_type, [], reason))


def _map_indirect(
    node: Node,
    lineage: QueryLineage,
    inputs: NodeInputs,
    result: NodeLineage,
    names: dict[str, str],
) -> None:
    seen: set[tuple[ColumnRef, EdgeKind, str | None]] = set()
    for upstream in lineage.indirect:
        node_id = _node_of(upstream, inputs)
        if node_id is None or node_id == node.unique_id:
            continue
        ref = ColumnRef(node_id, upstream.column)
        edge = UpstreamEdge(ref, upstream.kind, upstream.expression)
        scope = [names.get(name, name) for name in upstream.columns or ()] or [None]
        for name in scope:
            if (ref, upstream.kind, name) in seen:
                continue
            seen.add((ref, upstream.kind, name))
            if name is None:
                result.indirect.append(edge)
            elif name in result.columns:
                result.columns[name].indirect.append(edge)


def _map_inferred(lineage: QueryLineage, inputs: NodeInputs, result: NodeLineage) -> None:
    for parts, columns in lineage.inferred_schema.items():
        node_id = _node_of(parts, inputs)
        if node_id is not None and node_id != result.node_id:
            result.inferred.setdefault(node_id, {}).update(columns)


def _map_star_sources(lineage: QueryLineage, inputs: NodeInputs, result: NodeLineage) -> None:
    """The nodes whose unknown columns the SQL's ``SELECT *`` passes through."""
    for parts in lineage.star_sources:
        node_id = _node_of(parts, inputs)
        if node_id is not None and node_id != result.node_id:
            result.star_sources.append(node_id)
    through = [_node_of(parts, inputs) for parts in lineage.star_through]
    if all(node_id is not None and node_id != result.node_id for node_id in through):
        result.star_through = [node_id for node_id in through if node_id is not None]


def _add_diagnostics(node: Node, lineage: QueryLineage, result: NodeLineage) -> None:
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
    for note in lineage.notes:
        code = note.removeprefix("rows: ").split(":", 1)[0]
        if code not in {reason.value for reason in UnresolvedReason}:
            code = UnresolvedReason.NOTE.value
        result.diagnostics.append(
            NodeDiagnostic(node.unique_id, node.original_file_path, code, note)
        )
