"""The rows of the coverage table, shared by the text and Markdown views."""

from __future__ import annotations

from dbt_lineage.queries.coverage import Coverage, GroupCoverage

HEADERS = (
    "relations",
    "columns",
    "resolved",
    "documented",
    "inherited docs",
    "tested",
    "classified",
    "reach exposure",
    "orphans",
    "models w/o exposure",
)


def coverage_table(report: Coverage) -> tuple[list[str], list[list[str]]]:
    """The header and one row per group, then the total: counts with their percentages.

    ``resolved`` is a share of the columns of models, snapshots and seeds; every other
    percentage is a share of all columns of the group.
    """
    groups = list(report.groups)
    if report.total is not None:
        groups.append(report.total)
    rows = [[group.group, *_cells(group)] for group in groups]
    return [report.by or "group", *HEADERS], rows


def share_text(percent: float) -> str:
    """A percentage to one decimal, a whole one without (never rounded to a whole number
    that hides a small share or a gap: 2.53 is 2.5%, 99.96 is 100.0%, not 100%).

    >>> share_text(2.53), share_text(100.0), share_text(99.96), share_text(0.0)
    ('2.5%', '100%', '100.0%', '0%')
    """
    if percent == int(percent):
        return f"{int(percent)}%"
    return f"{percent:.1f}%"


def _cells(group: GroupCoverage) -> list[str]:
    def share(figure: str) -> str:
        percent = group.percent(figure)
        count = getattr(group, figure)
        return f"{count} ({share_text(percent)})" if percent is not None else f"{count}"

    return [
        str(group.relations),
        str(group.columns),
        share("resolved"),
        share("documented"),
        str(group.inherited_docs),
        share("tested"),
        share("classified"),
        share("reach_exposure"),
        share("orphans"),
        f"{len(group.no_exposure)}/{group.models}",
    ]
