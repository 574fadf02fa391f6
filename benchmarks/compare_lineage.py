"""Compare two lineage.json files by node, column and kind: what a change to the engine moved.

Run it on the same project built before and after a change (an engine fix that moves
thousands of edges is seen before it lands)::

    python benchmarks/compare_lineage.py OLD/lineage.json NEW/lineage.json [--show 5] [--json]

Prints, for direct edges (output column <- upstream column, with its kind) and for indirect
ones (the rows, or the output columns a window steers <- upstream column, with its kinds):
how many were added, removed, or kept with another kind, the nodes with the most changes
and a few examples; then the diagnostics by reason (columns before and after, nodes that
gained or lost one) and the coverage of both. ``--json`` prints the whole comparison as
JSON instead (nested objects, never joined keys). Exits 0; 2 when a file cannot be read.
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
import typing as t
from pathlib import Path

Edge = tuple[str, str, str, str]
"""(node, output column or ``rows``, upstream node, upstream column)."""


def load(path: Path) -> dict[str, t.Any]:
    """A lineage.json document; a one-line error when it is not one."""
    try:
        document = json.loads(path.read_text())
    except (OSError, ValueError) as error:
        raise SystemExit(f"Error: cannot read {path}: {error}; give a lineage.json file") from None
    if not isinstance(document, dict) or "edges" not in document or "nodes" not in document:
        raise SystemExit(f"Error: {path} is not a lineage.json (no nodes and edges)")
    return document


def direct_edges(document: dict[str, t.Any]) -> dict[Edge, str]:
    """Every direct edge to its kind."""
    found: dict[Edge, str] = {}
    for node, columns in document["edges"].get("direct", {}).items():
        for column, upstreams in columns.items():
            for up in upstreams:
                found[(node, column, up["node"], up["column"])] = up["kind"]
    return found


def indirect_edges(document: dict[str, t.Any]) -> dict[Edge, str]:
    """Every indirect edge (its scope ``rows`` or the output column it steers) to its kinds,
    sorted and joined with ``+`` for display."""
    kinds: dict[Edge, set[str]] = collections.defaultdict(set)
    for node, groups in document["edges"].get("indirect", {}).items():
        for up in groups.get("rows", []):
            kinds[(node, "rows", up["node"], up["column"])].add(up["kind"])
        for column, upstreams in groups.get("columns", {}).items():
            for up in upstreams:
                kinds[(node, column, up["node"], up["column"])].add(up["kind"])
    return {edge: "+".join(sorted(found)) for edge, found in kinds.items()}


def compare_edges(old: dict[Edge, str], new: dict[Edge, str]) -> dict[str, list[dict[str, str]]]:
    """Edges added, removed and kept with another kind, sorted.

    >>> compare_edges({("m", "a", "s", "x"): "identity"}, {("m", "a", "s", "x"): "transform",
    ...                ("m", "b", "s", "y"): "identity"})["kind_changed"]
    [{'node': 'm', 'column': 'a', 'upstream_node': 's', 'upstream_column': 'x', 'before': 'identity', 'after': 'transform'}]
    """  # noqa: E501

    def record(edge: Edge, **more: str) -> dict[str, str]:
        node, column, up_node, up_column = edge
        return {"node": node, "column": column, "upstream_node": up_node,
                "upstream_column": up_column, **more}  # fmt: skip

    return {
        "added": [record(e, kind=new[e]) for e in sorted(new.keys() - old.keys())],
        "removed": [record(e, kind=old[e]) for e in sorted(old.keys() - new.keys())],
        "kind_changed": [
            record(e, before=old[e], after=new[e])
            for e in sorted(old.keys() & new.keys())
            if old[e] != new[e]
        ],
    }


def diagnostics(document: dict[str, t.Any]) -> dict[str, dict[str, set[str]]]:
    """Reason to node to the columns it leaves unresolved (``rows`` and notes count too)."""
    found: dict[str, dict[str, set[str]]] = collections.defaultdict(dict)
    for item in document.get("diagnostics", []):
        columns = found[item["reason"]].setdefault(item["node_id"], set())
        columns.update(item.get("columns") or [])
    return found


def compare_diagnostics(
    old: dict[str, dict[str, set[str]]], new: dict[str, dict[str, set[str]]]
) -> dict[str, dict[str, t.Any]]:
    """By reason: columns before and after, nodes that gained or lost the reason."""
    result = {}
    for reason in sorted(old.keys() | new.keys()):
        before, after = old.get(reason, {}), new.get(reason, {})
        result[reason] = {
            "columns_before": sum(len(c) or 1 for c in before.values()),
            "columns_after": sum(len(c) or 1 for c in after.values()),
            "nodes_added": sorted(after.keys() - before.keys()),
            "nodes_removed": sorted(before.keys() - after.keys()),
            "nodes_changed": sorted(
                node for node in before.keys() & after.keys() if before[node] != after[node]
            ),
        }
    return result


def coverage(document: dict[str, t.Any]) -> dict[str, int]:
    """Columns of models, snapshots and seeds, and how many resolve."""
    total = unresolved = 0
    for node in document["nodes"].values():
        if node.get("type") not in ("model", "snapshot", "seed"):
            continue
        for column in node.get("columns", {}).values():
            total += 1
            unresolved += column.get("resolved") is False
    return {"columns": total, "resolved": total - unresolved}


def compare_lineage(old: dict[str, t.Any], new: dict[str, t.Any]) -> dict[str, t.Any]:
    """The whole comparison of two lineage.json documents."""
    return {
        "direct": compare_edges(direct_edges(old), direct_edges(new)),
        "indirect": compare_edges(indirect_edges(old), indirect_edges(new)),
        "diagnostics": compare_diagnostics(diagnostics(old), diagnostics(new)),
        "coverage": {"before": coverage(old), "after": coverage(new)},
        "nodes": {
            "added": sorted(new["nodes"].keys() - old["nodes"].keys()),
            "removed": sorted(old["nodes"].keys() - new["nodes"].keys()),
        },
    }


def summary(result: dict[str, t.Any], show: int = 5) -> list[str]:
    """The comparison as lines of text."""
    lines = []
    nodes = result["nodes"]
    lines.append(f"nodes: {len(nodes['added'])} added, {len(nodes['removed'])} removed")
    for layer in ("direct", "indirect"):
        changes = result[layer]
        counts = ", ".join(f"{len(changes[k])} {k.replace('_', ' ')}" for k in changes)
        lines.append(f"{layer} edges: {counts}")
        per_node = collections.Counter(r["node"] for k in changes for r in changes[k])
        for node, count in per_node.most_common(show):
            lines.append(f"  {count:>6}  {node}")
        for kind, records in changes.items():
            for r in records[:show]:
                what = r.get("kind") or f"{r['before']} -> {r['after']}"
                lines.append(
                    f"  {kind}: {r['node']}.{r['column']} <- "
                    f"{r['upstream_node']}.{r['upstream_column']} ({what})"
                )
    lines.append("diagnostics by reason (columns before -> after; nodes +added -removed ~changed):")
    for reason, d in result["diagnostics"].items():
        lines.append(
            f"  {reason}: {d['columns_before']} -> {d['columns_after']}; "
            f"+{len(d['nodes_added'])} -{len(d['nodes_removed'])} ~{len(d['nodes_changed'])}"
        )
    for side in ("before", "after"):
        c = result["coverage"][side]
        share = 100 * c["resolved"] / c["columns"] if c["columns"] else 100.0
        lines.append(f"coverage {side}: {c['resolved']}/{c['columns']} ({share:.2f}%)")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old", type=Path, help="lineage.json before")
    parser.add_argument("new", type=Path, help="lineage.json after")
    parser.add_argument("--show", type=int, default=5, help="examples and nodes per change")
    parser.add_argument("--json", action="store_true", help="print the comparison as JSON")
    args = parser.parse_args(argv)
    try:
        result = compare_lineage(load(args.old), load(args.new))
    except SystemExit as error:
        print(error, file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print("\n".join(summary(result, args.show)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
