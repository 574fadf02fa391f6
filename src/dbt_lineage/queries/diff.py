"""The pre-merge impact of a pull request: ``dbt-lineage diff`` as one JSON document.

Compares two sides (``diff_side``): which nodes changed and how (``node_changes``), what
that impacts downstream (``diff_impact``), which references it breaks
(``broken_references``), and a verdict:

- ``block``: a reference breaks (a reader of a gone column, a test, an enforced contract);
- ``unknown``: some change could not be classified (it may hide a break);
- ``review``: existing data that something downstream reads changes: a column, model or
  exposure is impacted, or a model with an enforced contract loses or retypes a column;
- ``info``: nothing downstream reads what changed: additions, metadata, no-ops, and data
  changes with no downstream reader (those say "no downstream reader" in their reasons).
"""

from __future__ import annotations

import typing as t

from dbt_lineage.queries.broken_references import BrokenReference, broken_references
from dbt_lineage.queries.column_changes import REMOVED, RETYPED
from dbt_lineage.queries.contract_types import contract_types
from dbt_lineage.queries.diff_impact import Impacted, ImpactedColumn, diff_impact
from dbt_lineage.queries.diff_side import DiffSide
from dbt_lineage.queries.modified_node import NodeChange
from dbt_lineage.queries.node_changes import node_changes
from dbt_lineage.types import ColumnRef

SCHEMA_VERSION = 1
"""Version of the diff JSON layout; bump it when the layout changes."""

NO_READER = "no downstream reader: no model, column or exposure reads what changed"
"""The reason a change of data that nothing reads gives (its verdict is ``info``)."""

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
    broken = _merged(broken_references(changes, base, head), contract_types(changes, head))
    _say_who_reads(changes, impacted, broken, base, head)
    unknown = [
        {"node": change.node, "reason": "; ".join(change.reasons) or "not classified"}
        for change in changes
        if change.klass == "unknown"
    ]
    return {
        "schema_version": SCHEMA_VERSION,
        "verdict": _verdict(changes, impacted, broken, head),
        "changes": [_change(change) for change in changes],
        "impacted": _impacted(impacted),
        "broken_references": [_broken(item) for item in broken],
        "unknown": unknown,
    }


def _merged(*found: list[BrokenReference]) -> list[BrokenReference]:
    """Broken references of each check, once each, by node then column."""
    kept: dict[tuple[str, str, ColumnRef, str], BrokenReference] = {}
    for item in (item for items in found for item in items):
        kept.setdefault((item.node, item.column, item.reference, item.kind), item)
    return sorted(kept.values(), key=lambda b: (b.node, b.column, b.reference, b.kind))


def _verdict(
    changes: list[NodeChange], impacted: Impacted, broken: list[BrokenReference], head: DiffSide
) -> str:
    if broken:
        return "block"
    if any(change.klass == "unknown" for change in changes):
        return "unknown"
    if impacted.columns or impacted.models or impacted.exposures:
        return "review"
    if any(_contract_narrowed(change, head) for change in changes):
        return "review"
    return "info"


def _contract_narrowed(change: NodeChange, head: DiffSide) -> bool:
    """A model with an enforced contract loses or retypes a column: dbt's own check calls
    that a breaking change of the contract, whoever reads it."""
    facts = head.nodes.get(change.node)
    if facts is None or not facts.contract_enforced:
        return False
    return any(what in (REMOVED, RETYPED) for what in change.columns.values())


def _say_who_reads(
    changes: list[NodeChange],
    impacted: Impacted,
    broken: list[BrokenReference],
    base: DiffSide,
    head: DiffSide,
) -> None:
    """Adds ``NO_READER`` to the reasons of each change of data that nothing downstream
    reads or breaks on (walking from each change alone only when several changed data and
    some are read)."""
    changed_data = [c for c in changes if c.klass in ("breaking", "partial")]
    read = bool(impacted.columns or impacted.models or impacted.exposures)
    broken_on = {item.reference.node_id for item in broken if item.kind != "contract"}
    for change in changed_data:
        if change.node in broken_on:
            continue
        if read and len(changed_data) > 1:
            alone = diff_impact(changes, base, head, starting={change.node})
            reads = bool(alone.columns or alone.models or alone.exposures)
        else:
            reads = read
        if not reads:
            change.reasons.append(NO_READER)


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
        "columns": _columns(impacted.columns),
        "added_columns": _columns(impacted.added),
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


def _columns(columns: t.Iterable[ImpactedColumn]) -> list[dict[str, t.Any]]:
    return [
        {
            "node": item.ref.node_id,
            "column": item.ref.column,
            "distance": item.distance,
            "via": _via(item.via, item.kind),
        }
        for item in columns
    ]


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
