"""The HTTP transport against a local OpenLineage receiver on 127.0.0.1."""

from __future__ import annotations

import json
import threading
import typing as t
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from tests.outputs.openlineage.conftest import emitted, lineage

pytestmark = pytest.mark.slow


class _Receiver(BaseHTTPRequestHandler):
    received: t.ClassVar[list[tuple[str, str | None, dict[str, t.Any]]]] = []

    def do_POST(self) -> None:  # noqa: N802 - the http.server API
        body = self.rfile.read(int(self.headers["Content-Length"]))
        self.received.append((self.path, self.headers.get("Authorization"), json.loads(body)))
        self.send_response(201)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args: t.Any) -> None:
        pass


@pytest.fixture
def receiver() -> t.Iterator[tuple[str, list[tuple[str, str | None, dict[str, t.Any]]]]]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Receiver)
    _Receiver.received = []
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", _Receiver.received
    finally:
        server.shutdown()
        server.server_close()


def test_http_sends_every_event_in_order_with_the_api_key(shop: Path, receiver: t.Any) -> None:
    url, received = receiver
    result = lineage(
        shop,
        "openlineage",
        "--transport",
        "http",
        "--url",
        url,
        "--api-key-env",
        "MARQUEZ_KEY",
        env={"MARQUEZ_KEY": "s3cret"},
    )
    assert result.exit_code == 0, result.output
    expected = emitted(shop)
    assert len(received) == len(expected)
    assert {path for path, _, _ in received} == {"/api/v1/lineage"}
    assert {auth for _, auth, _ in received} == {"Bearer s3cret"}
    assert [body for _, _, body in received] == expected
    seen: dict[str, list[str]] = {}
    for _, _, body in received:
        seen.setdefault(body["run"]["runId"], []).append(body["eventType"])
    assert all(types[0] == "START" and types[1] in ("COMPLETE", "FAIL") for types in seen.values())
    assert f"to {url}" in result.stderr


def test_a_refusing_endpoint_is_one_error_line(shop: Path) -> None:
    result = lineage(
        shop, "openlineage", "--url", "http://127.0.0.1:9", "--endpoint", "api/v1/lineage"
    )
    assert result.exit_code == 2
    assert "http transport failed after 0 event(s)" in result.output
    assert "Traceback" not in result.output
