"""``coverage --base``: the columns that lost lineage since a base's artifacts."""

from __future__ import annotations

from pathlib import Path

from dbt_lineage.api.side_lineage import side_lineage
from dbt_lineage.artifacts.manifest import Manifest
from dbt_lineage.graph.model import LineageGraph
from dbt_lineage.queries.diff_side import diff_side
from dbt_lineage.queries.edge_index import EdgeIndex
from dbt_lineage.queries.lineage_breaks import LineageBreak, lineage_breaks
from dbt_lineage.queries.node_changes import node_changes
from dbt_lineage.resolve.cache import CACHE_FILE, LineageCache

_SAME_SQL = ("none", "metadata")
"""Change classes that leave a model's SQL as it was (formatting, config, docs)."""


def base_breaks(
    base: str,
    graph: LineageGraph,
    manifest: Manifest,
    *,
    project_dir: str,
    target: Path,
    index: EdgeIndex,
) -> list[LineageBreak]:
    """The lineage breaks of ``graph`` (built from ``manifest``) since the artifacts at
    ``base`` (a target directory or a manifest.json, loaded as ``diff --base`` loads it).
    ``index`` is ``graph``'s edge index, which the caller has built already.

    A model whose SQL changed loses upstreams on purpose: only its newly unresolved columns
    count. The base shares the project's resolution cache, so it costs little when the two
    differ in a few models.
    """
    cache = LineageCache(target / CACHE_FILE)
    before = side_lineage(base, option="--base", project_dir=project_dir, cache=cache)
    base_side = diff_side(before.graph, before.manifest)
    changes = node_changes(base_side, diff_side(graph, manifest))
    changed = {
        change.node
        for change in changes
        if change.change == "modified" and change.klass not in _SAME_SQL
    }
    return lineage_breaks(
        before.graph,
        graph,
        changed_sql=changed,
        base_index=base_side.index,
        head_index=index,
    )
