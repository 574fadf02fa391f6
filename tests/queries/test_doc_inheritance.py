"""Documentation inheritance: identity copies (renames included) inherit, nothing else."""

from __future__ import annotations

from dbt_lineage.graph.model import (
    ColumnNode,
    EdgeType,
    LineageEdge,
    LineageGraph,
    NodeType,
    RelationNode,
)
from dbt_lineage.queries.doc_inheritance import ColumnDescription, doc_inheritance
from dbt_lineage.queries.edge_index import edge_index
from dbt_lineage.types import ColumnRef, EdgeKind


def _graph(
    edges: list[tuple[ColumnRef, ColumnRef, str]],
    docs: dict[ColumnRef, str],
    meta: dict[ColumnRef, dict] | None = None,
) -> LineageGraph:
    refs = {ref for source, target, _ in edges for ref in (source, target)} | set(docs)
    nodes, columns = {}, {}
    for ref in refs:
        nodes[ref.node_id] = RelationNode(node_id=ref.node_id, type=NodeType.MODEL, name="m")
        columns.setdefault(ref.node_id, {})[ref.column] = ColumnNode(
            node_id=ref.node_id,
            column=ref.column,
            type=NodeType.COLUMN,
            name=ref.column,
            description=docs.get(ref, ""),
            meta=(meta or {}).get(ref, {}),
        )
    edges_ = [LineageEdge(s, t, EdgeType.DIRECT, EdgeKind(k), "") for s, t, k in edges]
    return LineageGraph(nodes=nodes, columns=columns, edges=edges_)


A, B, C = (
    ColumnRef("model.p.a", "id"),
    ColumnRef("model.p.b", "customer_id"),
    ColumnRef("model.p.c", "customer_id"),
)


def test_rename_chain_inherits_from_the_documented_column() -> None:
    graph = _graph([(A, B, "identity"), (B, C, "identity")], {A: "Customer id."})
    for docs in (doc_inheritance(graph), doc_inheritance(graph, index=edge_index(graph))):
        assert docs.inherited() == {
            B: ColumnDescription("Customer id.", A, 1),
            C: ColumnDescription("Customer id.", A, 2),
        }
        assert docs.describe(A) == ColumnDescription("Customer id.")


def test_a_nearer_documented_column_wins() -> None:
    graph = _graph([(A, B, "identity"), (B, C, "identity")], {A: "Id.", B: "The customer."})
    assert doc_inheritance(graph).describe(C) == ColumnDescription("The customer.", B, 1)


def test_a_computed_column_inherits_nothing() -> None:
    graph = _graph([(A, B, "transform"), (A, C, "aggregate")], {A: "Amount."})
    assert doc_inheritance(graph).inherited() == {}


def test_union_branches_must_agree() -> None:
    other = ColumnRef("model.p.other", "id")
    agreeing = _graph([(A, C, "identity"), (other, C, "identity")], {A: "Id.", other: "Id."})
    assert doc_inheritance(agreeing).describe(C) == ColumnDescription("Id.", A, 1)
    differing = _graph([(A, C, "identity"), (other, C, "identity")], {A: "Id.", other: "Key."})
    assert doc_inheritance(differing).describe(C) is None
    half = _graph([(A, C, "identity"), (other, C, "identity")], {A: "Id."})
    assert doc_inheritance(half).describe(C) is None


def test_a_description_we_wrote_is_inherited_not_own() -> None:
    ours = {"dbt_lineage": {"description_from": {"node": A.node_id, "column": A.column}}}
    graph = _graph([(A, B, "identity")], {A: "Id.", B: "Id."}, meta={B: ours})
    assert doc_inheritance(graph).describe(B) == ColumnDescription("Id.", A, 1)
    # and when the lineage no longer gives it, the recorded source is kept
    alone = _graph([], {B: "Id."}, meta={B: ours})
    assert doc_inheritance(alone).describe(B) == ColumnDescription("Id.", A, 0)


def test_a_column_reading_itself_ends_the_walk() -> None:
    graph = _graph([(B, B, "identity")], {})
    assert doc_inheritance(graph).describe(B) is None
