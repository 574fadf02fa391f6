"""A Mermaid graph of a diff's impact paths: changed -> impacted -> exposures.

Each impacted model hangs from one parent, the first it is reached from on a breadth-first
walk from the changed nodes along dependencies (head graph, base graph for removed nodes);
every exposure is drawn with all its drawn readers. At most ``MAX_NODES`` nodes are drawn:
the changed nodes, then the exposures and the paths that reach them, then the nearest others;
the models left out are summarised as one ``+N more`` node under their nearest drawn
ancestor, so the graph stays readable whatever the size of the change.
"""

from __future__ import annotations

import collections
import typing as t

from dbt_lineage.graph.model import EdgeType, LineageGraph

MAX_NODES = 60
"""Most nodes drawn before the rest is summarised."""

_ESCAPES = {"#": "#35;", '"': "#34;", "<": "#60;", ">": "#62;", "`": "#96;", "|": "#124;"}


def diff_mermaid(
    document: t.Mapping[str, t.Any],
    graphs: t.Sequence[LineageGraph],
    *,
    max_nodes: int = MAX_NODES,
    max_chars: int | None = None,
) -> tuple[str, bool]:
    """The graph as a fenced ``mermaid`` block, and whether some nodes are summarised.

    Args:
        document: the diff document.
        graphs: the head graph, then the base graph (for removed nodes).
        max_nodes: most nodes drawn, the ``+N more`` ones included.
        max_chars: most characters of the block (None: no limit); '' when even the changed
            nodes alone do not fit.
    """
    paths = _Paths(document, graphs)
    limit = max(max_nodes, 1)
    while True:
        drawn = paths.chosen(limit)
        hidden = paths.hidden_under(set(drawn))
        excess = len(drawn) + len(hidden) - max_nodes
        if excess > 0 and limit > 1:  # the "+N more" nodes count too
            limit = max(1, limit - max(1, excess // 2))
            continue
        text = _block(paths, drawn, hidden, graphs)
        if max_chars is None or len(text) <= max_chars:
            return text, bool(hidden)
        if limit == 1:
            return "", True
        limit = max(1, limit * 3 // 4)


def impacted_models(document: t.Mapping[str, t.Any]) -> list[str]:
    """The impacted models' ids (the document lists ids, or objects with ``node``)."""
    models = document.get("impacted", {}).get("models", [])
    return [m if isinstance(m, str) else m.get("node", "") for m in models]


class _Paths:
    """The breadth-first tree of the impact, and the order nodes are drawn in."""

    def __init__(self, document: t.Mapping[str, t.Any], graphs: t.Sequence[LineageGraph]) -> None:
        self.changed = {change["node"]: change["class"] for change in document.get("changes", [])}
        models = impacted_models(document)
        exposures = document.get("impacted", {}).get("exposures", [])
        self.exposures = [item["node"] for item in exposures]
        keep = {*self.changed, *models, *self.exposures}
        self.readers: dict[str, list[str]] = collections.defaultdict(list)
        children: dict[str, list[str]] = collections.defaultdict(list)
        for graph in graphs:
            for edge in graph.edges:
                source, target = str(edge.source), str(edge.target)
                if edge.type is not EdgeType.DEPENDS or source not in keep or target not in keep:
                    continue
                if source not in children[target] and target not in children[source]:
                    children[source].append(target)
                    self.readers[target].append(source)
        self.parent: dict[str, str] = {}
        queue = collections.deque(self.changed)
        seen = set(self.changed)
        while queue:
            node = queue.popleft()
            for child in children.get(node, ()):
                if child not in seen:
                    seen.add(child)
                    self.parent[child] = node
                    queue.append(child)
        reached = [node for node in self._walk_order(children) if node not in self.changed]
        unreached = [node for node in dict.fromkeys([*models, *self.exposures]) if node not in seen]
        self.order = [*self.changed, *reached, *unreached]

    def _walk_order(self, children: dict[str, list[str]]) -> list[str]:
        order: list[str] = []
        queue = collections.deque(self.changed)
        while queue:
            node = queue.popleft()
            order.append(node)
            queue.extend(
                child for child in children.get(node, ()) if self.parent.get(child) == node
            )
        return order

    def chosen(self, limit: int) -> list[str]:
        """The nodes drawn: changed, then exposures with their paths, then the nearest."""
        wanted: list[str] = list(self.changed)
        for exposure in self.exposures:
            path = [exposure]
            while path[-1] in self.parent:
                path.append(self.parent[path[-1]])
            wanted.extend(reversed(path))
        wanted.extend(self.order)
        drawn = list(dict.fromkeys(wanted))[:limit]
        rank = {node: index for index, node in enumerate(self.order)}
        return sorted(drawn, key=rank.__getitem__)

    def hidden_under(self, drawn: t.Collection[str]) -> dict[str | None, int]:
        """How many nodes are not drawn, by their nearest drawn ancestor (None: none)."""
        counts: dict[str | None, int] = collections.Counter()
        for node in self.order:
            if node in drawn:
                continue
            above: str | None = self.parent.get(node)
            while above is not None and above not in drawn:
                above = self.parent.get(above)
            counts[above] += 1
        return counts


def _block(
    paths: _Paths,
    drawn: list[str],
    hidden: dict[str | None, int],
    graphs: t.Sequence[LineageGraph],
) -> str:
    ids = {node_id: f"n{index}" for index, node_id in enumerate(drawn)}
    exposures = set(paths.exposures)
    lines = ["```mermaid", "graph LR"]
    for node_id, short in ids.items():
        label = _escape(_label(node_id, graphs))
        if node_id in exposures:
            lines.append(f'  {short}(["{label}"]):::exposure')
        elif node_id in paths.changed:
            lines.append(f'  {short}["{label} ({paths.changed[node_id]})"]:::changed')
        else:
            lines.append(f'  {short}["{label}"]:::impacted')
    for node_id in drawn:
        if node_id in exposures or node_id in paths.changed:
            # every drawn reader of an exposure; changed nodes read by changed nodes
            sources = [
                reader
                for reader in paths.readers.get(node_id, ())
                if reader in ids and (node_id in exposures or reader in paths.changed)
            ]
        else:
            sources = [paths.parent[node_id]] if paths.parent.get(node_id) in ids else []
        lines.extend(f"  {ids[source]} --> {ids[node_id]}" for source in sources)
    for index, (above, count) in enumerate(hidden.items()):
        lines.append(f'  more{index}["+{count} more"]:::more')
        if above is not None:
            lines.append(f"  {ids[above]} -.-> more{index}")
    lines.append("  classDef changed fill:#fde2e1,stroke:#dc2626")
    lines.append("  classDef impacted fill:#fef3c7,stroke:#f59e0b")
    lines.append("  classDef exposure fill:#e0e7ff,stroke:#4f46e5")
    if hidden:
        lines.append("  classDef more fill:#f3f4f6,stroke:#9ca3af,stroke-dasharray:3")
    lines.append("```")
    if hidden:
        lines.append(
            f"_{len(drawn)} of {len(paths.order)} nodes drawn; "
            f"{sum(hidden.values())} summarised as +N more._"
        )
    return "\n".join(lines)


def _label(node_id: str, graphs: t.Sequence[LineageGraph]) -> str:
    for graph in graphs:
        node = graph.nodes.get(node_id)
        if node is not None:
            return node.name
    return node_id


def _escape(label: str) -> str:
    """A label safe inside Mermaid's quotes (its entity codes)."""
    return "".join(_ESCAPES.get(char, char) for char in label)
