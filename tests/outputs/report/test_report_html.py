"""The HTML page around the data: one file, a strict CSP, data that cannot close its tag."""

from __future__ import annotations

import base64
import gzip
import hashlib
import json
import re

from tests.queries.shop_graph import ORDERS, STG_ORDERS, shop_graph

from dbt_lineage.graph.model import RelationNode
from dbt_lineage.outputs.report.report_html import report_html

HOSTILE = "</script><script>alert(1)</script><!-- <img src=x onerror=alert(2)>"


def _embedded(page: str) -> dict:
    block = re.search(
        r'<script type="application/json" id="dbt-lineage-data">(.*?)</script>', page, re.S
    )
    assert block is not None
    outer = json.loads(block.group(1))
    if outer.get("encoding") == "gzip+base64":
        return json.loads(gzip.decompress(base64.b64decode(outer["data"])))
    return outer


def _hostile_graph():
    graph = shop_graph()
    node = graph.nodes[ORDERS]
    assert isinstance(node, RelationNode)
    graph.nodes[ORDERS] = RelationNode(
        node_id=node.node_id, type=node.type, name=node.name, description=HOSTILE
    )
    return graph


def test_the_page_holds_everything_and_allows_no_connection() -> None:
    page = report_html(shop_graph(), title="Shop")
    policy = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', page).group(1)
    assert "default-src 'none'" in policy
    assert "connect-src 'none'" in policy
    script = re.search(r"<script>(.*)</script>\n</body>", page, re.S).group(1)
    digest = base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()
    assert f"script-src 'sha256-{digest}'" in policy
    assert "unsafe-inline" not in policy
    # Nothing that would load: no external script, stylesheet, image, font or import.
    assert re.findall(r"<link\b[^>]*>", page) == ['<link rel="icon" href="data:,">']
    assert not re.search(r"<(img|iframe)\b", page)
    assert not re.search(r"<script[^>]*\bsrc=", page)
    assert "@import" not in page
    assert not re.search(r"url\(\s*['\"]?https?:", page)
    assert "<title>Shop</title>" in page


def test_hostile_text_cannot_close_the_data_block() -> None:
    for compress in (False, True):
        page = report_html(_hostile_graph(), compress=compress)
        # Exactly two closing script tags: the data block's and the bundle's.
        assert page.lower().count("</script") == 2
        assert "<!--" not in page
        data = _embedded(page)
        assert HOSTILE in data["strings"]


def test_large_data_is_compressed_and_round_trips() -> None:
    page = report_html(shop_graph(), compress=True)
    assert '"encoding":"gzip+base64"' in page
    data = _embedded(page)
    names = [data["strings"][i] for i in data["nodes"]["id"]]
    assert STG_ORDERS in names and ORDERS in names
    assert report_html(shop_graph(), compress=True) == page, "the same graph gives the same bytes"
