"""``dbt-lineage impact NODE[.COLUMN]``: what changes downstream, and how.

Also home to what the three graph-query commands share: finding and loading lineage.json,
reading the option values, and rendering a report.
"""

from __future__ import annotations

from pathlib import Path

import click

from dbt_lineage.cli import options
from dbt_lineage.cli.stale import stale, warn_if_stale
from dbt_lineage.errors import SelectionError
from dbt_lineage.graph.model import LineageGraph
from dbt_lineage.outputs.impact_text import impact_text
from dbt_lineage.queries.doc_inheritance import doc_inheritance
from dbt_lineage.queries.impact import ImpactReport
from dbt_lineage.queries.impact import impact as impact_of
from dbt_lineage.queries.lookup import lookup
from dbt_lineage.types import ColumnRef

include_indirect = click.option(
    "--include-indirect",
    is_flag=True,
    help="Also follow joins, filters and other clauses that decide which rows appear.",
)
depth = click.option(
    "--depth",
    type=click.IntRange(min=1),
    default=None,
    help="Follow at most N edges (default: all).",
)


@click.command()
@click.argument("target", metavar="NODE[.COLUMN]")
@options.project_dir
@options.target_path
@options.lineage_path
@options.no_index
@options.output_format
@include_indirect
@depth
def impact(
    target: str,
    project_dir: str,
    target_path: str | None,
    lineage_file: str | None,
    no_index: bool,
    output_format: str,
    include_indirect: bool,
    depth: int | None,
) -> None:
    """Columns, models and exposures that change if NODE or NODE.COLUMN changes.

    NODE is written as dbt does: orders, shop.orders, model.shop.orders,
    source:ecom.raw_orders, exposure:weekly_revenue.
    """
    graph = load_lineage(project_dir, target_path, lineage_file, index=not no_index)
    key = find(graph, target, project_dir, target_path)
    report = impact_of(graph, key, include_indirect=include_indirect, depth=depth)
    click.echo(render(report, output_format, graph))


def find(
    graph: LineageGraph, text: str, project_dir: str, target_path: str | None
) -> str | ColumnRef:
    """The graph key ``text`` names. A name lineage.json lacks is an error that says why
    when it can: the last build was a selected one (the node may not be built), or the
    manifest changed since (the node may be new). Neither reads the manifest's content:
    an error answers as fast as a question (see ``cli.stale``)."""
    try:
        return lookup(graph, text)
    except SelectionError as error:
        raise _why_missing(error, graph, project_dir, target_path) from None


def _why_missing(
    error: SelectionError, graph: LineageGraph, project_dir: str, target_path: str | None
) -> SelectionError:
    selected = graph.metadata.selected
    if selected:
        shown = " ".join(node_id.rpartition(".")[2] for node_id in selected[:3])
        more = " ..." if len(selected) > 3 else ""
        return SelectionError(
            f"{error.message} (lineage.json is from a selected build, `--select {shown}{more}`:"
            " a node not built is not in it; run `dbt-lineage build` for every node)"
        )
    target = _target(project_dir, target_path)
    if stale(target / "lineage.json", target / "manifest.json", graph.metadata.manifest_checksum):
        return SelectionError(
            f"{error.message} (lineage.json was built from an earlier manifest.json: a node "
            "added since is not in it; run `dbt-lineage build`)"
        )
    return error


def load_lineage(
    project_dir: str, target_path: str | None, lineage_file: str | None, *, index: bool = False
) -> LineageGraph:
    """The graph ``dbt-lineage build`` wrote: ``--lineage``, else ``<target>/lineage.json``,
    with a warning on standard error when that was built from another manifest than the
    target's (``cli.stale``).

    With ``index``, read from the query index beside it when that is fresh (a graph for
    walks from one column or node: see ``graph.indexed_graph``), else from lineage.json.
    """
    target = _target(project_dir, target_path)
    path = Path(lineage_file) if lineage_file is not None else target / "lineage.json"
    graph = _load(path, index)
    if lineage_file is None:
        warn_if_stale(path, target / "manifest.json", graph.metadata.manifest_checksum)
    return graph


def _load(path: Path, index: bool) -> LineageGraph:
    if index:
        from dbt_lineage.graph.indexed_graph import indexed_graph

        graph = indexed_graph(path)
        if graph is not None:
            return graph
    from dbt_lineage.graph.io import load_graph

    return load_graph(path)


def _target(project_dir: str, target_path: str | None) -> Path:
    target = Path(target_path) if target_path is not None else Path("target")
    return target if target.is_absolute() else Path(project_dir) / target


def column_target(
    graph: LineageGraph, text: str, project_dir: str = ".", target_path: str | None = None
) -> ColumnRef:
    """The column ``text`` names; a whole node is refused with some of its columns."""
    key = find(graph, text, project_dir, target_path)
    if isinstance(key, ColumnRef):
        return key
    names = list(graph.columns.get(key, {}))[:3]
    raise SelectionError(
        f"'{text}' names a node ({key}), not a column: give NODE.COLUMN",
        suggestions=[f"{text}.{name}" for name in names],
    )


def render(report: ImpactReport, output_format: str, graph: LineageGraph) -> str:
    """The report as text or JSON, with each reached column's description, own or inherited
    (marked as such)."""
    docs = doc_inheritance(graph)
    descriptions = {item.ref: docs.describe(item.ref) for item in report.columns}
    if output_format == "json":
        from dbt_lineage.outputs.impact_json import impact_json

        return impact_json(report, descriptions=descriptions)
    return impact_text(report, descriptions)
