"""WCAG 2.1 AA on every view of the report, checked by axe-core inside headless Chromium.

axe-core comes from report-ui/node_modules (``npm ci`` installs it with the UI's lockfile);
the page's CSP forbids any script but its own, so these pages open in a context that
bypasses the CSP only to let axe in. Each view of the template project's report, of a
4,000-model synthetic report and of a diff report must have no serious or critical
violation; the graph's columns must be reachable by Tab from the skip link and followed
with Enter.
"""

from __future__ import annotations

import json
import typing as t
from pathlib import Path

import pytest
from tests.outputs.report import crowded
from tests.outputs.report.browser import REPO
from tests.outputs.report.shop_diff import shop_diff
from tests.queries.shop_graph import STG_ORDERS, shop_graph

from dbt_lineage.outputs.report.report_html import report_html

pytestmark = pytest.mark.slow

AXE = REPO / "report-ui" / "node_modules" / "axe-core" / "axe.min.js"
_RUN = """async () => {
  const result = await axe.run(document, {
    runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] },
  });
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help,
      nodes: v.nodes.slice(0, 3).map((n) => n.target.join(" ") + " :: " + n.failureSummary) }));
}"""
TEMPLATE_VIEWS = (
    ("#/overview", "canvas.dag"),
    ("#/node/model.shop.customers", "[data-testid=node-page]"),
    ("#/node/model.shop.customers/lifetime_value", "[data-testid=node-page] mark"),
    ("#/column/model.shop.stg_payments/amount", "[data-testid=impact]"),
    ("#/node/exposure.shop.weekly_revenue", "[data-testid=upstream-chain]"),
    ("#/coverage", "[data-testid=coverage]"),
)
CROWDED_VIEWS = (
    ("#/overview", "canvas.dag"),
    (f"#/node/{crowded.WIDE}/wide_85", "tr#col-wide_85"),
    (f"#/column/{crowded.HUB.node_id}/{crowded.HUB.column}", "[data-testid=impact]"),
    (f"#/column/{crowded.PLAN_SOURCE}/amount", "[data-testid=impact]"),
    (f"#/node/{crowded.LONG_EXPOSURE}", "[data-testid=upstream-chain]"),
    ("#/coverage", "[data-testid=coverage]"),
)


def _axe_page(chromium: t.Any) -> t.Any:
    if not AXE.is_file():
        pytest.fail(f"{AXE} is missing: run cd report-ui && npm ci", pytrace=False)
    context = chromium.new_context(viewport={"width": 1440, "height": 900}, bypass_csp=True)
    return context.new_page()


def _violations(page: t.Any, path: Path, fragment: str, ready: str) -> list[t.Any]:
    page.goto(path.resolve().as_uri() + fragment)
    page.wait_for_selector("body[data-ready='1']", timeout=120_000)
    page.wait_for_selector(ready, timeout=60_000)
    page.wait_for_timeout(200)
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    return t.cast(list[t.Any], page.evaluate(_RUN))


def _check_views(page: t.Any, path: Path, views: tuple[tuple[str, str], ...]) -> None:
    found = {}
    for fragment, ready in views:
        violations = _violations(page, path, fragment, ready)
        if violations:
            found[fragment] = violations
    # The search palette, open with results.
    box = page.get_by_role("combobox", name="Search")
    box.click()
    box.fill("amount")
    page.wait_for_selector(".results .result")
    violations = t.cast(list[t.Any], page.evaluate(_RUN))
    if violations:
        found["search"] = violations
    assert not found, json.dumps(found, indent=1)


def test_every_view_of_the_template_report_passes_axe(
    chromium: t.Any, template_report: Path
) -> None:
    _check_views(_axe_page(chromium), template_report, TEMPLATE_VIEWS)


@pytest.fixture(scope="module")
def crowded_report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("crowded-axe") / "crowded.html"
    path.write_text(report_html(crowded.crowded_graph()), encoding="utf-8")
    return path


def test_every_view_of_a_large_report_passes_axe(chromium: t.Any, crowded_report: Path) -> None:
    _check_views(_axe_page(chromium), crowded_report, CROWDED_VIEWS)


def test_the_diff_views_pass_axe(chromium: t.Any, tmp_path: Path) -> None:
    path = tmp_path / "diff.html"
    path.write_text(report_html(shop_graph(), diff=shop_diff()), encoding="utf-8")
    views = (
        ("#/diff", "[data-testid=diff]"),
        (f"#/diff/{STG_ORDERS}", "[data-testid=side-by-side]"),
        (f"#/column/{STG_ORDERS}/amount_usd", "[data-testid=impact]"),
        ("#/overview", "canvas.dag"),
    )
    _check_views(_axe_page(chromium), path, views)


def test_the_graph_columns_are_reached_by_keyboard(chromium: t.Any, template_report: Path) -> None:
    page = _axe_page(chromium)
    page.goto(template_report.resolve().as_uri() + "#/column/model.shop.stg_payments/amount")
    page.wait_for_selector("[data-testid=explorer] .box-row")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.className") == "skip-link"
    page.keyboard.press("Enter")
    # From the main view, Tab walks through the toolbar into the drawing's columns.
    reached = []
    for _ in range(60):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.classList.contains('box-row')"):
            reached.append(page.evaluate("document.activeElement.dataset.col"))
            if len(reached) == 3:
                break
    assert len(reached) == 3, reached
    target = page.evaluate("document.activeElement.getAttribute('href')")
    page.keyboard.press("Enter")
    page.wait_for_function("h => location.hash === h", arg=target)
    page.wait_for_selector("[data-testid=explorer] .box-row.focus")
    rows = page.locator("[data-testid=explorer] .box-row").count()
    columns = page.evaluate(
        "() => [...document.querySelectorAll('[data-testid=explorer] .box-row')]"
        ".filter(r => r.tabIndex >= 0).length"
    )
    assert rows == columns > 0
