"""Coverage of a project's columns with everything the project itself says: its column
tests, its classification rules and masking macros, its groups' owners, and (with a base)
the columns that lost lineage since it. ``dbt-lineage coverage`` prints this."""

from __future__ import annotations

import typing as t
from pathlib import Path

from dbt_lineage.artifacts.column_tests import column_tests
from dbt_lineage.artifacts.manifest import Manifest, load_manifest
from dbt_lineage.artifacts.project_vars import project_vars
from dbt_lineage.artifacts.raw_code import raw_code
from dbt_lineage.graph.model import LineageGraph
from dbt_lineage.queries.classification import classification
from dbt_lineage.queries.classification_report import Classification
from dbt_lineage.queries.classification_rules import classification_rules
from dbt_lineage.queries.coverage import Coverage, Threshold, coverage
from dbt_lineage.queries.edge_index import edge_index
from dbt_lineage.queries.lineage_breaks import LineageBreak
from dbt_lineage.queries.masking_macros import masking_macros


class ProjectCoverage(t.NamedTuple):
    """The report, each threshold's outcome, and (with a base) the lineage breaks."""

    report: Coverage
    thresholds: list[Threshold]
    breaks: list[LineageBreak] | None


def project_coverage(
    graph: LineageGraph,
    *,
    project_dir: str | Path,
    target: Path,
    by: str = "layer",
    min_resolved: float | None = None,
    min_documented: float | None = None,
    base: str | Path | None = None,
) -> ProjectCoverage:
    """Per group of relations (``by``): columns resolved, documented, tested, classified,
    reaching an exposure; the thresholds' results; with ``base`` (a target directory or a
    manifest.json, as for ``diff``), the columns that lost lineage since it.

    Args:
        graph: the project's whole graph (loaded from lineage.json, not the index: coverage
            counts every edge).
        project_dir: the dbt project (its vars hold the classification rules).
        target: the target directory holding its manifest.json.

    Raises:
        ArtifactError: no manifest.json in ``target``, or the base cannot be read.
    """
    manifest = load_manifest(target / "manifest.json")
    index = edge_index(graph)
    classified = {item.ref for item in classify_project(graph, project_dir, target).columns}
    report = coverage(
        graph,
        by=by,
        tests=column_tests(manifest),
        classified=classified,
        owners=_group_owners(manifest),
        index=index,
    )
    thresholds = report.check({"resolved": min_resolved, "documented": min_documented})
    breaks = None
    if base is not None:
        from dbt_lineage.api.base_breaks import base_breaks

        breaks = base_breaks(
            str(base), graph, manifest, project_dir=str(project_dir), target=target, index=index
        )
    return ProjectCoverage(report, thresholds, breaks)


def classify_project(
    graph: LineageGraph, project_dir: str | Path, target: Path, *, only: t.Sequence[str] = ()
) -> Classification:
    """Classification with the project's rules (its vars) and its masking macros."""
    rules = classification_rules(project_vars(project_dir))
    masked = {}
    if rules.masking_macros:
        masked = masking_macros(graph, raw_code(target / "manifest.json"), rules.masking_macros)
    return classification(graph, rules, only=only, masked_columns=masked)


def _group_owners(manifest: Manifest) -> dict[str, str]:
    """Each node's owner through its dbt group (``groups:`` with ``owner:``)."""
    owners = {}
    for group in manifest.groups.values():
        owner = group.owner.name or group.owner.email
        if owner:
            owners[group.name] = owner
    return {
        node_id: owners[node.group]
        for node_id, node in manifest.relation_nodes().items()
        if node.group in owners
    }
