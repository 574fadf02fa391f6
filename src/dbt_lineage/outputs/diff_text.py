"""The ``dbt-lineage diff`` document as text for a terminal."""

from __future__ import annotations

import typing as t

VERDICT_TEXT = {
    "block": "a reference breaks",
    "unknown": "some changes could not be classified",
    "review": "existing data changes",
    "info": "additions, metadata and no-ops only",
}
"""What each verdict means, in a few words (shared with the Markdown)."""

_MAX_COLUMNS = 50
"""Impacted columns listed on a terminal before ``... and N more``."""


def diff_text(document: t.Mapping[str, t.Any]) -> str:
    """The verdict, the changes, what breaks, what is unknown and what is impacted.

    >>> print(diff_text({"verdict": "info", "changes": [], "impacted": {},
    ...                  "broken_references": [], "unknown": []}))
    Verdict: info (additions, metadata and no-ops only)
    No change.
    """
    verdict = document.get("verdict", "")
    lines = [f"Verdict: {verdict} ({VERDICT_TEXT.get(verdict, '')})"]
    changes = document.get("changes", [])
    if not changes:
        lines.append("No change.")
    else:
        lines.append(f"Changes ({len(changes)}):")
        for change in changes:
            lines.append(f"  {change['change']:<9} {change['class']:<13} {change['node']}")
            for name, what in change.get("columns", {}).items():
                lines.append(f"      {name}: {what.replace('renamed_from:', 'renamed from ')}")
            if change.get("reasons"):
                lines.append(f"      ({'; '.join(change['reasons'])})")
    broken = document.get("broken_references", [])
    if broken:
        lines.append(f"Broken references ({len(broken)}):")
        for item in broken:
            where = f"{item['node']}.{item['column']}" if item.get("column") else item["node"]
            lines.append(f"  {where} ({item.get('path', '')}): {item.get('message', '')}")
    unknown = document.get("unknown", [])
    if unknown:
        lines.append(f"Unknown ({len(unknown)}):")
        lines.extend(f"  {item['node']}: {item['reason']}" for item in unknown)
    impacted = document.get("impacted", {})
    exposures = impacted.get("exposures", [])
    models = impacted.get("models", [])
    columns = impacted.get("columns", [])
    if exposures or models or columns:
        lines.append(
            f"Impacted: {len(exposures)} exposure(s), {len(models)} model(s), "
            f"{len(columns)} column(s)"
        )
        for item in exposures:
            owner = item.get("owner") or {}
            who = owner.get("name") or owner.get("email") or "no owner"
            lines.append(f"  exposure {item['node']} ({item['type']}, {who})")
        lines.extend(f"  model {node_id}" for node_id in models)
        for item in columns[:_MAX_COLUMNS]:
            via = item.get("via") or {}
            step = ".".join(part for part in (via.get("node"), via.get("column")) if part)
            lines.append(
                f"    {item['node']}.{item['column']} (distance {item['distance']}, via "
                f"{step} {via.get('kind', '')})"
            )
        if len(columns) > _MAX_COLUMNS:
            lines.append(f"    ... and {len(columns) - _MAX_COLUMNS} more column(s)")
    return "\n".join(lines)
