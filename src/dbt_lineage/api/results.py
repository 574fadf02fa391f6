"""What the Python API's questions return: frozen dataclasses whose ``to_dict()`` is the
JSON document the CLI prints for the same question (``--format json``), parsed.

Each ``to_dict()`` renders through the very function the CLI renders with, so the two
cannot drift apart.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import typing as t

from dbt_lineage.graph.model import LineageGraph
from dbt_lineage.queries.coverage import Coverage, GroupCoverage, Threshold
from dbt_lineage.queries.doc_inheritance import ColumnDescription, doc_inheritance
from dbt_lineage.queries.impact import ImpactReport
from dbt_lineage.queries.lineage_breaks import LineageBreak
from dbt_lineage.types import ColumnRef


def column_descriptions(
    report: ImpactReport, graph: LineageGraph
) -> dict[ColumnRef, ColumnDescription | None]:
    """Each reached column's description, own or inherited (see ``doc_inheritance``)."""
    docs = doc_inheritance(graph)
    return {item.ref: docs.describe(item.ref) for item in report.columns}


@dataclasses.dataclass(frozen=True)
class LineageResult(ImpactReport):
    """What ``upstream``, ``downstream`` or ``impact`` found (``query`` says which): the
    reached columns, relations and exposures, each nearest first, and the options the walk
    followed. Every attribute of ``ImpactReport``; ``descriptions`` (each reached column's
    description, own or inherited) is looked up the first time it is read.
    """

    _graph: LineageGraph | None = dataclasses.field(default=None, repr=False, compare=False)

    @classmethod
    def of(cls, report: ImpactReport, graph: LineageGraph) -> LineageResult:
        """``report``, answered over ``graph``, as a result."""
        fields = {field.name: getattr(report, field.name) for field in dataclasses.fields(report)}
        return cls(**fields, _graph=graph)

    @functools.cached_property
    def descriptions(self) -> dict[ColumnRef, ColumnDescription | None]:
        """Each reached column's description (None: it has none and inherits none)."""
        if self._graph is None:
            return {item.ref: None for item in self.columns}
        return column_descriptions(self, self._graph)

    def to_dict(self) -> dict[str, t.Any]:
        """The document ``dbt-lineage <query> --format json`` prints (see
        ``outputs.impact_json``)."""
        from dbt_lineage.outputs.impact_json import impact_json

        return t.cast(
            dict[str, t.Any], json.loads(impact_json(self, descriptions=self.descriptions))
        )


@dataclasses.dataclass(frozen=True)
class CoverageResult:
    """Coverage of a project's columns, per group of relations and in total.

    Attributes:
        by: what ``groups`` are grouped by (``folder``, ``layer``, ``resource_type``,
            ``owner``).
        groups: each group's figures (``GroupCoverage``: ``percent(figure)`` gives a share).
        total: the figures of every group together.
        thresholds: each minimum asked for, with the actual figure and whether it passed.
        lineage_breaks: with ``base``, the columns that lost lineage since it; else None.
        columns_total: columns of models, snapshots and seeds.
        columns_resolved: of those, the ones with complete lineage.
        unresolved: unresolved columns by reason code.
    """

    by: str
    groups: tuple[GroupCoverage, ...]
    total: GroupCoverage
    thresholds: tuple[Threshold, ...]
    lineage_breaks: tuple[LineageBreak, ...] | None
    columns_total: int
    columns_resolved: int
    unresolved: t.Mapping[str, tuple[ColumnRef, ...]]
    _report: Coverage = dataclasses.field(repr=False, compare=False)

    @classmethod
    def of(
        cls,
        report: Coverage,
        thresholds: t.Sequence[Threshold],
        breaks: t.Sequence[LineageBreak] | None,
    ) -> CoverageResult:
        """The result of a ``coverage`` query's report, thresholds and breaks."""
        return cls(
            by=report.by,
            groups=tuple(report.groups),
            total=report.total or GroupCoverage("total"),
            thresholds=tuple(thresholds),
            lineage_breaks=None if breaks is None else tuple(breaks),
            columns_total=report.columns_total,
            columns_resolved=report.columns_resolved,
            unresolved={reason: tuple(refs) for reason, refs in report.unresolved.items()},
            _report=report,
        )

    @property
    def passed(self) -> bool:
        """Whether every threshold passed and no column lost lineage since the base."""
        return all(item.passed for item in self.thresholds) and not self.lineage_breaks

    def to_dict(self) -> dict[str, t.Any]:
        """The document ``dbt-lineage coverage --format json`` prints (see
        ``outputs.coverage_json``)."""
        from dbt_lineage.outputs.coverage_json import coverage_json

        text = coverage_json(self._report, self.thresholds, self.lineage_breaks)
        return t.cast(dict[str, t.Any], json.loads(text))


@dataclasses.dataclass(frozen=True)
class DiffResult:
    """The pre-merge comparison of two sides (see the ``diff`` section of the docs).

    Attributes:
        verdict: ``info``, ``review``, ``unknown`` or ``block`` (``VERDICTS``, mildest first).
        document: the whole diff document, as ``dbt-lineage diff --format json`` prints it.
    """

    verdict: str
    document: t.Mapping[str, t.Any] = dataclasses.field(repr=False)

    def to_dict(self) -> dict[str, t.Any]:
        """The document ``dbt-lineage diff --format json`` prints, parsed (a new copy)."""
        from dbt_lineage.outputs.diff_json import diff_json

        return t.cast(dict[str, t.Any], json.loads(diff_json(self.document)))
