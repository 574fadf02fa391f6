"""The one-file HTML report: the prebuilt UI bundle, the embedded data, a strict CSP.

The page holds its CSS, its JavaScript and its data inline and sends no request: its
Content-Security-Policy allows only the exact inline script and style it ships (by hash)
and forbids every connection. The data is JSON in a ``<script type="application/json">``
block, never executed, with ``<``, ``>`` and ``&`` escaped; over ``COMPRESS_OVER`` bytes
it is gzip-compressed and base64-encoded, and the page inflates it with the browser's
``DecompressionStream``.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import html
import importlib.resources
import json
import typing as t

from dbt_lineage.errors import DbtLineageError
from dbt_lineage.graph.model import LineageGraph
from dbt_lineage.outputs.report.project_facts import ProjectFacts
from dbt_lineage.outputs.report.report_data import report_data
from dbt_lineage.outputs.report.run_facts import RunFact

COMPRESS_OVER = 256 * 1024
"""Embedded JSON larger than this many bytes is gzip-compressed."""

_ESCAPES = str.maketrans({"<": "\\u003c", ">": "\\u003e", "&": "\\u0026"})


def report_html(
    graph: LineageGraph,
    *,
    project: ProjectFacts | None = None,
    runs: t.Mapping[str, RunFact] | None = None,
    diff: t.Mapping[str, t.Any] | None = None,
    base_sql: t.Mapping[str, str] | None = None,
    title: str = "",
    compress: bool | None = None,
) -> str:
    """The report page for ``graph``, as one HTML document.

    Args:
        graph: the lineage graph.
        project: compiled SQL and tests from the manifest (``project_facts``).
        runs: each node's last run (``run_facts`` or ``warehouse_runs``).
        diff: a ``dbt-lineage diff`` JSON document; the page then opens on the diff view,
            highlights changed nodes and columns and marks impacted columns.
        base_sql: the base side's compiled SQL by node id (diff mode: shown beside the
            head's SQL of each changed node).
        title: the page's title (default: the project name).
        compress: force (True) or forbid (False) compression; by default the data is
            compressed when larger than ``COMPRESS_OVER`` bytes.

    Raises:
        DbtLineageError: the UI bundle is missing from the installed package.
    """
    data = report_data(graph, project=project, runs=runs, diff=diff, base_sql=base_sql, title=title)
    script, style = _bundle()
    page_title = html.escape(str(data["meta"]["title"]))
    texts = [json.dumps(data, separators=(",", ":"), ensure_ascii=False)]
    del data  # the tables, before the text is compressed (at 10,000 models, 60 MB)
    payload = _payload(texts, compress)
    policy = "; ".join(
        (
            "default-src 'none'",
            f"script-src '{_digest(script)}'",
            f"style-src '{_digest(style)}'",
            "img-src data:",
            "connect-src 'none'",
            "font-src 'none'",
            "media-src 'none'",
            "object-src 'none'",
            "frame-src 'none'",
            "worker-src 'none'",
            "form-action 'none'",
            "base-uri 'none'",
        )
    )
    return "".join(
        (
            '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n',
            f'<meta http-equiv="Content-Security-Policy" content="{policy}">\n',
            '<meta name="referrer" content="no-referrer">\n',
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n',
            f'<meta name="generator" content="dbt-lineage">\n<title>{page_title}</title>\n',
            # An inline icon: served over HTTP, a browser would otherwise ask for /favicon.ico.
            '<link rel="icon" href="data:,">\n',
            f"<style>{style}</style>\n</head>\n<body>\n",
            '<div id="app"><div class="boot">Loading lineage…</div></div>\n',
            f'<script type="application/json" id="dbt-lineage-data">{payload}</script>\n',
            f"<script>{script}</script>\n</body>\n</html>\n",
        )
    )


def _payload(texts: list[str], compress: bool | None) -> str:
    """The embedded JSON as the page holds it. ``texts`` holds the JSON text alone, and is
    emptied: the text is let go as soon as it is encoded, before it is compressed."""
    raw = texts[0].encode("utf-8")
    if compress is None:
        compress = len(raw) > COMPRESS_OVER
    if not compress:
        return texts.pop().translate(_ESCAPES)
    texts.clear()
    packed = base64.b64encode(gzip.compress(raw, compresslevel=6, mtime=0)).decode("ascii")
    return json.dumps({"encoding": "gzip+base64", "data": packed}, separators=(",", ":"))


def _bundle() -> tuple[str, str]:
    folder = importlib.resources.files("dbt_lineage.outputs.report") / "bundle"
    try:
        script = (folder / "report.js").read_text(encoding="utf-8")
        style = (folder / "report.css").read_text(encoding="utf-8")
    except FileNotFoundError as error:
        raise DbtLineageError(
            "the report's UI bundle is missing from the installed package: reinstall "
            "dbt-lineage (or build it: cd report-ui && npm ci && npm run build)"
        ) from error
    if "</script" in script.lower() or "</style" in style.lower():
        raise DbtLineageError("the report's UI bundle closes its own tag: rebuild report-ui/")
    return script, style


def _digest(text: str) -> str:
    return "sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode()
