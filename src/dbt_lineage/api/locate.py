"""Where a project's artifacts and lineage.json are, and the graph keys of names users type:
the rules every command and the Python API share."""

from __future__ import annotations

from pathlib import Path

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


def load_lineage(
    project_dir: str | Path,
    target_path: str | Path | None,
    lineage_file: str | Path | None,
    *,
    index: bool = False,
) -> LineageGraph:
    """The graph ``dbt-lineage build`` wrote: ``lineage_file``, else
    ``<target>/lineage.json``.

    With ``index``, read from the query index beside it when that is fresh (a graph for
    walks from one column or node: see ``graph.indexed_graph``), else from lineage.json.

    Raises:
        ArtifactError: no lineage.json, or one this version cannot read.
    """
    path = (
        Path(lineage_file)
        if lineage_file is not None
        else target_dir(project_dir, target_path) / "lineage.json"
    )
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
    """The graph key ``text`` names (see ``queries.lookup``); a node the manifest has but the
    graph lacks is said to be not built, rather than unknown.

    Raises:
        SelectionError: no such node or column (with "did you mean"), or not built.
    """
    try:
        return lookup(graph, text)
    except SelectionError as error:
        raise _not_built(text, target_dir(project_dir, target_path), graph) or error from None


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


def _not_built(text: str, target: Path, graph: LineageGraph) -> SelectionError | None:
    from dbt_lineage.artifacts.manifest import load_manifest
    from dbt_lineage.artifacts.names import resolve_name
    from dbt_lineage.errors import DbtLineageError

    path = target / "manifest.json"
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
