"""Results for nodes whose SQL could not be read: their declared columns, unresolved."""

from __future__ import annotations

import typing as t

from dbt_lineage.resolve.node_lineage import (
    ColumnLineage,
    NodeDiagnostic,
    NodeInputs,
    NodeLineage,
    SqlNode,
)
from dbt_lineage.types import UnresolvedReason


class Outcome(t.NamedTuple):
    """A node's result, and the traceback of a bug met while resolving it."""

    result: NodeLineage
    traceback: str = ""


def failures(
    node: SqlNode, inputs: NodeInputs, reason: UnresolvedReason, message: str
) -> NodeLineage:
    """Module entry: a node with one diagnostic, its declared columns unresolved."""
    result = NodeLineage(node.unique_id)
    result.diagnostics.append(
        NodeDiagnostic(node.unique_id, node.original_file_path, reason.value, message)
    )
    for name, data_type in inputs.declared.items():
        result.columns[name] = ColumnLineage(name, data_type, [], reason.value)
    return result


def timed_out(node: SqlNode, inputs: NodeInputs, seconds: float) -> NodeLineage:
    """A node that did not resolve within its time budget."""
    message = (
        f"resolution took longer than {seconds:g}s and was stopped; its columns stay "
        "unresolved (raise --node-timeout, or simplify the model's SQL)"
    )
    return failures(node, inputs, UnresolvedReason.TIMEOUT, message)


def internal_error(node: SqlNode, inputs: NodeInputs, problem: str) -> NodeLineage:
    """A node whose resolution met a bug of ours (or whose worker process died)."""
    message = (
        f"internal error while resolving {node.unique_id} ({node.original_file_path}): "
        f"{problem}; its columns stay unresolved (rerun with --debug for the traceback, and "
        "please report it)"
    )
    return failures(node, inputs, UnresolvedReason.INTERNAL_ERROR, message)
