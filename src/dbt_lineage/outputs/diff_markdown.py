"""The ``dbt-lineage diff`` document as one pull-request comment in Markdown.

The verdict first, then what a reviewer must read before any long list: broken references,
unknowns, and each change with its reasons; then the impacted exposures and models (lists
past ``FOLD`` items folded in ``<details>``), the Mermaid graph of the impact paths and the
impacted columns. The comment is filled in that order within ``BUDGET`` characters (GitHub
takes 65,536); a last line counts, section by section, what did not fit ("left out 40 of 60
impacted models") and points to the HTML report.

Names and free text come from the project (a quoted column may hold any character): in code
spans the fence is longer than any run of backticks inside; in tables ``|`` is escaped; in
text ``<`` and backticks are, so nothing a name holds becomes HTML or breaks the table.
"""

from __future__ import annotations

import re
import typing as t

from dbt_lineage.graph.model import LineageGraph
from dbt_lineage.outputs.diff_mermaid import diff_mermaid, impacted_models
from dbt_lineage.outputs.diff_text import VERDICT_TEXT

BUDGET = 60_000
"""Most characters of the comment."""

MARKER = "<!-- dbt-lineage diff -->"
"""The comment's first line: a workflow finds its earlier comment by it, to update it."""

FOLD = 20
"""Items of a list shown before the rest is folded in ``<details>``."""

_ICONS = {"block": "⛔", "unknown": "❔", "review": "⚠️", "info": "✅"}
_RESERVE = 600
"""Characters kept for the closing note about what was left out."""


class _Comment:
    """Sections added while they fit the budget; rows that do not fit are counted."""

    def __init__(self, budget: int) -> None:
        self.budget = budget - _RESERVE
        self.parts: list[str] = []
        self.size = 0
        self.left_out: dict[str, tuple[int, int]] = {}
        """Section title -> (rows left out, rows in all)."""

    def room(self) -> int:
        return self.budget - self.size

    def add(self, text: str) -> bool:
        if len(text) + 1 > self.room():
            return False
        self.parts.append(text)
        self.size += len(text) + 1
        return True

    def section(self, title: str, head: str, rows: list[str], *, fold_head: str = "") -> None:
        """``rows`` under ``head``: the first ``FOLD`` shown, the others in a fold whose
        opening is ``fold_head`` (a table repeats its header there); as many as fit."""
        if not rows:
            return
        shown = self.rows(head, rows[:FOLD], "")
        rest = rows[FOLD:]
        if rest and shown == FOLD:
            summary = f"\n<details><summary>{len(rest)} more {title}</summary>\n"
            shown += self.rows(summary + fold_head, rest, "\n</details>")
        self.count(title, shown, len(rows))

    def count(self, title: str, shown: int, total: int) -> None:
        if shown < total:
            self.left_out[title] = (total - shown, total)

    def rows(self, head: str, rows: list[str], tail: str) -> int:
        """Adds ``head``, as many ``rows`` as fit with ``tail`` after them, and ``tail``;
        returns how many rows it added."""
        if not rows or len(head) + len(tail) + len(rows[0]) + 3 > self.room():
            return 0
        self.add(head)
        count = 0
        for row in rows:
            if len(row) + len(tail) + 2 > self.room():
                break
            self.add(row)
            count += 1
        if tail:
            self.add(tail)
        return count


def diff_markdown(
    document: t.Mapping[str, t.Any],
    *,
    graph: LineageGraph | None = None,
    base_graph: LineageGraph | None = None,
    budget: int = BUDGET,
    html_name: str = "the HTML report (`dbt-lineage diff --format html`)",
) -> str:
    """The comment for ``document``, at most ``budget`` characters.

    Args:
        document: the diff document.
        graph: the head graph (node names, the Mermaid graph); None: no graph.
        base_graph: the base graph (removed nodes).
        budget: most characters.
        html_name: how to name the full report when the comment is cut.

    >>> text = diff_markdown({"verdict": "info", "changes": [], "impacted": {},
    ...                       "broken_references": [], "unknown": []})
    >>> print(text.splitlines()[1])
    ## ✅ dbt-lineage diff: info
    """
    graphs = [g for g in (graph, base_graph) if g is not None]
    verdict = document.get("verdict", "")
    changes = document.get("changes", [])
    impacted = document.get("impacted", {})
    broken = document.get("broken_references", [])
    unknown = document.get("unknown", [])
    exposures = impacted.get("exposures", [])
    models = impacted_models(document)
    columns = impacted.get("columns", [])
    out = _Comment(budget)
    out.add(MARKER)
    out.add(f"## {_ICONS.get(verdict, '')} dbt-lineage diff: {verdict}")
    out.add(
        f"**{VERDICT_TEXT.get(verdict, '')}** · {len(changes)} changed node(s) · "
        f"{len(broken)} broken reference(s) · {len(models)} impacted model(s) · "
        f"{len(exposures)} impacted exposure(s) · {len(columns)} impacted column(s)\n"
    )
    table = "| Node | Column | Reads | Why |\n|---|---|---|---|"
    out.section(
        "broken references",
        f"### Broken references\n\n{table}",
        [
            f"| {_name(b['node'], graphs)} | {_code(b.get('column'), table=True)} | "
            f"{_code(_ref(b.get('reference')), table=True)} | {_cell(b.get('message', ''))} |"
            for b in broken
        ],
        fold_head=f"\n{table}",
    )
    out.section(
        "unknown nodes",
        "\n### Unknown\n",
        [
            f"- {_name(u['node'], graphs, table=False)}: {_text(u.get('reason', ''))}"
            for u in unknown
        ],
    )
    table = "| Node | Change | Class | Columns | Why |\n|---|---|---|---|---|"
    out.section(
        "changes",
        f"\n### Changes\n\n{table}",
        [
            f"| {_name(c['node'], graphs)} | {c['change']} | **{c['class']}** | "
            f"{_columns(c.get('columns', {}))} | {_cell('; '.join(c.get('reasons', [])))} |"
            for c in changes
        ],
        fold_head=f"\n{table}",
    )
    if not changes:
        out.add("\nNo change.")
    table = "| Exposure | Type | Owner |\n|---|---|---|"
    out.section(
        "impacted exposures",
        f"\n### Impacted exposures\n\n{table}",
        [
            f"| {_name(e['node'], graphs)} | {_cell(e.get('type', ''))} | {_cell(_owner(e))} |"
            for e in exposures
        ],
        fold_head=f"\n{table}",
    )
    out.section(
        "impacted models",
        "\n### Impacted models\n",
        [f"- {_name(m, graphs, table=False)}" for m in models],
    )
    if graphs and (changes or models):
        _graph(out, document, graphs)
    shown = out.rows(
        f"\n<details><summary>Impacted columns ({len(columns)})</summary>\n",
        [
            f"- {_code(c['node'].split('.')[-1] + '.' + c['column'], table=False)}: "
            f"{c['distance']} hop(s) via {_code(_ref(c.get('via')), table=False)}"
            for c in columns
        ],
        "\n</details>",
    )
    out.count("impacted columns", shown, len(columns))
    if out.left_out:
        counts = ", ".join(
            f"the {what}" if what == "lineage graph" else f"{n} of {total} {what}"
            for what, (n, total) in out.left_out.items()
        )
        out.parts.append(
            f"\n_Cut to fit a pull-request comment: left out {counts}. "
            f"Everything is in {html_name}._"
        )
    return "\n".join(out.parts) + "\n"


def _graph(out: _Comment, document: t.Mapping[str, t.Any], graphs: list[LineageGraph]) -> None:
    head = "\n<details><summary>Impact paths: changed, impacted, exposures</summary>\n"
    tail = "\n</details>"
    room = out.room() - len(head) - len(tail) - 4
    text, _ = diff_mermaid(document, graphs, max_chars=room) if room >= 200 else ("", True)
    if not text:
        out.left_out["lineage graph"] = (1, 1)
        return
    out.add(head)
    out.add(text)
    out.add(tail)


def _name(node_id: str, graphs: list[LineageGraph], *, table: bool = True) -> str:
    for graph in graphs:
        node = graph.nodes.get(node_id)
        if node is not None:
            return _code(node.name, table=table)
    return _code(node_id, table=table)


def _columns(columns: t.Mapping[str, str]) -> str:
    shown = [
        f"{_code(name, table=True)} {_cell(what.replace('renamed_from:', 'renamed from '))}"
        for name, what in columns.items()
    ]
    if len(shown) > 8:
        shown = [*shown[:8], f"and {len(shown) - 8} more"]
    return ", ".join(shown)


def _ref(ref: t.Any) -> str:
    if not isinstance(ref, t.Mapping):
        return str(ref or "")
    name = ".".join(
        part for part in (ref.get("node", "").split(".")[-1], ref.get("column")) if part
    )
    return f"{name} ({ref['kind']})" if ref.get("kind") else name


def _owner(exposure: t.Mapping[str, t.Any]) -> str:
    owner = exposure.get("owner") or {}
    if not isinstance(owner, t.Mapping):
        return str(owner)
    return " ".join(part for part in (owner.get("name"), owner.get("email")) if part)


def _code(text: t.Any, *, table: bool = True) -> str:
    """``text`` as a code span: fenced by more backticks than it holds in a row (padded
    when it starts or ends with one), and with ``|`` escaped inside a table cell.

    >>> _code("a`b|c")
    '``a`b\\\\|c``'
    """
    text = " ".join(str(text or "").split())
    if not text:
        return ""
    fence = "`" * (max((len(run) for run in re.findall(r"`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    span = f"{fence}{pad}{text}{pad}{fence}"
    return span.replace("|", "\\|") if table else span


def _text(text: t.Any) -> str:
    """Free text on one line, with no HTML and no code span of its own."""
    flat = " ".join(str(text).split())
    return flat.replace("\\", "\\\\").replace("`", "\\`").replace("<", "&lt;")


def _cell(text: t.Any) -> str:
    """Free text in a table cell."""
    return _text(text).replace("|", "\\|")
