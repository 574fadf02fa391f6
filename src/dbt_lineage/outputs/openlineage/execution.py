"""What one dbt invocation executed, whichever record it was read from.

``run_results.json`` (``from_run_results``) and the run history tables the hook writes
(``from_history``) both become an ``InvocationExecution``; the events are built from that
alone, so both sources give the same events for the same invocation.
"""

from __future__ import annotations

import dataclasses
import datetime
import re

EXECUTED_TYPES = ("model", "seed", "snapshot")
"""Resource types whose executions become OpenLineage runs (tests and hooks do not)."""

FAILED_STATUSES = ("error", "fail", "runtime error")

_PART = re.compile(r'"((?:[^"]|"")*)"|`([^`]*)`|\[([^\]]*)\]|([^.\s]+)')


@dataclasses.dataclass(frozen=True)
class Relation:
    """Where a relation lives: ``database.schema.identifier`` (any part may be empty)."""

    database: str
    schema: str
    identifier: str

    @property
    def dataset_name(self) -> str:
        """The OpenLineage dataset name: the non-empty parts joined by dots (as dbt-ol)."""
        return ".".join(part for part in (self.database, self.schema, self.identifier) if part)

    @classmethod
    def parse(cls, relation_name: str) -> Relation | None:
        """A relation from its rendered name, quotes removed.

        >>> Relation.parse('"shop"."main"."orders"').dataset_name
        'shop.main.orders'
        >>> Relation.parse("`proj`.`ds`.`t`").identifier
        't'
        """
        parts = [
            next(group for group in match.groups() if group is not None).replace('""', '"')
            for match in _PART.finditer(relation_name)
        ]
        if not parts:
            return None
        parts = ["", "", *parts][-3:]
        return cls(parts[0], parts[1], parts[2])


@dataclasses.dataclass(frozen=True)
class NodeExecution:
    """One executed model, seed or snapshot.

    ``inputs`` are the unique ids it read, each with the relation recorded for it when the
    record has one (the manifest's relation is used otherwise).
    """

    unique_id: str
    resource_type: str
    status: str
    relation: Relation | None
    started_at: datetime.datetime | None
    completed_at: datetime.datetime | None
    message: str | None = None
    rows_affected: int | None = None
    checksum: str | None = None
    inputs: tuple[tuple[str, Relation | None], ...] = ()

    @property
    def failed(self) -> bool:
        return self.status in FAILED_STATUSES


@dataclasses.dataclass(frozen=True)
class InvocationExecution:
    """One dbt invocation and the nodes it executed, in the order they started."""

    invocation_id: str
    project_name: str
    command: str
    dbt_version: str
    started_at: datetime.datetime
    ended_at: datetime.datetime
    nodes: tuple[NodeExecution, ...]
    git_sha: str | None = None
    other_failures: int = 0
    """Results that failed but are not runs of their own (tests, operations)."""


def utc(moment: datetime.datetime | str | None) -> datetime.datetime | None:
    """A timezone-aware UTC datetime (naive values are UTC, as dbt and the hook write them).

    >>> utc("2024-05-01T10:00:00.5Z").isoformat()
    '2024-05-01T10:00:00.500000+00:00'
    """
    if moment is None or moment == "":
        return None
    if isinstance(moment, str):
        moment = datetime.datetime.fromisoformat(moment.replace("Z", "+00:00"))
    if moment.tzinfo is None:
        return moment.replace(tzinfo=datetime.timezone.utc)
    return moment.astimezone(datetime.timezone.utc)
