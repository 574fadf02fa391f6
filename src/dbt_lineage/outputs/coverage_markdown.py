"""``coverage --format markdown``: the table as GitHub Markdown, for a pull request comment."""

from __future__ import annotations

import typing as t

from dbt_lineage.outputs.coverage_table import coverage_table
from dbt_lineage.queries.coverage import Coverage, Threshold
from dbt_lineage.queries.lineage_breaks import LineageBreak

_MAX_ROWS = 200


def coverage_markdown(
    report: Coverage,
    thresholds: t.Sequence[Threshold] = (),
    breaks: t.Sequence[LineageBreak] | None = None,
) -> str:
    """``report`` as a Markdown table, the lineage breaks since a base, then the thresholds
    as a list."""
    header, rows = coverage_table(report)
    lines = [
        f"### Column coverage by {report.by}",
        "",
        "| " + " | ".join(header) + " |",
        "|" + "|".join([":---", *["---:"] * (len(header) - 1)]) + "|",
    ]
    for index, row in enumerate(rows):
        cells = [_escape(cell) for cell in row]
        if index == len(rows) - 1 and report.total is not None:
            cells = [f"**{cell}**" for cell in cells]
        lines.append("| " + " | ".join(cells) + " |")
    lines += [
        "",
        "_resolved_: share of the columns of models, snapshots and seeds; other percentages: "
        "share of all columns.",
    ]
    if breaks is not None:
        lines += ["", f"#### Lineage breaks since the base: {len(breaks)}"]
        if breaks:
            lines += ["", "| column | break | detail |", "|:---|:---|:---|"]
            lines += [
                f"| `{_escape(item.node_id)}.{_escape(item.column)}` | {item.kind} | "
                f"{_escape(item.detail)} |"
                for item in breaks[:_MAX_ROWS]
            ]
        if len(breaks) > _MAX_ROWS:
            lines.append(f"\n... and {len(breaks) - _MAX_ROWS} more (--format json lists all)")
    if thresholds:
        lines.append("")
        for item in thresholds:
            actual = "n/a" if item.actual is None else f"{item.actual:.1f}%"
            mark = "✅" if item.passed else "❌"
            lines.append(f"- {mark} `--min-{item.figure} {item.minimum:g}`: {actual}")
    return "\n".join(lines)


def _escape(cell: str) -> str:
    return cell.replace("|", "\\|")
