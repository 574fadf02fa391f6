"""``coverage --format markdown``: the table as GitHub Markdown, for a pull request comment."""

from __future__ import annotations

import typing as t

from dbt_lineage.outputs.coverage_table import coverage_table
from dbt_lineage.queries.coverage import Coverage, Threshold


def coverage_markdown(report: Coverage, thresholds: t.Sequence[Threshold] = ()) -> str:
    """``report`` as a Markdown table, then the thresholds as a list."""
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
    if thresholds:
        lines.append("")
        for item in thresholds:
            actual = "n/a" if item.actual is None else f"{item.actual:.1f}%"
            mark = "✅" if item.passed else "❌"
            lines.append(f"- {mark} `--min-{item.figure} {item.minimum:g}`: {actual}")
    return "\n".join(lines)


def _escape(cell: str) -> str:
    return cell.replace("|", "\\|")
