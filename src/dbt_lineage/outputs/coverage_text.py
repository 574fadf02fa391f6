"""The terminal view of ``coverage``: a table by group, the models no exposure uses, and the
thresholds."""

from __future__ import annotations

import typing as t

from dbt_lineage.outputs.coverage_table import coverage_table
from dbt_lineage.queries.coverage import Coverage, Threshold
from dbt_lineage.queries.lineage_breaks import LineageBreak

_MAX_LISTED = 20


def coverage_text(
    report: Coverage,
    thresholds: t.Sequence[Threshold] = (),
    breaks: t.Sequence[LineageBreak] | None = None,
) -> str:
    """``report`` as an aligned table, with the models that reach no exposure, the lineage
    breaks since a base (when compared with one) and the thresholds' outcome."""
    header, rows = coverage_table(report)
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    lines = [
        f"Coverage by {report.by}: columns of sources, seeds, models and snapshots "
        "(resolved: of models, snapshots and seeds)",
        "",
    ]
    for index, row in enumerate([header, *rows]):
        if index == len(rows):  # the total
            lines.append("  ".join("-" * width for width in widths))
        lines.append(
            "  ".join(
                cell.ljust(width) if column == 0 else cell.rjust(width)
                for column, (cell, width) in enumerate(zip(row, widths, strict=True))
            ).rstrip()
        )
    missing = report.total.no_exposure if report.total is not None else ()
    if missing:
        lines += ["", f"Models with no path to an exposure ({len(missing)}):"]
        lines += [f"  {node_id}" for node_id in missing[:_MAX_LISTED]]
        if len(missing) > _MAX_LISTED:
            lines.append(f"  ... and {len(missing) - _MAX_LISTED} more (--format json lists all)")
    if breaks is not None:
        lines += ["", f"Lineage breaks since the base: {len(breaks)}"]
        lines += [
            f"  {item.node_id}.{item.column}  {item.kind}: {item.detail}"
            for item in breaks[:_MAX_LISTED]
        ]
        if len(breaks) > _MAX_LISTED:
            lines.append(f"  ... and {len(breaks) - _MAX_LISTED} more (--format json lists all)")
    if thresholds:
        lines.append("")
        lines += [_threshold(item) for item in thresholds]
    return "\n".join(lines)


def _threshold(item: Threshold) -> str:
    actual = "n/a" if item.actual is None else f"{item.actual:.1f}%"
    verdict = "passed" if item.passed else "FAILED"
    return f"--min-{item.figure} {item.minimum:g}: {verdict} ({item.figure} {actual})"
