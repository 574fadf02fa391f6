"""Send events through the OpenLineage client's own transports.

``console`` writes one JSON event per line to the given writer (the client's console
transport logs them; we route that log), ``file`` writes JSON lines to a file (replaced
whole once every event is written, as ``files.write_file`` does; a FIFO, a device or ``-``
gets them as they come), ``http`` posts each event to an OpenLineage endpoint (Marquez's
``/api/v1/lineage`` by default) with an optional bearer API key, a timeout and a number of
retries (urllib3's retry log is kept quiet: the failure is one error line), and ``kafka``
produces to a topic when ``openlineage-python[kafka]`` is installed.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import typing as t
from pathlib import Path

from openlineage.client import OpenLineageClient
from openlineage.client.event_v2 import RunEvent
from openlineage.client.serde import Serde
from openlineage.client.transport.transport import Transport

from dbt_lineage.errors import DbtLineageError
from dbt_lineage.files import open_output

TRANSPORTS = ("console", "file", "http", "kafka")


@dataclasses.dataclass(frozen=True)
class Destination:
    """Where events go.

    Attributes:
        transport: one of ``TRANSPORTS``.
        url: the endpoint's base URL (http), or the bootstrap servers (kafka).
        endpoint: the path under ``url`` that takes events (http).
        api_key: sent as ``Authorization: Bearer <key>`` (http).
        output: the JSON-lines file (file), ``-`` for standard output.
        topic: the Kafka topic (kafka).
        timeout: seconds to wait for each HTTP response.
        retries: how many times to retry an HTTP request that failed to connect, to read,
            or with a 5xx status (urllib3's backoff between tries).
    """

    transport: str
    url: str | None = None
    endpoint: str = "api/v1/lineage"
    api_key: str | None = None
    output: str | Path | None = None
    topic: str | None = None
    timeout: float = 10.0
    retries: int = 2


def emit(
    events: t.Iterable[RunEvent],
    destination: Destination,
    write: t.Callable[[str], None] = print,
) -> int:
    """Send ``events`` in order; the number sent.

    Raises:
        DbtLineageError: the destination is incomplete, or refused an event.
    """
    with contextlib.ExitStack() as stack:
        if destination.transport == "file":
            if destination.output is None:
                raise DbtLineageError("--transport file needs --output FILE (or - for stdout)")
            stream, _ = stack.enter_context(open_output(destination.output))
            transport: Transport = _LinesTransport(stream)
        else:
            transport = _transport(destination)
        if destination.transport == "console":
            stack.enter_context(_console_to(write))
        stack.enter_context(_quiet("urllib3"))
        sent = _send(events, OpenLineageClient(transport=transport), destination)
    return sent


def _send(events: t.Iterable[RunEvent], client: OpenLineageClient, destination: Destination) -> int:
    sent = 0
    try:
        for event in events:
            client.emit(event)
            sent += 1
    except DbtLineageError:
        raise
    except Exception as error:  # noqa: BLE001 - the transport's own errors, any kind
        where = destination.url or destination.output or destination.transport
        raise DbtLineageError(
            f"{destination.transport} transport failed after {sent} event(s) to {where}: "
            f"{_reason(error)}"
        ) from error
    finally:
        client.close(timeout=30)
    return sent


def _reason(error: Exception) -> str:
    """The root cause of a transport's error, on one line (requests wraps urllib3's
    ``Max retries exceeded ... (Caused by NewConnectionError(...))`` around it)."""
    cause: BaseException = error
    while True:
        inner = getattr(cause, "reason", None) or cause.__cause__ or cause.__context__
        if not isinstance(inner, BaseException) or inner is cause:
            break
        cause = inner
    text = " ".join(str(cause).split())
    if cause is not error:
        text = f"{text.rpartition('>: ')[2] or text}"
    return text


class _LinesTransport(Transport):
    """One JSON event per line, to an open binary stream (``open_output``'s)."""

    kind = "dbt_lineage_lines"

    def __init__(self, stream: t.BinaryIO) -> None:
        self.stream = stream

    def emit(self, event: t.Any) -> None:
        self.stream.write(Serde.to_json(event).encode("utf-8") + b"\n")


def _transport(destination: Destination) -> Transport:
    kind = destination.transport
    if kind == "console":
        from openlineage.client.transport.console import ConsoleConfig, ConsoleTransport

        return ConsoleTransport(ConsoleConfig())
    if kind == "http":
        from openlineage.client.transport.http import (
            ApiKeyTokenProvider,
            HttpConfig,
            HttpTransport,
            TokenProvider,
        )
        from openlineage.client.transport.http_common import DEFAULT_RETRY_CONFIG

        if not destination.url:
            raise DbtLineageError("--transport http needs --url (e.g. http://localhost:5000)")
        auth = (
            ApiKeyTokenProvider({"apiKey": destination.api_key})
            if destination.api_key
            else TokenProvider({})
        )
        return HttpTransport(
            HttpConfig(
                url=destination.url,
                endpoint=destination.endpoint,
                auth=auth,
                timeout=destination.timeout,
                retry={
                    **DEFAULT_RETRY_CONFIG,
                    **dict.fromkeys(("total", "connect", "read"), destination.retries),
                },
            )
        )
    if kind == "kafka":
        if not destination.url or not destination.topic:
            raise DbtLineageError("--transport kafka needs --url BOOTSTRAP_SERVERS and --topic")
        try:
            from openlineage.client.transport.kafka import KafkaConfig, KafkaTransport

            return KafkaTransport(
                KafkaConfig(
                    config={"bootstrap.servers": destination.url},
                    topic=destination.topic,
                    flush=True,
                )
            )
        except ImportError as error:
            raise DbtLineageError(
                "the kafka transport needs confluent-kafka: pip install "
                f"'openlineage-python[kafka]' ({error.name} is missing)"
            ) from error
    raise DbtLineageError(f"unknown transport {kind}: use one of {', '.join(TRANSPORTS)}")


@contextlib.contextmanager
def _quiet(name: str) -> t.Iterator[None]:
    """Keep a library's warnings (urllib3's one per retry) off the terminal."""
    logger = logging.getLogger(name)
    previous = logger.level
    logger.setLevel(logging.ERROR)
    try:
        yield
    finally:
        logger.setLevel(previous)


@contextlib.contextmanager
def _console_to(write: t.Callable[[str], None]) -> t.Iterator[None]:
    """Route the console transport's log records (one event each) to ``write``."""
    logger = logging.getLogger("openlineage.client.transport.console")

    class _Handler(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            write(record.getMessage())

    handler = _Handler(level=logging.INFO)
    previous = (logger.level, logger.propagate)
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logger.propagate = False
    try:
        yield
    finally:
        logger.removeHandler(handler)
        logger.setLevel(previous[0])
        logger.propagate = previous[1]
