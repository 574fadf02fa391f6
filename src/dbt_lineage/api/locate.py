"""Where a project's artifacts and lineage.json are, and the graph keys of names users type:
the rules every command and the Python API share."""

from __future__ import annotations

import typing as t
from pathlib import Path

from dbt_lineage.api.stale import stale
from dbt_lineage.errors import SelectionError
from dbt_lineage.graph.model import LineageGraph
from dbt_lineage.queries.lookup import lookup
from dbt_lineage.types import ColumnRef


def target_dir(project_dir: str | Path, target_path: str | Path | None) -> Path:
    """Where dbt wrote its artifacts: ``target_path`` (relative to the project), else
    ``<project_dir>/target``.

    >>> target_dir("shop", None).as_posix(), target_dir("shop", "/tmp/t").as_posix()
    ('shop/target', '/tmp/t')
    """
    target = Path(target_path) if target_path else Path("target")
    return target if target.is_absolute() else Path(project_dir) / target


class LoadedLineage(t.NamedTuple):
    """The graph a command answers from, and the warnings it prints on standard error
    before its answer (this layer never prints)."""

    graph: LineageGraph
    warnings: tuple[str, ...] = ()
    """One line each: lineage.json was built from another manifest (``api.stale``)."""


def load_lineage(
    project_dir: str | Path,
    target_path: str | Path | None,
    lineage_file: str | Path | None,
    *,
    index: bool = False,
) -> LoadedLineage:
    """The graph ``dbt-lineage build`` wrote: ``lineage_file``, else
    ``<target>/lineage.json``, with a warning when that was built from another manifest
    than the target's (``api.stale``).

    With ``index``, read from the query index beside it when that is fresh (a graph for
    walks from one column or node: see ``graph.indexed_graph``), else from lineage.json.

    Raises:
        ArtifactError: no lineage.json, or one this version cannot read.
    """
    target = target_dir(project_dir, target_path)
    path = Path(lineage_file) if lineage_file is not None else target / "lineage.json"
    graph = _load(path, index)
    if lineage_file is not None:  # an explicit file is not compared with the target's
        return LoadedLineage(graph)
    warning = stale(path, target / "manifest.json", graph.metadata.manifest_checksum)
    return LoadedLineage(graph, (warning,) if warning else ())


def _load(path: Path, index: bool) -> LineageGraph:
    if index:
        from dbt_lineage.graph.indexed_graph import indexed_graph

        graph = indexed_graph(path)
        if graph is not None:
            return graph
    from dbt_lineage.graph.io import load_graph

    return load_graph(path)


def find(
    graph: LineageGraph, text: str, project_dir: str | Path, target_path: str | Path | None
) -> str | ColumnRef:
    """The graph key ``text`` names (see ``queries.lookup``). A name lineage.json lacks is an
    error that says why when it can: the last build was a selected one (the node may not be
    built), or the manifest changed since (the node may be new). Neither reads the
    manifest's content: an error answers as fast as a question (see ``api.stale``).

    Raises:
        SelectionError: no such node or column (with "did you mean"), or not built.
    """
    try:
        return lookup(graph, text)
    except SelectionError as error:
        raise _why_missing(error, graph, target_dir(project_dir, target_path)) from None


def column_target(
    graph: LineageGraph,
    text: str,
    project_dir: str | Path = ".",
    target_path: str | Path | None = None,
) -> ColumnRef:
    """The column ``text`` names; a whole node is refused with some of its columns.

    Raises:
        SelectionError: not a column, or no such node or column.
    """
    key = find(graph, text, project_dir, target_path)
    if isinstance(key, ColumnRef):
        return key
    names = list(graph.columns.get(key, {}))[:3]
    raise SelectionError(
        f"'{text}' names a node ({key}), not a column: give NODE.COLUMN",
        suggestions=[f"{text}.{name}" for name in names],
    )


def _why_missing(error: SelectionError, graph: LineageGraph, target: Path) -> SelectionError:
    selected = graph.metadata.selected
    if selected:
        shown = " ".join(node_id.rpartition(".")[2] for node_id in selected[:3])
        more = " ..." if len(selected) > 3 else ""
        return SelectionError(
            f"{error.message} (lineage.json is from a selected build, `--select {shown}{more}`:"
            " a node not built is not in it; run `dbt-lineage build` for every node)"
        )
    if stale(target / "lineage.json", target / "manifest.json", graph.metadata.manifest_checksum):
        return SelectionError(
            f"{error.message} (lineage.json was built from an earlier manifest.json: a node "
            "added since is not in it; run `dbt-lineage build`)"
        )
    return error
