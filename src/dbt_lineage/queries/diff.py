"""The pre-merge impact of a pull request: ``dbt-lineage diff`` as one JSON document.

Compares two sides (``diff_side``): which nodes changed and how (``node_changes``), what
that impacts downstream (``diff_impact``), which references it breaks
(``broken_references``), and a verdict:

- ``block``: a reference breaks;
- ``unknown``: some change could not be classified (it may hide a break);
- ``review``: existing data changes (a breaking or partial change, a removed node);
- ``info``: only additions, metadata and no-ops.
"""

from __future__ import annotations

import typing as t

from dbt_lineage.queries.broken_references import BrokenReference, broken_references
from dbt_lineage.queries.diff_impact import Impacted, diff_impact
from dbt_lineage.queries.diff_side import DiffSide
from dbt_lineage.queries.node_changes import NodeChange, node_changes
from dbt_lineage.types import ColumnRef

SCHEMA_VERSION = 1
"""Version of the diff JSON layout; bump it when the layout changes."""

VERDICTS = ("info", "review", "unknown", "block")
"""Verdicts from the mildest; ``--fail-on V`` fails on V and every verdict after it."""


def diff(
    base: DiffSide, head: DiffSide, *, only: t.Collection[str] | None = None
) -> dict[str, t.Any]:
    """The diff document of ``base`` (merged into) and ``head`` (the pull request).

    Args:
        base: the base side.
        head: the head side.
        only: compare only these node ids (``--select``); None compares every node.

    Returns:
        ``{"schema_version", "verdict", "changes", "impacted", "broken_references",
        "unknown"}`` as the README's ``dbt-lineage diff`` section documents.
    """
    changes = node_changes(base, head, only=only)
    impacted = diff_impact(changes, base, head)
    broken = broken_references(changes, base, head)
    unknown = [
        {"node": change.node, "reason": "; ".join(change.reasons) or "not classified"}
        for change in changes
        if change.klass == "unknown"
    ]
    return {
        "schema_version": SCHEMA_VERSION,
        "verdict": _verdict(changes, broken),
        "changes": [_change(change) for change in changes],
        "impacted": _impacted(impacted),
        "broken_references": [_broken(item) for item in broken],
        "unknown": unknown,
    }


def _verdict(changes: list[NodeChange], broken: list[BrokenReference]) -> str:
    if broken:
        return "block"
    if any(change.klass == "unknown" for change in changes):
        return "unknown"
    if any(change.klass in ("breaking", "partial") for change in changes):
        return "review"
    return "info"


def _change(change: NodeChange) -> dict[str, t.Any]:
    return {
        "node": change.node,
        "change": change.change,
        "class": change.klass,
        "columns": dict(sorted(change.columns.items())),
        "reasons": list(change.reasons),
    }


def _impacted(impacted: Impacted) -> dict[str, t.Any]:
    return {
        "columns": [
            {
                "node": item.ref.node_id,
                "column": item.ref.column,
                "distance": item.distance,
                "via": _via(item.via, item.kind),
            }
            for item in impacted.columns
        ],
        "models": list(impacted.models),
        "exposures": [
            {
                "node": item.node,
                "type": item.type,
                "owner": {"name": item.owner_name, "email": item.owner_email},
            }
            for item in impacted.exposures
        ],
    }


def _via(via: ColumnRef | str, kind: str) -> dict[str, str]:
    if isinstance(via, ColumnRef):
        return {"node": via.node_id, "column": via.column, "kind": kind}
    return {"node": via, "column": "", "kind": kind}


def _broken(item: BrokenReference) -> dict[str, t.Any]:
    return {
        "node": item.node,
        "column": item.column,
        "reference": {
            "node": item.reference.node_id,
            "column": item.reference.column,
            "kind": item.kind,
        },
        "path": item.path,
        "message": item.message,
    }
