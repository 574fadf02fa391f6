"""The heaviest columns of a report in Chromium: DOM nodes and longest main-thread task.

The columns with the most direct edges in ``lineage.json`` (as source or target) are opened
one after the other by deep link; for each, once its drawing and impact panel are on screen
and the page has been quiet for ``SETTLE_MS``, this reads the number of nodes in the
document (elements and text) and the longest task (``longtask`` entries) since the link was
set. The longest task of loading the page, from navigation to the first quiet moment after
the data is read, is measured in the same browser run: issue 20 wants each column's longest
task at most 1.5 times that one, and at most 8,000 nodes.
"""

from __future__ import annotations

import collections
import dataclasses
import json
import typing as t
from pathlib import Path

SETTLE_MS = 800
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
      const panel = document.querySelector("[data-testid=impact]");
      if (row && row.dataset.col === col && panel) resolve();
      else setTimeout(check, 20);
    };
    check();
  });
  const drawn = performance.now() - start;
  await new Promise((resolve) => setTimeout(resolve, settle));
  const walker = document.createTreeWalker(document, NodeFilter.SHOW_ALL);
  let nodes = 0;
  while (walker.nextNode()) nodes++;
  return { drawn, nodes, longest: Math.max(0, ...window.__tasks) };
}"""


@dataclasses.dataclass
class Heavy:
    column: str
    edges: int
    drawn_ms: float
    nodes: int
    longest_ms: float


@dataclasses.dataclass
class HeavyRun:
    load_longest_ms: float
    columns: list[Heavy]


def heaviest_columns(lineage: Path, count: int) -> list[tuple[str, str, int]]:
    """``count`` (node id, column, direct edges) with the most direct edges, most first."""
    document = json.loads(lineage.read_text(encoding="utf-8"))
    degree: collections.Counter[tuple[str, str]] = collections.Counter()
    for node_id, by_column in document["edges"].get("direct", {}).items():
        for column, sources in by_column.items():
            degree[(node_id, column)] += len(sources)
            for source in sources:
                degree[(source["node"], source["column"])] += 1
    return [(node, column, edges) for (node, column), edges in degree.most_common(count)]


def measure_heavy(browser: t.Any, html: Path, lineage: Path, count: int = 3) -> HeavyRun:
    """Load ``html`` once, then open its ``count`` heaviest columns one after the other."""
    page = browser.new_page(viewport={"width": 1440, "height": 900})
    page.add_init_script(_OBSERVE)
    page.goto(html.resolve().as_uri())
    page.wait_for_selector("body[data-ready='1']", timeout=120_000)
    page.wait_for_timeout(SETTLE_MS)
    load = page.evaluate("Math.max(0, ...window.__tasks)")
    columns = []
    for node, column, edges in heaviest_columns(lineage, count):
        found = page.evaluate(_OPEN, [node, column, SETTLE_MS])
        columns.append(
            Heavy(f"{node}.{column}", edges, found["drawn"], found["nodes"], found["longest"])
        )
    page.close()
    return HeavyRun(load, columns)


def heavy_lines(run: HeavyRun) -> list[str]:
    """The figures as printed lines, each column against the page-load task."""
    lines = [f"  page load: longest task {run.load_longest_ms:6.0f} ms"]
    for item in run.columns:
        ratio = item.longest_ms / run.load_longest_ms if run.load_longest_ms else float("inf")
        task = (
            f"longest task {item.longest_ms:5.0f} ms = {ratio:.2f}x the page load's"
            if item.longest_ms
            else "no task over 50 ms"
        )
        lines.append(
            f"  {item.column} ({item.edges} edges): on screen {item.drawn_ms:6.0f} ms, "
            f"{item.nodes:,} DOM nodes (floor <= 8,000), {task} (floor <= 1.5x)"
        )
    return lines
