"""The PR comment stays within its budget whatever the size of the change, and says what it
left out."""

from __future__ import annotations

import re

from markdown_it import MarkdownIt

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
    assert (
        sum(text.count(f":::{kind}") for kind in ("changed", "impacted", "exposure", "more")) <= 60
    )
    assert re.search(r"_\d\d of 800 nodes drawn; \d+ summarised as \+N more\._", text)


def test_a_small_change_is_whole() -> None:
    document, graph = _huge(6)
    text = diff_markdown(document, graph=graph)
    assert "left out" not in text
    assert "```mermaid" in text and "summarised" not in text


def _shop(changes: int, models: int, columns: int, reasons: int = 1) -> dict:
    """A document with distinct names per section, so rows can be counted in the text."""
    return {
        "verdict": "review",
        "changes": [
            {
                "node": f"model.shop.chg_{i}",
                "change": "modified",
                "class": "breaking",
                "columns": {},
                "reasons": [f"reason {r} of chg_{i}: WHERE added" for r in range(reasons)],
            }
            for i in range(changes)
        ],
        "impacted": {
            "models": [f"model.shop.imp_{i}" for i in range(models)],
            "columns": [
                {"node": "model.shop.imp_0", "column": f"col_{i}", "distance": 1, "via": None}
                for i in range(columns)
            ],
            "exposures": [],
        },
        "broken_references": [],
        "unknown": [],
    }


def _left_out(text: str) -> dict[str, tuple[int, int]]:
    last = text.strip().splitlines()[-1]
    found = re.findall(r"(\d+) of (\d+) ([a-z ]+?)(?=,|\. )", last)
    return {what: (int(n), int(total)) for n, total, what in found}


def test_left_out_counts_add_up_with_what_is_shown() -> None:
    text = diff_markdown(_shop(changes=60, models=400, columns=900), budget=9_000)
    assert len(text) <= 9_000
    lines = text.splitlines()
    shown = {
        "changes": sum(line.startswith("| `model.shop.chg_") for line in lines),
        "impacted models": sum(line.startswith("- `model.shop.imp_") for line in lines),
        "impacted columns": sum(line.startswith("- `imp_0.col_") for line in lines),
    }
    totals = {"changes": 60, "impacted models": 400, "impacted columns": 900}
    left = _left_out(text)
    assert set(left) == {what for what in totals if shown[what] < totals[what]}
    for what, (missing, total) in left.items():
        assert total == totals[what] and shown[what] + missing == total, what
    assert text.count("<details>") == text.count("</details>")


def test_each_changes_reasons_come_before_long_lists() -> None:
    text = diff_markdown(_shop(changes=8, models=3000, columns=3000, reasons=3), budget=8_000)
    for i in range(8):
        for r in range(3):
            assert f"reason {r} of chg_{i}" in text
    assert text.index("reason 2 of chg_7") < text.index("### Impacted models")
    assert "impacted models" in _left_out(text)


def test_lists_past_twenty_are_folded() -> None:
    text = diff_markdown(_shop(changes=25, models=25, columns=0))
    lines = text.splitlines()
    fold = lines.index("<details><summary>5 more impacted models</summary>")
    assert [line for line in lines[:fold] if line.startswith("- `model.shop.imp_")] == [
        f"- `model.shop.imp_{i}`" for i in range(20)
    ]
    assert "<details><summary>5 more changes</summary>" in lines
    assert "left out" not in text


HOSTILE = "we|rd`na<script>me"


def test_hostile_names_neither_break_tables_nor_become_html() -> None:
    document = _shop(changes=1, models=2, columns=1)
    document["changes"][0].update(
        node=f"model.shop.{HOSTILE}",
        columns={"col|`<b>": "logic"},
        reasons=["<img src=x onerror=alert(1)> | `tick"],
    )
    document["broken_references"] = [
        {
            "node": f"model.shop.{HOSTILE}",
            "column": "c|<i>",
            "reference": {"node": "model.shop.up", "column": "x`|y", "kind": "column"},
            "message": "no <u>column</u> | here",
        }
    ]
    document["impacted"]["exposures"] = [
        {"node": "exposure.shop.e", "type": "dash|board", "owner": {"name": "<a href=x>me</a>"}}
    ]
    text = diff_markdown(document)
    html = MarkdownIt("commonmark").enable("table").render(text)
    for tag in ("<script", "<img", "<b>", "<i>", "<u>", "<a href"):
        assert tag not in html, tag
    tables = [block for block in text.split("\n\n") if block.startswith("| ")]
    assert len(tables) == 3
    for table in tables:  # each row as many cells as its header: no pipe got through
        widths = {len(re.split(r"(?<!\\)\|", row)) for row in table.splitlines()}
        assert len(widths) == 1, table
    code = f"model.shop.{HOSTILE}".replace("<", "&lt;").replace(">", "&gt;")
    assert f"<td><code>{code}</code></td>" in html
    assert "<td><code>col|`&lt;b&gt;</code> logic</td>" in html
    assert "&lt;img src=x onerror=alert(1)&gt; | `tick" in html


def _chain_graph(models: int) -> tuple[dict, LineageGraph]:
    """One changed model read by ``models`` models in a fan of chains; an exposure reads
    the last of one deep chain."""
    ids = ["model.shop.changed", *[f"model.shop.m{i}" for i in range(models)]]
    edges = [LineageEdge(ids[0], ids[i], EdgeType.DEPENDS) for i in range(1, 11)]
    edges += [LineageEdge(ids[i], ids[i + 10], EdgeType.DEPENDS) for i in range(1, models - 9)]
    edges.append(LineageEdge(ids[-1], "exposure.shop.board", EdgeType.DEPENDS))
    nodes = {i: RelationNode(node_id=i, type=NodeType.MODEL, name=i.split(".")[-1]) for i in ids}
    document = {
        "changes": [{"node": ids[0], "change": "modified", "class": "breaking"}],
        "impacted": {"models": ids[1:], "exposures": [{"node": "exposure.shop.board"}]},
    }
    return document, LineageGraph(nodes=nodes, edges=edges)


def test_the_graph_draws_impact_paths_and_summarises_past_sixty_nodes() -> None:
    document, graph = _chain_graph(500)
    text, cut = diff_mermaid(document, [graph])
    assert cut
    drawn = re.findall(r"^  n\d+\[|^  n\d+\(\[", text, flags=re.MULTILINE)
    more = [int(n) for n in re.findall(r'\["\+(\d+) more"\]', text)]
    assert 50 <= len(drawn) + len(more) <= 60
    assert len(drawn) + sum(more) == 502
    assert f"_{len(drawn)} of 502 nodes drawn; {sum(more)} summarised as +N more._" in text
    assert '(["exposure.shop.board"]):::exposure' in text
    ids = dict(re.findall(r'^  (n\d+)\["([\w.]+)', text, flags=re.MULTILINE))
    chain = [name for name in ids.values() if name.startswith("m") and int(name[1:]) % 10 == 9]
    assert "m499" in chain and "m9" in chain, "the exposure's whole path is drawn"
    assert text.count(" --> ") < 70, "one parent per model, not every dependency"


def test_a_small_graph_is_whole_and_labels_are_escaped() -> None:
    document, graph = _chain_graph(12)
    graph.nodes["model.shop.m3"] = RelationNode(
        node_id="model.shop.m3", type=NodeType.MODEL, name='a"b<c>`d|e#f'
    )
    text, cut = diff_mermaid(document, [graph])
    assert not cut and "more" not in text
    assert '["a#34;b#60;c#62;#96;d#124;e#35;f"]' in text


def test_a_graph_that_does_not_fit_is_named_in_the_note() -> None:
    document, graph = _chain_graph(30)
    document.update(verdict="review", broken_references=[], unknown=[])
    document["changes"][0]["reasons"] = ["x" * 1_200]
    text = diff_markdown(document, graph=graph, budget=2_400)
    assert "```mermaid" not in text
    assert "left out 10 of 30 impacted models, the lineage graph." in text
