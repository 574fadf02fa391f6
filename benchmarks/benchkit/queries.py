"""In-process figures on a built ``lineage.json``: load time, coverage and impact latency."""

from __future__ import annotations

import dataclasses
import random
import time
from pathlib import Path

from dbt_lineage.graph.io import load_graph
from dbt_lineage.graph.model import EdgeType, NodeType
from dbt_lineage.queries.coverage import coverage
from dbt_lineage.queries.impact import impact
from dbt_lineage.types import ColumnRef

from .stats import percentile


@dataclasses.dataclass(frozen=True)
class GraphFigures:
    """What the benchmark prints about one built graph.

    Attributes:
        load_s: seconds to read lineage.json into a LineageGraph.
        index_s: seconds to build the traversal index (once per loaded graph).
        columns: model columns counted by ``coverage``.
        resolved_pct: the share of them resolved, as ``dbt-lineage build`` reports it.
        with_upstream: model columns with at least one direct upstream column (what
            colibri's count means; a ``count(*)`` is resolved yet has none).
        queries: impact queries timed.
        p50_ms, p95_ms, p99_ms, max_ms: their latency percentiles.
        mean_reached: columns an impact query reached, on average.
    """

    load_s: float
    index_s: float
    columns: int
    resolved_pct: float
    with_upstream: int
    queries: int
    p50_ms: float
    p95_ms: float
    p99_ms: float
    max_ms: float
    mean_reached: float


def graph_figures(lineage_json: Path, n_queries: int = 200, seed: int = 0) -> GraphFigures:
    """Load the graph and time ``impact`` on ``n_queries`` random model and source columns."""
    start = time.perf_counter()
    graph = load_graph(lineage_json)
    load_s = time.perf_counter() - start

    start = time.perf_counter()
    graph.digraph()
    index_s = time.perf_counter() - start

    report = coverage(graph)
    models = {nid for nid, node in graph.nodes.items() if node.type is NodeType.MODEL}
    with_upstream = {
        edge.target
        for edge in graph.edges
        if edge.type is EdgeType.DIRECT
        and isinstance(edge.target, ColumnRef)
        and edge.target.node_id in models
    }
    candidates = [
        ColumnRef(nid, name)
        for nid, node in graph.nodes.items()
        if node.type in (NodeType.MODEL, NodeType.SOURCE)
        for name in graph.columns.get(nid, {})
    ]
    picked = random.Random(seed).sample(candidates, min(n_queries, len(candidates)))
    latencies, reached = [], 0
    for ref in picked:
        start = time.perf_counter()
        result = impact(graph, ref, include_indirect=False, depth=None)
        latencies.append((time.perf_counter() - start) * 1000)
        reached += len(result.columns)
    return GraphFigures(
        load_s=load_s,
        index_s=index_s,
        columns=report.columns_total,
        resolved_pct=report.percent,
        with_upstream=len(with_upstream),
        queries=len(latencies),
        p50_ms=percentile(latencies, 50),
        p95_ms=percentile(latencies, 95),
        p99_ms=percentile(latencies, 99),
        max_ms=max(latencies),
        mean_reached=reached / max(1, len(latencies)),
    )
