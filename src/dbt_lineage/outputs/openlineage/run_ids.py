"""Stable OpenLineage run ids for an invocation and for each node run in it.

A node run's id is a UUID version 5 of ``(invocation_id, unique_id)`` (as canonical JSON,
under a fixed namespace of our own): the same pair always gives the same id, whether the
run is read from ``run_results.json`` or from the warehouse, so re-emitting an invocation
updates the runs a backend already has instead of adding new ones. Version 7 would sort by
time, but its leading bits are a timestamp, and no node timestamp is guaranteed to read
back identically from every source (nor exists for a node that never started); version 5
depends on the pair alone. The invocation's own run id is dbt's ``invocation_id`` (already
a UUID), so a backend's run can be found by the id dbt printed.
"""

from __future__ import annotations

import json
import uuid

RUN_NAMESPACE = uuid.UUID("5d0c1ab1-94c5-4b2e-9a36-d1b7a6e0c7f3")
"""Our fixed UUIDv5 namespace for run ids (any fixed value; changing it changes every id)."""


def run_ids(invocation_id: str, unique_id: str | None = None) -> str:
    """The run id of the invocation, or of one node run in it.

    >>> run_ids("0f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b")
    '0f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b'
    >>> run_ids("0f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b", "model.shop.orders")[14]
    '5'
    """
    if unique_id is None:
        try:
            return str(uuid.UUID(invocation_id))
        except ValueError:
            return str(uuid.uuid5(RUN_NAMESPACE, json.dumps([invocation_id])))
    return str(uuid.uuid5(RUN_NAMESPACE, json.dumps([invocation_id, unique_id])))
