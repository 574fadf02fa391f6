"""``dbt-lineage impact NODE[.COLUMN]``: what changes downstream, and how.

Also home to what the three graph-query commands share: finding and loading lineage.json,
reading the option values, and rendering a report.
"""

from __future__ import annotations

from pathlib import Path

import click

from dbt_lineage.cli import options
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
    """The graph key ``text`` names; a node the manifest has but the graph lacks is said to
    be not built, rather than unknown."""
    try:
        return lookup(graph, text)
    except SelectionError as error:
        raise _not_built(text, project_dir, target_path, graph) or error from None


def _not_built(
    text: str, project_dir: str, target_path: str | None, graph: LineageGraph
) -> SelectionError | None:
    from dbt_lineage.artifacts.manifest import load_manifest
    from dbt_lineage.artifacts.names import resolve_name
    from dbt_lineage.errors import DbtLineageError

    path = _target(project_dir, target_path) / "manifest.json"
    if not path.is_file():
        return None
    try:
        relations = load_manifest(path).relation_nodes()
    except DbtLineageError:
        return None
    candidates = [node.named for node in relations.values()]
    readings = [text] + [text[:i] for i in range(len(text) - 1, 0, -1) if text[i] == "."]
    for name in readings:
        try:
            node_id = resolve_name(name, candidates)
        except SelectionError:
            continue
        if node_id not in graph.nodes:
            return SelectionError(
                f"{node_id} is in the manifest but not in lineage.json (not built): "
                "run `dbt-lineage build`"
            )
    return None


def load_lineage(
    project_dir: str, target_path: str | None, lineage_file: str | None, *, index: bool = False
) -> LineageGraph:
    """The graph ``dbt-lineage build`` wrote: ``--lineage``, else ``<target>/lineage.json``.

    With ``index``, read from the query index beside it when that is fresh (a graph for
    walks from one column or node: see ``graph.indexed_graph``), else from lineage.json.
    """
    path = (
        Path(lineage_file)
        if lineage_file is not None
        else _target(project_dir, target_path) / "lineage.json"
    )
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
