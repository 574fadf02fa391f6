"""The heaviest columns of a report in Chromium: DOM nodes and longest main-thread task.

The columns with the most direct edges in ``lineage.json`` (as source or target), and the
columns whose direct edges reach the most relations upstream and downstream (a date column
read, step by step, by hundreds of models has only a few edges of its own), are opened one
after the other by deep link; for each, once its drawing and impact panel are on screen
and the page has been quiet for ``SETTLE_MS``, this reads the number of nodes in the
document (elements and text) and the longest task (``longtask`` entries) since the link was
set. The longest task of loading the page, from navigation to the first quiet moment after
the data is read, is measured in the same browser run: issue 20 wants each column's longest
task at most 1.5 times that one, and at most 8,000 nodes.

On each column the two switches of its toolbar are then turned as a user would, each
measured the same way (nodes once quiet, longest task since the click): the row-set toggle
on (joins, filters, group by... drawn and walked), the legend's first kind off and on again
with the row-set edges still drawn (the heavier of the two is kept), and the row-set toggle
off again before the next column.
"""

from __future__ import annotations

import collections
import dataclasses
import json
import typing as t
from pathlib import Path

SETTLE_MS = 800
_Graph = dict[tuple[str, str], list[tuple[str, str]]]
_OBSERVE = """window.__tasks = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) window.__tasks.push(e.duration);
}).observe({ type: "longtask", buffered: true });"""
_OPEN = """async ([node, col, settle]) => {
  window.__tasks.length = 0;
  const start = performance.now();
  location.hash = "#/column/" + encodeURIComponent(node) + "/" + encodeURIComponent(col);
  await new Promise((resolve) => {
    const check = () => {
      const row = document.querySelector("[data-testid=explorer] .box-row.focus");
      const box = row && row.closest(".box");
      const panel = document.querySelector("[data-testid=impact]");
      if (row && row.dataset.col === col && box.dataset.node === node && panel) resolve();
      else setTimeout(check, 20);
    };
    check();
  });
  const drawn = performance.now() - start;
  await new Promise((resolve) => setTimeout(resolve, settle));
  return { drawn, nodes: window.__countNodes(), longest: Math.max(0, ...window.__tasks) };
}"""
_HELPERS = """window.__countNodes = () => {
  const walker = document.createTreeWalker(document, NodeFilter.SHOW_ALL);
  let nodes = 0;
  while (walker.nextNode()) nodes++;
  return nodes;
};"""
# Click ``selector``, wait until no progress line is left and the focus row is drawn again,
# then for the page to be quiet; the longest task since the click.
_CLICK = """async ([selector, settle]) => {
  window.__tasks.length = 0;
  const start = performance.now();
  document.querySelector(selector).click();
  const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve()));
  await frame();
  await frame();
  await new Promise((resolve) => {
    const check = () => {
      const busy = document.querySelector("[data-testid=explorer] .working, .side .working");
      const row = document.querySelector("[data-testid=explorer] .box-row.focus");
      if (!busy && row) resolve();
      else setTimeout(check, 20);
    };
    check();
  });
  const drawn = performance.now() - start;
  await new Promise((resolve) => setTimeout(resolve, settle));
  return { drawn, nodes: window.__countNodes(), longest: Math.max(0, ...window.__tasks) };
}"""
_ROWS = "[data-testid=rows-toggle]"
_LEGEND = ".edge-legend .legend-kind"


@dataclasses.dataclass
class Step:
    """One interaction: time until drawn, DOM nodes once quiet, longest task."""

    drawn_ms: float
    nodes: int
    longest_ms: float

    @classmethod
    def of(cls, found: dict[str, float]) -> Step:
        return cls(found["drawn"], int(found["nodes"]), found["longest"])


@dataclasses.dataclass
class Heavy:
    column: str
    edges: int
    reached: int
    drawn_ms: float
    nodes: int
    longest_ms: float
    rows_on: Step | None = None
    legend: Step | None = None


@dataclasses.dataclass
class HeavyRun:
    load_longest_ms: float
    columns: list[Heavy]


def _edge_maps(document: dict[str, t.Any]) -> tuple[_Graph, _Graph]:
    """The direct edges as readers and sources of each (node id, column)."""
    readers: _Graph = collections.defaultdict(list)
    sources: _Graph = collections.defaultdict(list)
    for node_id, by_column in document["edges"].get("direct", {}).items():
        for column, found in by_column.items():
            for source in found:
                readers[(source["node"], source["column"])].append((node_id, column))
                sources[(node_id, column)].append((source["node"], source["column"]))
    return readers, sources


def _reach(graph: _Graph, bit: dict[str, int]) -> dict[tuple[str, str], int]:
    """Each column's relations reached through ``graph``, as a bit set (depth first, no
    recursion; a column met again on a cycle counts what was known of it then)."""
    memo: dict[tuple[str, str], int] = {}
    for start in list(graph):
        if start in memo:
            continue
        memo[start] = 0
        stack = [(start, iter(graph.get(start, ())))]
        while stack:
            column, following = stack[-1]
            step = next(following, None)
            if step is None:
                stack.pop()
                bits = 0
                for other in graph.get(column, ()):
                    bits |= memo[other] | bit.get(other[0], 0)
                memo[column] = bits
            elif step not in memo:
                memo[step] = 0
                stack.append((step, iter(graph.get(step, ()))))
    return memo


def heaviest_columns(lineage: Path, count: int) -> list[tuple[str, str, int, int]]:
    """(node id, column, direct edges, relations reached): the ``count`` columns with the
    most direct edges, then the ``count`` that reach the most relations (each once)."""
    document = json.loads(lineage.read_text(encoding="utf-8"))
    readers, sources = _edge_maps(document)
    bit = {node_id: 1 << i for i, node_id in enumerate(document["nodes"])}
    down, up = _reach(readers, bit), _reach(sources, bit)
    keys = set(readers) | set(sources)
    degree = {key: len(readers.get(key, ())) + len(sources.get(key, ())) for key in keys}
    reached = {key: (down.get(key, 0) | up.get(key, 0)).bit_count() for key in keys}
    picked = sorted(keys, key=lambda key: (-degree[key], key))[:count]
    picked += [
        key for key in sorted(keys, key=lambda key: (-reached[key], key)) if key not in picked
    ][:count]
    return [
        (node, column, degree[(node, column)], reached[(node, column)]) for node, column in picked
    ]


def measure_heavy(browser: t.Any, html: Path, lineage: Path, count: int = 3) -> HeavyRun:
    """Load ``html`` once, then open its ``count`` heaviest columns one after the other."""
    page = browser.new_page(viewport={"width": 1440, "height": 900})
    page.add_init_script(_OBSERVE + _HELPERS)
    page.goto(html.resolve().as_uri())
    page.wait_for_selector("body[data-ready='1']", timeout=120_000)
    page.wait_for_timeout(SETTLE_MS)
    load = page.evaluate("Math.max(0, ...window.__tasks)")
    columns = []
    for node, column, edges, reached in heaviest_columns(lineage, count):
        found = page.evaluate(_OPEN, [node, column, SETTLE_MS])
        heavy = Heavy(
            f"{node}.{column}", edges, reached, found["drawn"], found["nodes"], found["longest"]
        )
        heavy.rows_on = Step.of(page.evaluate(_CLICK, [_ROWS, SETTLE_MS]))
        off = Step.of(page.evaluate(_CLICK, [_LEGEND, SETTLE_MS]))
        on = Step.of(page.evaluate(_CLICK, [_LEGEND, SETTLE_MS]))
        heavy.legend = max(off, on, key=lambda step: step.longest_ms)
        page.evaluate(_CLICK, [_ROWS, SETTLE_MS])
        columns.append(heavy)
    page.close()
    return HeavyRun(load, columns)


def heavy_lines(run: HeavyRun) -> list[str]:
    """The figures as printed lines, each column against the page-load task."""
    lines = [f"  page load: longest task {run.load_longest_ms:6.0f} ms"]

    def task(longest_ms: float) -> str:
        if not longest_ms:
            return "no task over 50 ms"
        ratio = longest_ms / run.load_longest_ms if run.load_longest_ms else float("inf")
        return f"longest task {longest_ms:5.0f} ms = {ratio:.2f}x the page load's"

    for item in run.columns:
        lines.append(
            f"  {item.column} ({item.edges} edges, {item.reached} relations reached): "
            f"on screen {item.drawn_ms:6.0f} ms, "
            f"{item.nodes:,} DOM nodes (floor <= 8,000), {task(item.longest_ms)} (floor <= 1.5x)"
        )
        for label, step in (("row-set toggle on", item.rows_on), ("legend toggle", item.legend)):
            if step is not None:
                lines.append(
                    f"    {label}: on screen {step.drawn_ms:6.0f} ms, {step.nodes:,} DOM nodes, "
                    f"{task(step.longest_ms)} (floor <= 1.5x)"
                )
    return lines
