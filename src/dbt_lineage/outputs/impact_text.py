"""The terminal view of ``impact``, ``upstream`` and ``downstream``: columns grouped by
distance, one line each with its kinds, then relations and exposures."""

from __future__ import annotations

import typing as t

from dbt_lineage.queries.doc_inheritance import ColumnDescription
from dbt_lineage.queries.impact import DIRECT_KINDS, INDIRECT_KINDS, ImpactReport
from dbt_lineage.types import ColumnRef

_TITLES = {"impact": "Impact of", "upstream": "Upstream of", "downstream": "Downstream of"}
_MAX_LABEL = 64
_MAX_DESCRIPTION = 100


def impact_text(
    report: ImpactReport,
    descriptions: t.Mapping[ColumnRef, ColumnDescription | None] | None = None,
) -> str:
    """``report`` as plain text; with ``descriptions``, each column's description under it,
    an inherited one marked with its source.

    >>> from dbt_lineage.queries.impact import ImpactReport, ReachedColumn, ReachedRelation
    >>> source, mart = ColumnRef("model.p.stg", "x"), ColumnRef("model.p.mart", "total")
    >>> report = ImpactReport(
    ...     "impact", source,
    ...     (ReachedColumn(mart, 1, "aggregate", ("aggregate",), source),),
    ...     (ReachedRelation("model.p.mart", "model", "mart", 1),), (),
    ...     ("identity", "transform", "aggregate"))
    >>> print(impact_text(report))
    Impact of model.p.stg.x: 1 column, 1 relation, 0 exposures
    Followed all direct edges, to any depth.
    <BLANKLINE>
    Distance 1
      model.p.mart.total  aggregate  [aggregate]  via model.p.stg.x
    <BLANKLINE>
    Relations
      1  model  model.p.mart
    """
    counts = [_count(len(report.columns), "column"), _count(len(report.relations), "relation")]
    if report.query != "upstream":  # nothing reads an exposure: none is ever upstream
        counts.append(_count(len(report.exposures), "exposure"))
    lines = [
        f"{_TITLES.get(report.query, report.query)} {_label(report.target)}: {', '.join(counts)}",
        _followed(report),
    ]
    if not (report.columns or report.relations or report.exposures):
        lines.append(f"Nothing {'upstream' if report.query == 'upstream' else 'downstream'}.")
        return "\n".join(lines)
    width = min(_MAX_LABEL, max((len(_label(item.ref)) for item in report.columns), default=0))
    kind_width = max((len(item.kind) for item in report.columns), default=0)
    paths = {item.ref: f"[{' > '.join(item.path_kinds)}]" for item in report.columns}
    path_width = max(map(len, paths.values()), default=0)
    for distance, group in report.by_distance().items():
        lines += ["", f"Distance {distance}"]
        for item in group:
            lines.append(
                f"  {_label(item.ref):<{width}}  {item.kind:<{kind_width}}  "
                f"{paths[item.ref]:<{path_width}}  via {_label(item.via)}"
            )
            described = (descriptions or {}).get(item.ref)
            if described is not None:
                lines.append(f"      {_describe(described)}")
    if report.relations:
        type_width = max(len(item.type) for item in report.relations)
        lines += ["", "Relations"]
        reached = {item.ref.node_id for item in report.columns}
        lines += [
            f"  {item.distance}  {item.type:<{type_width}}  {item.node_id}"
            + ("" if item.node_id in reached or report.query == "upstream" else _NO_COLUMN)
            for item in report.relations
        ]
    if report.exposures:
        type_width = max(len(item.type or "exposure") for item in report.exposures)
        lines += ["", "Exposures"]
        for item in report.exposures:
            named = f" ({item.name})" if item.name and item.name not in item.node_id else ""
            lines.append(
                f"  {item.distance}  {item.type or 'exposure':<{type_width}}  "
                f"{item.node_id}{named}, reads {', '.join(item.via)}"
            )
    return "\n".join(lines)


def _followed(report: ImpactReport) -> str:
    """Which edges the walk followed, and how far."""
    families = []
    scope = "row-set and column-scoped" if report.include_indirect else "column-scoped"
    for family, word in ((DIRECT_KINDS, "direct"), (INDIRECT_KINDS, f"{scope} indirect")):
        chosen = [kind for kind in family if kind in report.kinds]
        if chosen:
            families.append(
                f"all {word}" if len(chosen) == len(family) else f"{', '.join(chosen)} {word}"
            )
    depth = "to any depth" if report.depth is None else f"up to {_count(report.depth, 'edge')} away"
    return f"Followed {' and '.join(families) or 'no'} edges, {depth}."


def _describe(found: ColumnDescription) -> str:
    """A description on one line, cut to ``_MAX_DESCRIPTION``; an inherited one says so."""
    text = " ".join(found.text.split())
    if len(text) > _MAX_DESCRIPTION:
        text = text[: _MAX_DESCRIPTION - 3].rstrip() + "..."
    if found.source is None:
        return text
    return f"{text} (inherited from {_label(found.source)})"


_NO_COLUMN = (
    "  (no column of it derives from the target's: reached through the manifest's"
    " dependencies only; --include-indirect also follows joins and filters)"
)


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def _label(key: str | ColumnRef) -> str:
    """A node or column as users type it (display only, never a key)."""
    return f"{key.node_id}.{key.column}" if isinstance(key, ColumnRef) else key
