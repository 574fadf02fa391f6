"""Send events through the OpenLineage client's own transports.

``console`` writes one JSON event per line to the given writer (the client's console
transport logs them; we route that log), ``file`` writes JSON lines to a file (replaced,
not appended to), ``http`` posts each event to an OpenLineage endpoint (Marquez's
``/api/v1/lineage`` by default) with an optional bearer API key, and ``kafka`` produces to
a topic when ``openlineage-python[kafka]`` is installed.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import typing as t
from pathlib import Path

from openlineage.client import OpenLineageClient
from openlineage.client.event_v2 import RunEvent
from openlineage.client.transport.transport import Transport

from dbt_lineage.errors import DbtLineageError

TRANSPORTS = ("console", "file", "http", "kafka")


@dataclasses.dataclass(frozen=True)
class Destination:
    """Where events go.

    Attributes:
        transport: one of ``TRANSPORTS``.
        url: the endpoint's base URL (http), or the bootstrap servers (kafka).
        endpoint: the path under ``url`` that takes events (http).
        api_key: sent as ``Authorization: Bearer <key>`` (http).
        output: the JSON-lines file (file).
        topic: the Kafka topic (kafka).
        timeout: seconds to wait for each HTTP response.
    """

    transport: str
    url: str | None = None
    endpoint: str = "api/v1/lineage"
    api_key: str | None = None
    output: Path | None = None
    topic: str | None = None
    timeout: float = 10.0


def emit(
    events: t.Iterable[RunEvent],
    destination: Destination,
    write: t.Callable[[str], None] = print,
) -> int:
    """Send ``events`` in order; the number sent.

    Raises:
        DbtLineageError: the destination is incomplete, or refused an event.
    """
    transport = _transport(destination)
    client = OpenLineageClient(transport=transport)
    sent = 0
    with _console_to(write) if destination.transport == "console" else contextlib.nullcontext():
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
                f"{' '.join(str(error).split())}"
            ) from error
        finally:
            client.close(timeout=30)
    return sent


def _transport(destination: Destination) -> Transport:
    kind = destination.transport
    if kind == "console":
        from openlineage.client.transport.console import ConsoleConfig, ConsoleTransport

        return ConsoleTransport(ConsoleConfig())
    if kind == "file":
        from openlineage.client.transport.file import FileConfig, FileTransport

        if destination.output is None:
            raise DbtLineageError("--transport file needs --output FILE")
        destination.output.parent.mkdir(parents=True, exist_ok=True)
        destination.output.write_text("")
        return FileTransport(FileConfig(log_file_path=str(destination.output), append=True))
    if kind == "http":
        from openlineage.client.transport.http import (
            ApiKeyTokenProvider,
            HttpConfig,
            HttpTransport,
            TokenProvider,
        )

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
