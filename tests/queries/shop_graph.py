"""Small lineage graphs built in code, shared by the query, output and CLI tests.

The shop::

    source ecom.raw_orders ──> stg_orders ──> orders ──> orders_snapshot
    source ecom.raw_customers ──> stg_customers ─┐  └──> legacy (no column lineage)
                                   stg_orders ───┴──> customer_orders ──> revenue_summary
    exposures: weekly_revenue reads customer_orders and revenue_summary; orders_app reads orders
"""

from __future__ import annotations

from dbt_lineage.graph.model import (
    ColumnNode,
    EdgeType,
    ExposureNode,
    LineageEdge,
    LineageGraph,
    LineageNode,
    NodeType,
    RelationNode,
)
from dbt_lineage.types import ColumnRef, EdgeKind

RAW_ORDERS = "source.shop.ecom.raw_orders"
RAW_CUSTOMERS = "source.shop.ecom.raw_customers"
STG_ORDERS = "model.shop.stg_orders"
STG_CUSTOMERS = "model.shop.stg_customers"
ORDERS = "model.shop.orders"
CUSTOMER_ORDERS = "model.shop.customer_orders"
REVENUE_SUMMARY = "model.shop.revenue_summary"
LEGACY = "model.shop.legacy"
SNAPSHOT = "snapshot.shop.orders_snapshot"
WEEKLY_REVENUE = "exposure.shop.weekly_revenue"
ORDERS_APP = "exposure.shop.orders_app"

_RELATIONS = {
    RAW_ORDERS: (NodeType.SOURCE, "ecom.raw_orders", "id customer_id amount status created_at"),
    RAW_CUSTOMERS: (NodeType.SOURCE, "ecom.raw_customers", "id name email"),
    STG_ORDERS: (
        NodeType.MODEL,
        "stg_orders",
        "order_id customer_id amount_usd status ordered_at",
    ),
    STG_CUSTOMERS: (NodeType.MODEL, "stg_customers", "customer_id name email"),
    ORDERS: (NodeType.MODEL, "orders", "order_id amount_usd is_big order_rank"),
    CUSTOMER_ORDERS: (
        NodeType.MODEL,
        "customer_orders",
        "customer_id name order_count revenue",
    ),
    REVENUE_SUMMARY: (NodeType.MODEL, "revenue_summary", "total_revenue customers"),
    LEGACY: (NodeType.MODEL, "legacy", "whatever"),
    SNAPSHOT: (NodeType.SNAPSHOT, "orders_snapshot", "order_id amount_usd"),
}

_DIRECT = [
    (RAW_ORDERS, "id", STG_ORDERS, "order_id", "identity"),
    (RAW_ORDERS, "customer_id", STG_ORDERS, "customer_id", "identity"),
    (RAW_ORDERS, "amount", STG_ORDERS, "amount_usd", "transform"),
    (RAW_ORDERS, "status", STG_ORDERS, "status", "identity"),
    (RAW_ORDERS, "created_at", STG_ORDERS, "ordered_at", "transform"),
    (RAW_CUSTOMERS, "id", STG_CUSTOMERS, "customer_id", "identity"),
    (RAW_CUSTOMERS, "name", STG_CUSTOMERS, "name", "identity"),
    (RAW_CUSTOMERS, "email", STG_CUSTOMERS, "email", "transform"),
    (STG_ORDERS, "order_id", ORDERS, "order_id", "identity"),
    (STG_ORDERS, "amount_usd", ORDERS, "amount_usd", "identity"),
    (STG_ORDERS, "amount_usd", ORDERS, "is_big", "transform"),
    (STG_CUSTOMERS, "customer_id", CUSTOMER_ORDERS, "customer_id", "identity"),
    (STG_CUSTOMERS, "name", CUSTOMER_ORDERS, "name", "identity"),
    (STG_ORDERS, "order_id", CUSTOMER_ORDERS, "order_count", "aggregate"),
    (STG_ORDERS, "amount_usd", CUSTOMER_ORDERS, "revenue", "aggregate"),
    (CUSTOMER_ORDERS, "revenue", REVENUE_SUMMARY, "total_revenue", "aggregate"),
    (CUSTOMER_ORDERS, "customer_id", REVENUE_SUMMARY, "customers", "aggregate"),
    (ORDERS, "order_id", SNAPSHOT, "order_id", "identity"),
    (ORDERS, "amount_usd", SNAPSHOT, "amount_usd", "identity"),
]

_INDIRECT = [
    (RAW_ORDERS, "status", STG_ORDERS, None, "filter"),
    (STG_ORDERS, "customer_id", CUSTOMER_ORDERS, None, "join"),
    (STG_ORDERS, "customer_id", CUSTOMER_ORDERS, None, "group_by"),
    (STG_CUSTOMERS, "customer_id", CUSTOMER_ORDERS, None, "join"),
    (STG_ORDERS, "ordered_at", ORDERS, "order_rank", "window"),
    (STG_ORDERS, "customer_id", ORDERS, "order_rank", "window"),
]

_DEPENDS = [
    (RAW_ORDERS, STG_ORDERS),
    (RAW_CUSTOMERS, STG_CUSTOMERS),
    (STG_ORDERS, ORDERS),
    (STG_ORDERS, CUSTOMER_ORDERS),
    (STG_CUSTOMERS, CUSTOMER_ORDERS),
    (STG_ORDERS, LEGACY),
    (ORDERS, SNAPSHOT),
    (CUSTOMER_ORDERS, REVENUE_SUMMARY),
    (CUSTOMER_ORDERS, WEEKLY_REVENUE),
    (REVENUE_SUMMARY, WEEKLY_REVENUE),
    (ORDERS, ORDERS_APP),
]


def shop_graph() -> LineageGraph:
    """The shop above, with kinds as its SQL would give them."""
    nodes: dict[str, LineageNode] = {}
    columns: dict[str, dict[str, ColumnNode]] = {}
    for node_id, (node_type, name, names) in _RELATIONS.items():
        nodes[node_id] = RelationNode(node_id=node_id, type=node_type, name=name)
        columns[node_id] = {
            column: ColumnNode(
                node_id=node_id,
                column=column,
                type=NodeType.COLUMN,
                name=column,
                resolved=node_id != LEGACY,
                reason="" if node_id != LEGACY else "parse_error: x",
            )
            for column in names.split()
        }
    for node_id, label, kind in (
        (WEEKLY_REVENUE, "Weekly revenue", "dashboard"),
        (ORDERS_APP, "Orders app", "application"),
    ):
        nodes[node_id] = ExposureNode(
            node_id=node_id, type=NodeType.EXPOSURE, name=label, exposure_type=kind
        )
        columns[node_id] = {}
    edges = [
        LineageEdge(
            source=ColumnRef(source, column),
            target=ColumnRef(target, output),
            type=EdgeType.DIRECT,
            kind=EdgeKind(kind),
            expression=column,
        )
        for source, column, target, output, kind in _DIRECT
    ]
    edges += [
        LineageEdge(
            source=ColumnRef(source, column),
            target=target if output is None else ColumnRef(target, output),
            type=EdgeType.INDIRECT,
            kind=EdgeKind(kind),
        )
        for source, column, target, output, kind in _INDIRECT
    ]
    edges += [
        LineageEdge(source=source, target=target, type=EdgeType.DEPENDS)
        for source, target in _DEPENDS
    ]
    return LineageGraph(nodes=nodes, columns=columns, edges=edges)


def chain_graph(
    direct: list[tuple[ColumnRef, ColumnRef, str]],
    relations: dict[str, NodeType] | None = None,
) -> LineageGraph:
    """A graph of models (or ``relations``) holding the columns ``direct`` names."""
    nodes: dict[str, LineageNode] = {}
    columns: dict[str, dict[str, ColumnNode]] = {}
    for ref in {ref for source, target, _ in direct for ref in (source, target)}:
        node_type = (relations or {}).get(ref.node_id, NodeType.MODEL)
        name = ref.node_id.rsplit(".", 1)[-1]
        nodes.setdefault(ref.node_id, RelationNode(node_id=ref.node_id, type=node_type, name=name))
        columns.setdefault(ref.node_id, {})[ref.column] = ColumnNode(
            node_id=ref.node_id, column=ref.column, type=NodeType.COLUMN, name=ref.column
        )
    edges = [
        LineageEdge(source=source, target=target, type=EdgeType.DIRECT, kind=EdgeKind(kind))
        for source, target, kind in direct
    ]
    return LineageGraph(nodes=nodes, columns=columns, edges=edges)
