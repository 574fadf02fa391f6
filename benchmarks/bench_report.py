"""Benchmark ``dbt-lineage report`` against dbt-colibri's dashboard, in one headless Chromium.

For each size N (``--sizes``, default 1000,10000) this generates a synthetic project (with a
catalog; reused when ``<out>/report_<N>`` already holds one), builds its lineage, writes our
report and, for sizes in ``--colibri-sizes`` when dbt-colibri is installed in its own
virtualenv, colibri's ``index.html``; then opens both files from ``file://`` in the same
Chromium and prints:

- file size;
- search usable: milliseconds from navigation start until the search box is on screen and
  enabled, and until a typed model name is answered with a result;
- (ours) select a column and draw its lineage: from setting the column's deep link to the
  painted frame with its graph and impact panel, median and max over ``--columns`` columns;
- (ours) panning the model overview at three zoom levels (folders, nodes, names and edges):
  the longest frame and the 95th percentile, from ``requestAnimationFrame`` timestamps;
- requests made, and whether the page crashed;
- (issue 20) generation: wall and CPU seconds and peak memory of ``dbt-lineage report``; and, for
  the columns with the most edges in lineage.json, DOM nodes and the longest main-thread
  task once the column's view settles, against the longest task of loading the page
  (``report_heavy.py``). ``--gitlab DIR`` adds GitLab's manifest (unpacked into
  ``DIR/target/manifest.json``; built first when lineage.json is missing).

The floors (issue 8): at 1,000 models our file at most 1/3 of colibri's, search usable no
later than colibri's, a column's lineage drawn within 200 ms; at 10,000 models a file of at
most 40 MB, search usable within 5 s, no frame longer than 500 ms while panning.

Usage::

    python benchmarks/bench_report.py [--sizes 1000,10000] [--colibri-sizes 1000] [--out DIR]
        [--gitlab /tmp/gl-report] [--heavy 3]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import statistics
import sys
import typing as t
from pathlib import Path

from benchkit.colibri import OUTPUT_DIR, colibri_executable, run_colibri
from benchkit.dbt_lineage_option import dbt_lineage_option
from benchkit.process import run_measured
from report_heavy import heavy_lines, measure_heavy
from synth_dbt import generate_project

HERE = Path(__file__).resolve().parent
CHROMIUM_ARGS = [
    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--no-first-run", "--disable-default-apps",
]  # fmt: skip
_VISIBLE = """sel => { const el = document.querySelector(sel);
    return !!el && !el.disabled && el.offsetParent !== null; }"""
_DRAW = """async (targets) => {
  const times = [];
  for (const [node, col] of targets) {
    const start = performance.now();
    location.hash = "#/column/" + node + "/" + encodeURIComponent(col);
    await new Promise((resolve) => {
      const check = () => {
        const row = document.querySelector(`[data-testid=explorer] .box-row.focus`);
        const box = row && row.closest(".box");
        const panel = document.querySelector("[data-testid=impact]");
        if (row && box.dataset.node === node && row.dataset.col === col && panel) {
          requestAnimationFrame(() => resolve());
        } else requestAnimationFrame(check);
      };
      check();
    });
    times.push(performance.now() - start);
  }
  return times;
}"""
_RECORD = """() => { window.__frames = []; window.__recording = true; let last = performance.now();
  const loop = (t) => { window.__frames.push(t - last); last = t;
    if (window.__recording) requestAnimationFrame(loop); };
  requestAnimationFrame(loop); }"""


@dataclasses.dataclass
class Opened:
    size_mb: float
    input_ms: float | None = None
    answer_ms: float | None = None
    draw_ms: list[float] = dataclasses.field(default_factory=list)
    frames_ms: list[float] = dataclasses.field(default_factory=list)
    requests: int = 0
    crashed: bool = False
    note: str = ""


def _parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000", help="comma-separated model counts")
    parser.add_argument("--colibri-sizes", default="1000", help="sizes to run colibri on")
    parser.add_argument("--out", default=str(HERE / "out"), help="where projects are written")
    parser.add_argument("--seed", type=int, default=0, help="generator seed")
    parser.add_argument("--columns", type=int, default=12, help="columns to select and draw")
    parser.add_argument("--chromium", default="/usr/bin/chromium", help="the Chromium binary")
    parser.add_argument("--colibri-venv", default="/tmp/colibri-venv", help="dbt-colibri venv")
    parser.add_argument("--gitlab", default="", help="a project folder holding GitLab's manifest")
    parser.add_argument("--heavy", type=int, default=3, help="columns by edges, by reach")
    dbt_lineage_option(parser)
    return parser.parse_args(argv)


def _project(args: argparse.Namespace, n: int) -> Path:
    project = Path(args.out) / f"report_{n}"
    if not (project / "target" / "catalog.json").is_file():
        generate_project(n, project, seed=args.seed, with_catalog=True)
    if not (project / "target" / "lineage.json").is_file():
        run = run_measured([args.dbt_lineage, "build", "--project-dir", str(project)])
        if run.returncode:
            raise SystemExit(f"dbt-lineage build failed on {project}:\n{run.output[-2000:]}")
    return project


def _targets(project: Path, count: int) -> list[tuple[str, str]]:
    """Columns of models spread over the project (marts last: their lineage is deepest)."""
    document = json.loads((project / "target" / "lineage.json").read_text(encoding="utf-8"))
    models = sorted(
        (node_id, node) for node_id, node in document["nodes"].items()
        if node["type"] == "model" and node.get("columns")
    )  # fmt: skip
    step = max(1, len(models) // count)
    picked = models[::step][:count]
    return [(node_id, sorted(node["columns"])[0]) for node_id, node in picked]


def _open(page: t.Any, path: Path, search: str, typed: str, answer: str) -> Opened:
    opened = Opened(size_mb=path.stat().st_size / 1e6)
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.on("crash", lambda _: setattr(opened, "crashed", True))
    page.goto(path.resolve().as_uri(), wait_until="commit")
    page.wait_for_function(_VISIBLE, arg=search, polling="raf", timeout=120_000)
    opened.input_ms = page.evaluate("performance.now()")
    page.click(search)
    page.keyboard.type(typed)
    page.wait_for_selector(answer, timeout=120_000)
    opened.answer_ms = page.evaluate("performance.now()")
    opened.requests = len([u for u in requests if not u.startswith(path.resolve().as_uri())])
    return opened


def _ours(browser: t.Any, path: Path, project: Path, columns: int) -> Opened:
    page = browser.new_page(viewport={"width": 1440, "height": 900})
    name = _targets(project, 1)[0][0].rsplit(".", 1)[-1]
    opened = _open(page, path, "input[aria-label=Search]", name, ".results .result")
    page.keyboard.press("Escape")
    opened.draw_ms = page.evaluate(_DRAW, [list(pair) for pair in _targets(project, columns)])
    page.evaluate("location.hash = '#/overview'")
    page.wait_for_selector("canvas.dag")
    page.wait_for_timeout(300)
    page.evaluate(_RECORD)
    for zoom_steps in (0, 6, 6):  # folders, then nodes, then names and edges
        for _ in range(zoom_steps):
            page.mouse.move(860, 480)
            page.mouse.wheel(0, -400)
            page.wait_for_timeout(30)
        page.mouse.move(860, 480)
        page.mouse.down()
        page.mouse.move(560, 330, steps=30)
        page.mouse.move(900, 600, steps=30)
        page.mouse.up()
    page.wait_for_timeout(100)
    opened.frames_ms = page.evaluate("window.__recording = false, window.__frames.slice(2)")
    page.close()
    return opened


def _colibri(browser: t.Any, path: Path, project: Path) -> Opened:
    page = browser.new_page(viewport={"width": 1440, "height": 900})
    name = _targets(project, 1)[0][0].rsplit(".", 1)[-1]
    answer = f"[role=dialog] :text('{name}')"
    opened = _open(page, path, "input[placeholder^='Search models']", name, answer)
    page.close()
    return opened


def _line(label: str, o: Opened) -> str:
    parts = [f"{label:<26} {o.size_mb:7.2f} MB", f"search box {o.input_ms:7.0f} ms"]
    parts.append(f"answers {o.answer_ms:7.0f} ms")
    if o.draw_ms:
        median = statistics.median(o.draw_ms)
        parts.append(f"column lineage median {median:5.0f} ms, max {max(o.draw_ms):5.0f}")
    if o.frames_ms:
        frames = sorted(o.frames_ms)
        p95 = frames[int(0.95 * (len(frames) - 1))]
        parts.append(f"pan frames {len(frames)}: max {frames[-1]:5.0f} ms, p95 {p95:4.0f}")
    parts.append(f"requests {o.requests}{', CRASHED' if o.crashed else ''}")
    return " | ".join(parts)


def _generate(args: argparse.Namespace, project: Path) -> tuple[Path, str]:
    """Write ``project``'s report; the figures of the run as a line."""
    run = run_measured([args.dbt_lineage, "report", "--project-dir", str(project)])
    if run.returncode:
        raise SystemExit(f"dbt-lineage report failed:\n{run.output[-2000:]}")
    html = project / "target" / "lineage.html"
    line = (
        f"report written in {run.seconds:.1f} s wall ({run.cpu_s:.1f} s CPU), "
        f"peak RSS {run.max_rss_mb:.0f} MB "
        f"(floors at 10,000 models: <= 10 s, <= 500 MB), {html.stat().st_size / 1e6:.2f} MB file"
    )
    return html, line


def _gitlab(args: argparse.Namespace) -> Path | None:
    if not args.gitlab:
        return None
    project = Path(args.gitlab)
    if not (project / "target" / "manifest.json").is_file():
        raise SystemExit(f"no target/manifest.json in {project}: unpack GitLab's manifest there")
    if not (project / "target" / "lineage.json").is_file():
        run = run_measured([args.dbt_lineage, "build", "--project-dir", str(project)])
        if run.returncode:
            raise SystemExit(f"dbt-lineage build failed on {project}:\n{run.output[-2000:]}")
    return project


def main(argv: list[str] | None = None) -> int:
    args = _parse(argv)
    from playwright.sync_api import sync_playwright

    sizes = [int(s) for s in args.sizes.split(",") if s]
    colibri_sizes = {int(s) for s in args.colibri_sizes.split(",") if s}
    colibri = colibri_executable(args.colibri_venv)
    if colibri is None and colibri_sizes:
        print(f"dbt-colibri not found in {args.colibri_venv}: see benchmarks/README.md")
    files: list[tuple[str, Path, Path, Path | None, str]] = []
    gitlab = _gitlab(args)
    if gitlab is not None:
        html, line = _generate(args, gitlab)
        files.append(("GitLab", gitlab, html, None, line))
    for n in sizes:
        project = _project(args, n)
        html, line = _generate(args, project)
        theirs = None
        if colibri is not None and n in colibri_sizes:
            index = project / OUTPUT_DIR / "index.html"
            if not index.is_file():
                colibri_run = run_colibri(colibri, project)
                if colibri_run.returncode:
                    print(f"colibri failed on {n} models:\n{colibri_run.output[-1000:]}")
            theirs = index if index.is_file() else None
        files.append((f"{n:,} models", project, html, theirs, line))
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=args.chromium, args=CHROMIUM_ARGS)
        for label, project, html, theirs, line in files:
            print(f"\n{label}: {line}")
            lineage = project / "target" / "lineage.json"
            print("\n".join(heavy_lines(measure_heavy(browser, html, lineage, args.heavy))))
            if label == "GitLab":
                continue
            ours = _ours(browser, html, project, args.columns)
            print(_line("dbt-lineage report", ours))
            if theirs is None:
                continue
            other = _colibri(browser, theirs, project)
            print(_line("dbt-colibri index.html", other))
            print(
                f"  size ratio {ours.size_mb / other.size_mb:.3f} (floor <= 0.333); "
                f"search box {ours.input_ms - other.input_ms:+.0f} ms vs colibri, "
                f"answer {ours.answer_ms - other.answer_ms:+.0f} ms vs colibri (floor <= 0)"
            )
        browser.close()
    return 0


if __name__ == "__main__":
    os.environ.setdefault("DO_NOT_TRACK", "1")
    sys.exit(main())
