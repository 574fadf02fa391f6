"""The ``dbt-lineage diff`` document as one pull-request comment in Markdown.

The verdict first, then broken references and unknowns, the changes table, the impacted
exposures and models, and the details in ``<details>`` folds: the Mermaid graph, impacted
columns, and each change's reasons. The comment is filled in that order of priority within
``BUDGET`` characters (GitHub takes 65,536); whatever does not fit is counted in a last
line that points to the HTML report.
"""

from __future__ import annotations

import typing as t

from dbt_lineage.graph.model import LineageGraph
from dbt_lineage.outputs.diff_mermaid import diff_mermaid
from dbt_lineage.outputs.diff_text import VERDICT_TEXT

BUDGET = 60_000
"""Most characters of the comment."""

MARKER = "<!-- dbt-lineage diff -->"
"""The comment's first line: a workflow finds its earlier comment by it, to update it."""

_ICONS = {"block": "⛔", "unknown": "❔", "review": "⚠️", "info": "✅"}
_RESERVE = 400
"""Characters kept for the closing note about what was left out."""


class _Comment:
    """Lines added while they fit the budget; what did not fit is counted by section."""

    def __init__(self, budget: int) -> None:
        self.budget = budget - _RESERVE
        self.parts: list[str] = []
        self.size = 0
        self.left_out: dict[str, int] = {}

    def fits(self, text: str) -> bool:
        return self.size + len(text) + 1 <= self.budget

    def add(self, text: str) -> bool:
        if not self.fits(text):
            return False
        self.parts.append(text)
        self.size += len(text) + 1
        return True

    def rows(self, title: str, head: str, rows: list[str], *, tail: str = "") -> None:
        """A section of ``rows`` under ``head``, as many rows as fit (the rest counted)."""
        if not rows:
            return
        if not self.fits(head + tail) or not self.add(head):
            self.left_out[title] = self.left_out.get(title, 0) + len(rows)
            return
        for index, row in enumerate(rows):
            if not self.fits(row + tail):
                self.left_out[title] = self.left_out.get(title, 0) + len(rows) - index
                break
            self.add(row)
        if tail:
            self.add(tail)


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
    models = impacted.get("models", [])
    columns = impacted.get("columns", [])
    out = _Comment(budget)
    out.add(MARKER)
    out.add(f"## {_ICONS.get(verdict, '')} dbt-lineage diff: {verdict}")
    out.add(
        f"**{VERDICT_TEXT.get(verdict, '')}** · {len(changes)} changed node(s) · "
        f"{len(broken)} broken reference(s) · {len(models)} impacted model(s) · "
        f"{len(exposures)} impacted exposure(s) · {len(columns)} impacted column(s)\n"
    )
    out.rows(
        "broken references",
        "### Broken references\n\n| Node | Column | Reads | Why |\n|---|---|---|---|",
        [
            f"| {_name(b['node'], graphs)} | {_code(b.get('column'))} | "
            f"{_code(_ref(b.get('reference')))} | {_cell(b.get('message', ''))} |"
            for b in broken
        ],
        tail="",
    )
    out.rows(
        "unknown nodes",
        "\n### Unknown\n",
        [f"- {_name(u['node'], graphs)}: {_cell(u.get('reason', ''))}" for u in unknown],
    )
    out.rows(
        "changes",
        "\n### Changes\n\n| Node | Change | Class | Columns |\n|---|---|---|---|",
        [
            f"| {_name(c['node'], graphs)} | {c['change']} | **{c['class']}** | "
            f"{_columns(c.get('columns', {}))} |"
            for c in changes
        ],
    )
    if not changes:
        out.add("\nNo change.")
    out.rows(
        "impacted exposures",
        "\n### Impacted exposures\n\n| Exposure | Type | Owner |\n|---|---|---|",
        [
            f"| {_name(e['node'], graphs)} | {e.get('type', '')} | {_cell(_owner(e))} |"
            for e in exposures
        ],
    )
    out.rows(
        "impacted models",
        "\n### Impacted models\n",
        [f"- {_name(m if isinstance(m, str) else m.get('node', ''), graphs)}" for m in models],
    )
    if graphs and (changes or models):
        _graph(out, document, graphs)
    out.rows(
        "impacted columns",
        f"\n<details><summary>Impacted columns ({len(columns)})</summary>\n",
        [
            f"- `{c['node'].split('.')[-1]}.{c['column']}`: {c['distance']} hop(s) via "
            f"{_code(_ref(c.get('via')))}"
            for c in columns
        ],
        tail="\n</details>",
    )
    out.rows(
        "change details",
        "\n<details><summary>Why each node changed</summary>\n",
        [
            f"- {_name(c['node'], graphs)}: {_cell('; '.join(c.get('reasons', [])))}"
            for c in changes
            if c.get("reasons")
        ],
        tail="\n</details>",
    )
    if out.left_out:
        counts = ", ".join(f"{n} {what}" for what, n in out.left_out.items())
        out.parts.append(
            f"\n_Cut to fit a pull-request comment: left out {counts}. "
            f"Everything is in {html_name}._"
        )
    return "\n".join(out.parts) + "\n"


def _graph(out: _Comment, document: t.Mapping[str, t.Any], graphs: list[LineageGraph]) -> None:
    head = "\n<details><summary>Lineage of changed and impacted models</summary>\n"
    room = out.budget - out.size - len(head) - len("\n</details>") - 4
    if room < 200:
        out.left_out["lineage graph"] = 1
        return
    text, cut = diff_mermaid(document, graphs, max_chars=room)
    if not text:
        out.left_out["lineage graph"] = 1
        return
    out.add(head)
    out.add(text)
    out.add("\n</details>")
    if cut:
        out.left_out["lineage graph edges"] = out.left_out.get("lineage graph edges", 0) + 1


def _name(node_id: str, graphs: list[LineageGraph]) -> str:
    for graph in graphs:
        node = graph.nodes.get(node_id)
        if node is not None:
            return f"`{node.name}`"
    return f"`{node_id}`"


def _columns(columns: t.Mapping[str, str]) -> str:
    shown = [
        f"`{name}` {what.replace('renamed_from:', 'renamed from ')}"
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


def _code(text: t.Any) -> str:
    return f"`{text}`" if text else ""


def _cell(text: str) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")
