"""lookup: what users type, in dbt's forms, to node ids and column keys."""

from __future__ import annotations

import pytest
from tests.queries.shop_graph import (
    RAW_ORDERS,
    STG_ORDERS,
    WEEKLY_REVENUE,
    chain_graph,
    shop_graph,
)

from dbt_lineage.errors import SelectionError
from dbt_lineage.graph.model import ColumnNode, LineageGraph, NodeType, RelationNode
from dbt_lineage.queries.lookup import lookup
from dbt_lineage.types import ColumnRef


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("stg_orders", STG_ORDERS),
        ("shop.stg_orders", STG_ORDERS),
        ("model.shop.stg_orders", STG_ORDERS),
        ("  stg_orders ", STG_ORDERS),
        ("source:ecom.raw_orders", RAW_ORDERS),
        ("ecom.raw_orders", RAW_ORDERS),
        ("shop.ecom.raw_orders", RAW_ORDERS),
        ("source.shop.ecom.raw_orders", RAW_ORDERS),
        ("exposure:weekly_revenue", WEEKLY_REVENUE),
        ("exposure.shop.weekly_revenue", WEEKLY_REVENUE),
        ("stg_orders.amount_usd", ColumnRef(STG_ORDERS, "amount_usd")),
        ("shop.stg_orders.amount_usd", ColumnRef(STG_ORDERS, "amount_usd")),
        ("model.shop.stg_orders.amount_usd", ColumnRef(STG_ORDERS, "amount_usd")),
        ("ecom.raw_orders.amount", ColumnRef(RAW_ORDERS, "amount")),
        ("source:ecom.raw_orders.amount", ColumnRef(RAW_ORDERS, "amount")),
        ("source.shop.ecom.raw_orders.amount", ColumnRef(RAW_ORDERS, "amount")),
        ("stg_orders.AMOUNT_USD", ColumnRef(STG_ORDERS, "amount_usd")),
    ],
)
def test_dbt_forms(text: str, expected: str | ColumnRef) -> None:
    assert lookup(shop_graph(), text) == expected


def test_unknown_node_suggests_close_names() -> None:
    with pytest.raises(SelectionError) as raised:
        lookup(shop_graph(), "stg_ordrs")
    assert str(raised.value).startswith("no node named 'stg_ordrs'; did you mean stg_orders")


def test_unknown_node_of_a_column_is_reported_by_its_node_name() -> None:
    with pytest.raises(SelectionError) as raised:
        lookup(shop_graph(), "stg_ordrs.amount_usd")
    assert str(raised.value).startswith("no node named 'stg_ordrs'; did you mean stg_orders")


def test_a_misspelt_package_qualified_name_is_reported_whole() -> None:
    with pytest.raises(SelectionError) as raised:
        lookup(shop_graph(), "ecom.raw_ordrs")
    assert str(raised.value).startswith("no node named 'ecom.raw_ordrs'; did you mean raw_orders")


def test_unknown_column_suggests_close_columns() -> None:
    with pytest.raises(SelectionError) as raised:
        lookup(shop_graph(), "stg_orders.amount")
    assert str(raised.value) == (
        "no column named 'amount' in model.shop.stg_orders; did you mean amount_usd?"
    )
    assert raised.value.suggestions == ["amount_usd"]


def test_unknown_name_without_anything_close() -> None:
    with pytest.raises(SelectionError, match=r"^no node named 'zzz'$"):
        lookup(shop_graph(), "zzz")


def test_the_longest_node_prefix_wins() -> None:
    graph = chain_graph([(ColumnRef("model.a.b", "x"), ColumnRef("model.x.a", "b"), "identity")])
    assert lookup(graph, "a.b") == "model.a.b"
    assert lookup(graph, "x.a.b") == ColumnRef("model.x.a", "b")
    assert lookup(graph, "b.x") == ColumnRef("model.a.b", "x")


def test_a_name_of_several_nodes_is_refused() -> None:
    graph = chain_graph(
        [(ColumnRef("model.p1.dup", "x"), ColumnRef("model.p2.dup", "x"), "identity")]
    )
    with pytest.raises(SelectionError, match="'dup' matches several nodes"):
        lookup(graph, "dup")
    with pytest.raises(SelectionError, match="'dup' matches several nodes"):
        lookup(graph, "dup.x")
    assert lookup(graph, "p2.dup.x") == ColumnRef("model.p2.dup", "x")


def test_exact_column_case_wins_then_ambiguous_case_is_refused() -> None:
    graph = chain_graph(
        [
            (ColumnRef("source.p.s.t", "ID"), ColumnRef("model.p.m", "id"), "identity"),
            (ColumnRef("source.p.s.t", "Id"), ColumnRef("model.p.m", "other"), "identity"),
        ],
        relations={"source.p.s.t": NodeType.SOURCE},
    )
    assert lookup(graph, "m.id") == ColumnRef("model.p.m", "id")
    assert lookup(graph, "m.ID") == ColumnRef("model.p.m", "id")
    assert lookup(graph, "source.p.s.t.ID") == ColumnRef("source.p.s.t", "ID")
    with pytest.raises(SelectionError, match="'iD' matches several columns"):
        lookup(graph, "source.p.s.t.iD")


def test_empty_text_is_refused() -> None:
    with pytest.raises(SelectionError):
        lookup(shop_graph(), " ")


def test_a_column_name_with_dots_is_read_after_a_shorter_node() -> None:
    graph = chain_graph(
        [(ColumnRef("source.p.s.events", "payload.id"), ColumnRef("model.p.m", "id"), "transform")],
        relations={"source.p.s.events": NodeType.SOURCE},
    )
    assert lookup(graph, "s.events.payload.id") == ColumnRef("source.p.s.events", "payload.id")
    assert lookup(graph, "m.id") == ColumnRef("model.p.m", "id")


def test_an_unknown_column_of_the_longest_node_is_reported() -> None:
    with pytest.raises(SelectionError, match="no column named 'amout' in model.shop.stg_orders"):
        lookup(shop_graph(), "shop.stg_orders.amout")


def test_a_one_letter_typo_suggests_the_right_name_among_10000_models() -> None:
    layers, domains = ["stg", "int", "fct", "dim"], ["billing", "sales", "support", "finance"]
    entities = ["accounts", "invoices", "payments", "tickets", "customers"]
    names = [
        f"{layers[i % 4]}_{domains[i // 4 % 4]}__{entities[i // 16 % 5]}_{i}" for i in range(10000)
    ]
    wide = names[1000]  # with 500 columns alike
    graph = LineageGraph(
        nodes={
            f"model.shop.{name}": RelationNode(
                node_id=f"model.shop.{name}", type=NodeType.MODEL, name=name
            )
            for name in names
        },
        columns={
            f"model.shop.{name}": {
                column: ColumnNode(
                    node_id=f"model.shop.{name}", column=column, type=NodeType.COLUMN, name=column
                )
                for column in ([f"metric_{n}_total" for n in range(500)] if name == wide else [])
            }
            for name in names
        },
    )
    assert wide == "stg_support__payments_1000"
    for typo in (
        "stg_support__paymnts_1000",  # a letter left out
        "stg_support__paymants_1000",  # a letter changed
        "stg_support__payments_10000",  # a letter added
        "stg_suppotr__payments_1000",  # two letters swapped
    ):
        with pytest.raises(SelectionError) as raised:
            lookup(graph, f"{typo}.metric_1_total")
        assert raised.value.suggestions[0] == wide, (typo, raised.value.suggestions)
    for typo in ("metric_42_totl", "metrc_42_total", "metric_42_totla"):
        with pytest.raises(SelectionError) as raised:
            lookup(graph, f"{wide}.{typo}")
        assert raised.value.suggestions[0] == "metric_42_total", (typo, raised.value.suggestions)
