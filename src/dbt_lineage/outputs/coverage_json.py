"""The JSON document of ``coverage --format json``::

    {
      "schema_version": 1,
      "by": "layer",
      "groups": [
        {"group": "marts", "relations": 6, "models": 6, "columns": 34,
         "lineage_columns": 34,                 # of models, snapshots and seeds
         "resolved": 34, "documented": 26, "inherited_docs": 8, "tested": 6,
         "classified": 4, "reach_exposure": 19, "orphans": 15,
         "no_exposure": ["model.shop.customer_contacts"],  # models with no path to one
         "percent": {"resolved": 100.0, "documented": 76.5, "tested": 17.6,
                     "classified": 11.8, "reach_exposure": 55.9, "orphans": 44.1}}
      ],
      "total": {...same keys, "group": "total"},
      "thresholds": [{"figure": "resolved", "minimum": 95.0, "actual": 100.0,
                      "passed": true}]
    }

A percentage is null when its group has nothing to count (``resolved`` of a group of
sources).
"""

from __future__ import annotations

import typing as t

import pydantic

from dbt_lineage.queries.coverage import Coverage, GroupCoverage, Threshold
from dbt_lineage.queries.lineage_breaks import LineageBreak

SCHEMA_VERSION = 1
PERCENTS = ("resolved", "documented", "tested", "classified", "reach_exposure", "orphans")


class _Frozen(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(extra="forbid", frozen=True)


class Group(_Frozen):
    group: str
    relations: int
    models: int
    columns: int
    lineage_columns: int
    resolved: int
    documented: int
    inherited_docs: int
    tested: int
    classified: int
    reach_exposure: int
    orphans: int
    no_exposure: list[str]
    percent: dict[str, float | None]


class ThresholdResult(_Frozen):
    figure: str
    minimum: float
    actual: float | None
    passed: bool


class CoverageDocument(_Frozen):
    """The whole document; ``CoverageDocument.model_json_schema()`` gives its JSON Schema."""

    schema_version: int = SCHEMA_VERSION
    by: str
    groups: list[Group]
    total: Group
    thresholds: list[ThresholdResult]
    lineage_breaks: list[dict[str, t.Any]] | None = None
    """With ``--base``: the columns that lost lineage since the base (``LineageBreak``)."""


def coverage_json(
    report: Coverage,
    thresholds: t.Sequence[Threshold] = (),
    breaks: t.Sequence[LineageBreak] | None = None,
) -> str:
    """``report`` (grouped: ``coverage(by=...)``) as the JSON document described above."""
    document = CoverageDocument(
        by=report.by,
        groups=[_group(group) for group in report.groups],
        total=_group(report.total or GroupCoverage("total")),
        thresholds=[
            ThresholdResult(
                figure=item.figure, minimum=item.minimum, actual=item.actual, passed=item.passed
            )
            for item in thresholds
        ],
        lineage_breaks=None if breaks is None else [item.to_dict() for item in breaks],
    )
    # without --base, no lineage_breaks key at all (every other null is kept)
    return document.model_dump_json(
        indent=2, exclude={"lineage_breaks"} if breaks is None else None
    )


def _group(group: GroupCoverage) -> Group:
    return Group(
        group=group.group,
        relations=group.relations,
        models=group.models,
        columns=group.columns,
        lineage_columns=group.lineage_columns,
        resolved=group.resolved,
        documented=group.documented,
        inherited_docs=group.inherited_docs,
        tested=group.tested,
        classified=group.classified,
        reach_exposure=group.reach_exposure,
        orphans=group.orphans,
        no_exposure=list(group.no_exposure),
        percent={figure: group.percent(figure) for figure in PERCENTS},
    )
