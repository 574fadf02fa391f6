"""The report in a real browser: headless Debian chromium, opened from file://.

Each test asserts what a user would check: nothing is fetched, search finds a column, the
lineage and the impact of a column are shown, hostile text stays text, a 10,000-model
project opens and answers, a diff renders.
"""

from __future__ import annotations

import typing as t
from pathlib import Path

import pytest
from tests.outputs.report.browser import open_report, save_screenshot
from tests.outputs.report.shop_diff import shop_diff
from tests.outputs.report.synthetic import synthetic_graph
from tests.queries.shop_graph import LEGACY, ORDERS, STG_ORDERS, shop_graph

from dbt_lineage.graph.model import ColumnNode, RelationNode
from dbt_lineage.outputs.report.project_facts import ProjectFacts
from dbt_lineage.outputs.report.report_html import report_html
from dbt_lineage.outputs.report.run_facts import RunFact
from dbt_lineage.queries.impact import impact
from dbt_lineage.types import ColumnRef

HOSTILE = (
    "</script><script>window.__pwned = 1</script>"
    '<img src=x onerror="window.__pwned = 2"><b>not bold</b>'
)


def _search(page: t.Any, text: str) -> list[str]:
    box = page.get_by_role("combobox", name="Search")
    box.click()
    box.fill(text)
    page.wait_for_selector(".results .result")
    return page.locator(".results .result .result-label").all_inner_texts()


@pytest.mark.slow
def test_template_report_opens_offline_and_shows_a_columns_impact(
    chromium: t.Any, template_report: Path
) -> None:
    opened = open_report(chromium, template_report)
    page = opened.page
    assert _search(page, "stg_paym.amt")[0].replace("\n", "") == "stg_payments.amount"
    labels = _search(page, "stg_payments.amount")
    assert labels[0].replace("\n", "") == "stg_payments.amount"
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-testid=explorer] .box")
    assert page.evaluate("location.hash") == "#/column/model.shop.stg_payments/amount"
    # The explorer draws the marts' columns it reaches, each in its relation's box.
    explorer = page.locator("[data-testid=explorer]")
    for node, column in (
        ("model.shop.orders", "amount"),
        ("model.shop.customers", "lifetime_value"),
        ("model.shop.fct_daily_revenue", "revenue"),
    ):
        assert explorer.locator(f".box[data-node='{node}'] [data-col='{column}']").count() == 1
    assert explorer.locator(".box[data-node='exposure.shop.weekly_revenue']").count() == 1
    # The impact panel lists the mart columns with their kind, and the exposure it reaches.
    impact_panel = page.locator("[data-testid=impact]")
    row = impact_panel.locator("li[data-node='model.shop.customers'][data-col='lifetime_value']")
    assert row.get_attribute("data-kind") == "aggregate"
    exposure = impact_panel.locator(".exposure-card[data-node='exposure.shop.weekly_revenue']")
    assert "Weekly revenue" in exposure.inner_text()
    assert "dashboard" in exposure.inner_text()
    save_screenshot(page, "template-report-column.png")
    # The PII classification from the YAML's meta shows on the node page.
    page.goto(template_report.resolve().as_uri() + "#/node/model.shop.stg_customers")
    email = page.locator("tr#col-email")
    assert email.locator(".class-pii").inner_text() == "PII"
    # Every view renders; deep links open where they point.
    for fragment, selector in (
        ("#/node/model.shop.customers/lifetime_value", "[data-testid=node-page] mark"),
        ("#/coverage", "[data-testid=coverage]"),
        ("#/overview", "canvas.dag"),
    ):
        page.goto(template_report.resolve().as_uri() + fragment)
        page.wait_for_selector(selector)
    save_screenshot(page, "template-report-overview.png")
    assert opened.network_requests(template_report.resolve().as_uri()) == []
    assert opened.errors == []


def test_hostile_text_is_shown_as_text_and_runs_nothing(chromium: t.Any, tmp_path: Path) -> None:
    graph = shop_graph()
    node = graph.nodes[ORDERS]
    graph.nodes[ORDERS] = RelationNode(
        node_id=node.node_id, type=node.type, name=node.name, description=HOSTILE
    )
    column = graph.columns[ORDERS]["amount_usd"]
    graph.columns[ORDERS]["amount_usd"] = ColumnNode(
        node_id=ORDERS, type=column.type, name=column.name, column=column.column,
        description=HOSTILE, meta={"note": HOSTILE},
    )  # fmt: skip
    facts = ProjectFacts(sql={ORDERS: f"select 1 as amount_usd -- {HOSTILE}"})
    for compress in (False, True):
        path = tmp_path / f"hostile-{compress}.html"
        path.write_text(report_html(graph, project=facts, compress=compress), encoding="utf-8")
        opened = open_report(chromium, path, f"#/node/{ORDERS}/amount_usd")
        page = opened.page
        page.wait_for_selector("[data-testid=node-page]")
        assert page.locator("p.desc").first.inner_text() == HOSTILE
        assert HOSTILE in page.locator(".columns-table").inner_text()
        assert HOSTILE in page.locator(".sql .code").inner_text()
        assert page.locator("[data-testid=node-page] b", has_text="not bold").count() == 0
        page.wait_for_timeout(200)
        assert page.evaluate("typeof window.__pwned") == "undefined"
        assert opened.network_requests(path.resolve().as_uri()) == []


def test_the_impact_panel_matches_the_impact_query(chromium: t.Any, tmp_path: Path) -> None:
    graph = shop_graph()
    path = tmp_path / "shop.html"
    path.write_text(report_html(graph), encoding="utf-8")
    opened = open_report(chromium, path)
    page = opened.page
    for ref in (
        ColumnRef(STG_ORDERS, "customer_id"),
        ColumnRef(STG_ORDERS, "ordered_at"),
        ColumnRef("source.shop.ecom.raw_orders", "status"),
        ColumnRef(STG_ORDERS, "amount_usd"),
    ):
        page.goto(path.resolve().as_uri() + f"#/column/{ref.node_id}/{ref.column}")
        for rows in (False, True):
            toggle = page.get_by_test_id("rows-toggle")
            if toggle.is_checked() != rows:
                toggle.click()
            page.wait_for_selector("[data-testid=impact]")
            shown = page.eval_on_selector_all(
                "[data-testid=impact] li[data-col]",
                "items => items.map(i => [i.dataset.node, i.dataset.col, i.dataset.kind,"
                " Number(i.dataset.distance)])",
            )
            expected = impact(graph, ref, include_indirect=rows)
            assert sorted(map(tuple, shown)) == sorted(
                (c.ref.node_id, c.ref.column, c.kind, c.distance) for c in expected.columns
            ), (ref, rows)
            exposures = page.eval_on_selector_all(
                "[data-testid=impact] .exposure-card", "items => items.map(i => i.dataset.node)"
            )
            assert sorted(exposures) == sorted(e.node_id for e in expected.exposures)
    assert opened.errors == []


def test_a_diff_renders_changes_impact_and_sql_side_by_side(
    chromium: t.Any, tmp_path: Path
) -> None:
    """A document in the layout `dbt-lineage diff --format json` writes (issue 9)."""
    diff = shop_diff()
    path = tmp_path / "diff.html"
    path.write_text(report_html(shop_graph(), diff=diff), "utf-8")
    opened = open_report(chromium, path)
    page = opened.page
    page.wait_for_selector("[data-testid=diff]")
    assert "block" in page.locator(".verdict").inner_text().lower()
    assert "renamed from created_at" in page.locator(".changed-row").inner_text()
    text = page.locator("[data-testid=diff]").inner_text()
    assert f"{STG_ORDERS}.created_at" in text
    assert "Ops <ops@example.com>" in text
    assert f"via {STG_ORDERS}.amount_usd (identity)" in text
    page.locator(".changed-row a.node-link").first.click()
    page.wait_for_selector("[data-testid=side-by-side]")
    assert page.locator(".side-by-side .line.del").all_inner_texts() == ["  amount as amount_usd"]
    assert page.locator(".side-by-side .line.add").all_inner_texts() == [
        "  amount * 2 as amount_usd"
    ]
    page.goto(path.resolve().as_uri() + f"#/column/{STG_ORDERS}/amount_usd")
    page.wait_for_selector("[data-testid=explorer] .box")
    assert "changed" in page.locator(f".box[data-node='{STG_ORDERS}']").get_attribute("class")
    assert page.locator(f".box[data-node='{ORDERS}'] .box-row.impacted").count() == 1
    save_screenshot(page, "diff-column.png")
    assert opened.errors == []


def test_a_ten_thousand_model_report_opens_and_search_answers(
    chromium: t.Any, tmp_path: Path
) -> None:
    graph = synthetic_graph(10_000)
    path = tmp_path / "synthetic.html"
    path.write_text(report_html(graph), encoding="utf-8")
    opened = open_report(chromium, path, timeout=120_000)
    page = opened.page
    page.wait_for_selector("canvas.dag")
    labels = _search(page, "mar_9999.col_3")
    assert labels[0].replace("\n", "") == "mar_9999.col_3"
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-testid=explorer] .box")
    # Pan the overview: the page keeps answering.
    page.goto(path.resolve().as_uri() + "#/overview")
    page.wait_for_selector("canvas.dag")
    page.mouse.move(700, 450)
    page.mouse.down()
    page.mouse.move(400, 300, steps=10)
    page.mouse.up()
    assert page.evaluate("document.body.dataset.ready") == "1"
    save_screenshot(page, "synthetic-10000-overview.png")
    assert opened.errors == []
    assert opened.network_requests(path.resolve().as_uri()) == []


def test_run_facts_and_coverage_are_shown(chromium: t.Any, tmp_path: Path) -> None:
    runs = {
        ORDERS: RunFact(
            ORDERS, "success", "inv-42", "2026-01-02T03:04:05Z", 1234, 0.5, "", "build"
        ),
        STG_ORDERS: RunFact(STG_ORDERS, "error", "inv-42", "", None, 0.1, "boom", "build"),
    }
    path = tmp_path / "runs.html"
    path.write_text(report_html(shop_graph(), runs=runs), encoding="utf-8")
    opened = open_report(chromium, path, f"#/node/{ORDERS}")
    page = opened.page
    card = page.locator(".run-card")
    assert "success" in card.inner_text() and "1,234 rows affected" in card.inner_text()
    assert "2026-01-02 03:04:05 UTC" in card.inner_text() and "inv-42" in card.inner_text()
    page.goto(path.resolve().as_uri() + f"#/column/{STG_ORDERS}/amount_usd")
    row = page.locator(f"[data-testid=impact] tr[data-node='{ORDERS}']")
    assert row.locator(".badge.run").inner_text() == "success"
    page.goto(path.resolve().as_uri() + "#/coverage")
    coverage = page.locator("[data-testid=coverage]")
    reason = coverage.locator(".reason", has_text="parse_error")
    assert "1 column" in reason.inner_text()
    assert reason.locator(f"a[href='#/node/{LEGACY}']").count() == 1
    assert opened.errors == []
