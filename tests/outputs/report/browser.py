"""Headless Debian ``chromium`` through Playwright, as the README's setup installs it.

No ``playwright install``: Playwright drives the system browser by ``executable_path``.
Every request the page makes is recorded, so a test can assert that a report opened from
disk asks the network for nothing.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import shutil
import typing as t
from pathlib import Path

import pytest

CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-default-apps",
    "--disable-sync",
]
REPO = Path(__file__).resolve().parents[3]
ARTIFACTS = Path(os.environ.get("DBT_LINEAGE_TEST_ARTIFACTS", REPO / ".tmp" / "test-artifacts"))


def chromium_path() -> str:
    """The system Chromium; the test fails (never skips) with the setup step when missing."""
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    pytest.fail(
        "no chromium on PATH: run ./quickstart.sh --install-only as root "
        "(it runs apt-get install -y chromium)",
        pytrace=False,
    )


@dataclasses.dataclass
class Opened:
    """A page with what it asked the network for and the errors it raised."""

    page: t.Any
    requests: list[str]
    errors: list[str]

    def network_requests(self, allowed: str) -> list[str]:
        """Requests other than loading the report file itself."""
        return [url for url in self.requests if url.split("#", 1)[0] != allowed]


@contextlib.contextmanager
def browser() -> t.Iterator[t.Any]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:  # pragma: no cover - the dev extras install it
        pytest.fail("playwright is not installed: pip install -e '.[dev]'", pytrace=False)
    with sync_playwright() as playwright:
        instance = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        try:
            yield instance
        finally:
            instance.close()


def open_report(instance: t.Any, path: Path, fragment: str = "", timeout: float = 30_000) -> Opened:
    """Open ``path`` from ``file://`` and wait until the page has read its data."""
    context = instance.new_context(viewport={"width": 1440, "height": 900})
    page = context.new_page()
    opened = Opened(page, [], [])
    page.on("request", lambda request: opened.requests.append(request.url))
    page.on("pageerror", lambda error: opened.errors.append(str(error)))
    page.on(
        "console",
        lambda message: opened.errors.append(message.text) if message.type == "error" else None,
    )
    page.goto(path.resolve().as_uri() + fragment)
    page.wait_for_selector("body[data-ready='1']", timeout=timeout)
    return opened


def save_screenshot(page: t.Any, name: str) -> Path:
    """Save a screenshot under the test artifacts folder and return its path."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / name
    page.screenshot(path=str(path))
    return path
