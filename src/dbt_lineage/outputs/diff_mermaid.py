"""A Mermaid graph of the models a diff changed and impacted, and the exposures reading them.

Edges are the dependencies among those nodes (head graph, base graph for removed nodes),
nearest the changes first; at most ``MAX_EDGES`` of them, and no more text than asked:
when cut, the graph says it is partial.
"""

from __future__ import annotations

import typing as t

from dbt_lineage.graph.model import EdgeType, LineageGraph

MAX_EDGES = 500


def diff_mermaid(
    document: t.Mapping[str, t.Any],
    graphs: t.Sequence[LineageGraph],
    *,
    max_edges: int = MAX_EDGES,
    max_chars: int | None = None,
) -> tuple[str, bool]:
    """The graph as a fenced ``mermaid`` block, and whether it was cut.

    Args:
        document: the diff document.
        graphs: the head graph, then the base graph (for removed nodes).
        max_edges: most edges drawn.
        max_chars: most characters of the block (None: no limit).
    """
    changed = {change["node"]: change["class"] for change in document.get("changes", [])}
    impacted = document.get("impacted", {})
    models = [m if isinstance(m, str) else m.get("node", "") for m in impacted.get("models", [])]
    exposures = [item["node"] for item in impacted.get("exposures", [])]
    wanted = list(dict.fromkeys([*changed, *models, *exposures]))
    keep = set(wanted)
    edges: list[tuple[str, str]] = []
    seen: set[tuple[str, str]] = set()
    order = {node_id: index for index, node_id in enumerate(wanted)}
    for graph in graphs:
        for edge in graph.edges:
            if edge.type is not EdgeType.DEPENDS or edge.source not in keep:
                continue
            pair = (str(edge.source), str(edge.target))
            if pair[1] in keep and pair not in seen:
                seen.add(pair)
                edges.append(pair)
    edges.sort(key=lambda pair: (order[pair[0]], order[pair[1]]))
    total = len(edges)
    shown = edges[:max_edges]
    while True:
        text = _block(shown, wanted, changed, exposures, graphs, total)
        if max_chars is None or len(text) <= max_chars or not shown:
            break
        shown = shown[: len(shown) * 3 // 4]
    cut = len(shown) < total
    if max_chars is not None and len(text) > max_chars:
        return "", True
    return text, cut


def _block(
    edges: list[tuple[str, str]],
    wanted: list[str],
    changed: dict[str, str],
    exposures: list[str],
    graphs: t.Sequence[LineageGraph],
    total: int,
) -> str:
    drawn = list(dict.fromkeys([node for edge in edges for node in edge]))
    if not edges:
        drawn = wanted[:50]
    ids = {node_id: f"n{index}" for index, node_id in enumerate(drawn)}
    lines = ["```mermaid", "graph LR"]
    for node_id, short in ids.items():
        label = _label(node_id, graphs).replace('"', "'")
        if node_id in exposures:
            lines.append(f'  {short}(["{label}"]):::exposure')
        elif node_id in changed:
            lines.append(f'  {short}["{label} ({changed[node_id]})"]:::changed')
        else:
            lines.append(f'  {short}["{label}"]:::impacted')
    lines.extend(f"  {ids[a]} --> {ids[b]}" for a, b in edges)
    lines.append("  classDef changed fill:#fde2e1,stroke:#dc2626")
    lines.append("  classDef impacted fill:#fef3c7,stroke:#f59e0b")
    lines.append("  classDef exposure fill:#e0e7ff,stroke:#4f46e5")
    lines.append("```")
    if len(edges) < total:
        lines.append(f"_Partial graph: {len(edges)} of {total} edges shown._")
    return "\n".join(lines)


def _label(node_id: str, graphs: t.Sequence[LineageGraph]) -> str:
    for graph in graphs:
        node = graph.nodes.get(node_id)
        if node is not None:
            return node.name
    return node_id
