"""The one-screen summary ``dbt-lineage build`` prints."""

from __future__ import annotations

import typing as t
from pathlib import Path

from dbt_lineage.files import describe
from dbt_lineage.graph.model import LineageGraph
from dbt_lineage.queries.coverage import Coverage, coverage

_MAX_DIAGNOSTICS = 20


def build_summary(
    graph: LineageGraph,
    *,
    path: Path,
    seconds: float,
    resolved: int,
    cached: int,
    report: Coverage | None = None,
    warnings: t.Sequence[str] = (),
) -> str:
    """Nodes, columns, coverage, unresolved columns by reason, diagnostics, and time."""
    report = report if report is not None else coverage(graph)
    counts = ", ".join(f"{count} {kind}s" for kind, count in sorted(report.relations.items()))
    lines = [
        f"Lineage for {graph.metadata.project_name or 'project'} "
        f"({graph.metadata.adapter_type or 'unknown adapter'}): {counts or 'no nodes'}",
        f"Columns: {report.columns_resolved}/{report.columns_total} resolved "
        f"({report.percent:.1f}%), {len(graph.edges)} edges",
    ]
    lines += [f"Warning: {warning}" for warning in warnings]
    if not graph.metadata.has_catalog:
        lines.append(
            "No catalog.json: columns come from YAML and SQL; run `dbt docs generate` "
            "for the warehouse's own columns."
        )
    for reason, refs in sorted(report.unresolved.items(), key=lambda item: -len(item[1])):
        lines.append(f"  unresolved ({reason}): {len(refs)} column(s)")
    if graph.diagnostics:
        lines.append(f"Diagnostics ({len(graph.diagnostics)}):")
        for item in graph.diagnostics[:_MAX_DIAGNOSTICS]:
            where = f" [{item.path}]" if item.path else ""
            lines.append(f"  {item.node_id}{where}: {item.message}")
        if len(graph.diagnostics) > _MAX_DIAGNOSTICS:
            rest = len(graph.diagnostics) - _MAX_DIAGNOSTICS
            lines.append(f"  ... and {rest} more in {describe(path)}")
    lines.append(
        f"Wrote {describe(path)} in {seconds:.2f}s "
        f"({resolved} node(s) resolved, {cached} from cache)"
    )
    return "\n".join(lines)
