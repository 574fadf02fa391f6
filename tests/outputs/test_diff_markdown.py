"""The PR comment stays within its budget whatever the size of the change, and says what it
left out."""

from __future__ import annotations

from dbt_lineage.graph.model import EdgeType, LineageEdge, LineageGraph, NodeType, RelationNode
from dbt_lineage.outputs.diff_markdown import BUDGET, MARKER, diff_markdown
from dbt_lineage.outputs.diff_mermaid import diff_mermaid


def _huge(models: int) -> tuple[dict, LineageGraph]:
    ids = [f"model.shop.model_with_a_rather_long_name_{i:05d}" for i in range(models)]
    graph = LineageGraph(
        nodes={i: RelationNode(node_id=i, type=NodeType.MODEL, name=i.split(".")[-1]) for i in ids},
        edges=[
            LineageEdge(ids[i], ids[j], EdgeType.DEPENDS)
            for i in range(models)
            for j in (i + 1, i + 7)
            if j < models
        ],
    )
    document = {
        "schema_version": 1,
        "verdict": "review",
        "changes": [
            {
                "node": i,
                "change": "modified",
                "class": "breaking",
                "columns": {f"column_{k}": "logic" for k in range(12)},
                "reasons": ["row set changes: WHERE changed"],
            }
            for i in ids[: models // 2]
        ],  # fmt: skip
        "impacted": {
            "columns": [
                {
                    "node": i,
                    "column": f"column_{k}",
                    "distance": 1,
                    "via": {"node": ids[0], "column": "", "kind": "rows"},
                }
                for i in ids
                for k in range(20)
            ],  # fmt: skip
            "models": ids[models // 2 :],
            "exposures": [],
        },
        "broken_references": [],
        "unknown": [],
    }
    return document, graph


def test_a_huge_change_fits_and_says_what_was_left_out() -> None:
    document, graph = _huge(3000)
    text = diff_markdown(document, graph=graph)
    assert len(text) <= BUDGET
    assert text.startswith(MARKER)
    assert "## ⚠️ dbt-lineage diff: review" in text
    assert "| Node | Change | Class | Columns |" in text
    last = text.strip().splitlines()[-1]
    assert last.startswith("_Cut to fit a pull-request comment: left out")
    assert "HTML report" in last
    assert text.count("<details>") == text.count("</details>")


def test_the_mermaid_graph_is_capped_and_marked_partial() -> None:
    document, graph = _huge(800)
    text, cut = diff_mermaid(document, [graph])
    assert cut
    assert text.count(" --> ") == 500
    assert "_Partial graph: 500 of" in text


def test_a_small_change_is_whole() -> None:
    document, graph = _huge(6)
    text = diff_markdown(document, graph=graph)
    assert "left out" not in text
    assert "```mermaid" in text and "Partial graph" not in text
