"""Turn what a user typed (``NODE`` or ``NODE.COLUMN``) into a graph key."""

from __future__ import annotations

import typing as t

from dbt_lineage.artifacts.close_matches import close_matches
from dbt_lineage.artifacts.names import NamedNode, resolve_name
from dbt_lineage.errors import SelectionError
from dbt_lineage.graph.model import LineageGraph, LineageNode, NodeType, short_name
from dbt_lineage.types import ColumnRef


def lookup(graph: LineageGraph, text: str) -> str | ColumnRef:
    """The relation or exposure id, or the ``ColumnRef``, that ``text`` names.

    ``NODE`` accepts dbt's forms: ``orders``, ``shop.orders``, ``model.shop.orders``,
    ``source:ecom.raw_orders``, ``ecom.raw_orders``, ``exposure:weekly_revenue``.
    ``NODE.COLUMN`` names a column: the whole text is tried as a node first, then everything
    before the last dot with the last part as the column, then before the dot before that
    (a column whose name has dots), and so on. A column matches exactly, else
    case-insensitively.

    >>> from dbt_lineage.graph.model import ColumnNode, NodeType, RelationNode
    >>> graph = LineageGraph(
    ...     nodes={"model.shop.orders": RelationNode(
    ...         node_id="model.shop.orders", type=NodeType.MODEL, name="orders")},
    ...     columns={"model.shop.orders": {"amount": ColumnNode(
    ...         node_id="model.shop.orders", column="amount", type=NodeType.COLUMN,
    ...         name="amount")}},
    ... )
    >>> lookup(graph, "orders")
    'model.shop.orders'
    >>> lookup(graph, "shop.orders.AMOUNT")
    ColumnRef(node_id='model.shop.orders', column='amount')
    >>> lookup(graph, "ordrs.amount")
    Traceback (most recent call last):
    ...
    dbt_lineage.errors.SelectionError: no node named 'ordrs'; did you mean orders?

    Raises:
        SelectionError: no node or column has that name (with "did you mean"), or the name
            matches several nodes.
    """
    text = text.strip()
    if not text:
        raise SelectionError("no node named ''; give NODE or NODE.COLUMN")
    # (node, column) readings, the longest node first: the whole text, then before each dot.
    readings: list[tuple[str, str | None]] = [(text, None)]
    readings += [(text[:i], text[i + 1 :]) for i in range(len(text) - 2, 0, -1) if text[i] == "."]
    candidates: list[NamedNode] | None = None
    unknown_column: SelectionError | None = None
    for name, column in readings:
        if name not in graph.nodes:
            if candidates is None:
                # Only nodes named like a reading's last part can match: match among those.
                last_parts = {_last_part(reading) for reading, _ in readings}
                candidates = [_named(node) for node in graph.nodes_named(last_parts)]
            try:
                name = resolve_name(name, candidates)
            except SelectionError:
                continue
        if column is None:
            return name
        try:
            return _column(graph, name, column)
        except SelectionError as error:
            unknown_column = unknown_column or error
    if unknown_column is not None:
        raise unknown_column
    everything = [_named_id(node_id, short) for node_id, short in graph.short_names()]
    if len(readings) == 1:
        raise _failure(text, everything)
    head = readings[1][0]
    raise _best(text, head, everything)


def _last_part(name: str) -> str:
    rest = name.partition(":")[2] if ":" in name else name
    return rest.rpartition(".")[2]


def _failure(name: str, candidates: list[NamedNode]) -> SelectionError:
    """The error ``resolve_name`` gives for a name that matches nothing, with suggestions."""
    try:
        resolve_name(name, candidates)
    except SelectionError as error:
        return error
    return SelectionError(f"no node named '{name}'")


def _named(node: LineageNode) -> NamedNode:
    """A node as ``resolve_name`` matches it, read from its unique id."""
    return _named_id(node.node_id, short_name(node))


def _named_id(node_id: str, short: str) -> NamedNode:
    """A node as ``resolve_name`` matches it, from its unique id and short name."""
    resource_type, _, rest = node_id.partition(".")
    package, _, rest = rest.partition(".")
    source_name = rest.partition(".")[0] if resource_type == NodeType.SOURCE.value else ""
    return NamedNode(node_id, resource_type, short, package, source_name)


def _best(text: str, head: str, everything: list[NamedNode]) -> SelectionError:
    """Which failure to report when neither ``text`` nor its head names a node.

    The head's error when it matches several nodes or has suggestions (the user most likely
    typed NODE.COLUMN), else the whole text's. The whole text's is computed only then: "did
    you mean" compares with every node's name.
    """
    partial = _failure(head, everything)
    if partial.suggestions or partial.message.startswith(f"'{head}' matches several nodes"):
        return partial
    return _failure(text, everything)


def _column(graph: LineageGraph, node_id: str, column: str) -> ColumnRef:
    by_name: t.Mapping[str, LineageNode] = graph.columns.get(node_id, {})
    if column in by_name:
        return ColumnRef(node_id, column)
    wanted = column.casefold()
    folded = [name for name in by_name if name.casefold() == wanted]
    if len(folded) == 1:
        return ColumnRef(node_id, folded[0])
    if folded:
        raise SelectionError(
            f"'{column}' matches several columns of {node_id}: {', '.join(sorted(folded))}"
        )
    spellings = {name.casefold(): name for name in by_name}
    close = close_matches(wanted, list(spellings))
    if not by_name:
        raise SelectionError(f"no column named '{column}' in {node_id}: it has no columns")
    raise SelectionError(
        f"no column named '{column}' in {node_id}",
        suggestions=[spellings[name] for name in close],
    )
