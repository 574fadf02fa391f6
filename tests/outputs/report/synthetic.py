"""A large synthetic lineage graph built directly in code (no dbt), for the browser tests.

Layers of models (staging, intermediate, marts) over sources; each model reads one to three
models of the layers before it, each column derives from one or two columns of its parents
by identity, transform or aggregate; some models join and filter, some compute a window; an
exposure reads every 200th mart.
"""

from __future__ import annotations

import random

from dbt_lineage.graph.model import (
    ColumnNode,
    EdgeType,
    ExposureNode,
    GraphMetadata,
    LineageEdge,
    LineageGraph,
    LineageNode,
    NodeType,
    RelationNode,
)
from dbt_lineage.types import ColumnRef, EdgeKind

_LAYERS = ("staging", "intermediate", "marts")
_DIRECT = (EdgeKind.IDENTITY, EdgeKind.TRANSFORM, EdgeKind.AGGREGATE)


def synthetic_graph(models: int, columns: int = 12, seed: int = 0) -> LineageGraph:
    """``models`` models (plus a source per 5 models) of ``columns`` columns each."""
    rng = random.Random(seed)
    nodes: dict[str, LineageNode] = {}
    by_column: dict[str, dict[str, ColumnNode]] = {}
    edges: list[LineageEdge] = []

    def relation(node_id: str, kind: NodeType, name: str, path: str) -> None:
        nodes[node_id] = RelationNode(
            node_id=node_id, type=kind, name=name, path=path, materialized="table"
        )
        by_column[node_id] = {
            f"col_{i}": ColumnNode(
                node_id=node_id,
                type=NodeType.COLUMN,
                name=f"col_{i}",
                column=f"col_{i}",
                data_type="integer" if i % 3 else "varchar",
            )
            for i in range(columns)
        }

    sources = [f"source.synth.raw.src_{i}" for i in range(max(1, models // 5))]
    for index, node_id in enumerate(sources):
        relation(node_id, NodeType.SOURCE, f"raw.src_{index}", "models/sources.yml")
    tiers: list[list[str]] = [sources]
    per_layer = [models * 4 // 10, models * 4 // 10]
    per_layer.append(models - sum(per_layer))
    count = 0
    for layer, size in zip(_LAYERS, per_layer, strict=True):
        tier = []
        for _ in range(size):
            node_id = f"model.synth.m_{count}"
            folder = f"models/{layer}/area_{count % 7}"
            relation(node_id, NodeType.MODEL, f"{layer[:3]}_{count}", f"{folder}/m_{count}.sql")
            candidates = tiers[-1] if layer == "staging" else tiers[-1] + tier[-50:]
            parents = rng.sample(candidates, k=min(len(candidates), rng.randint(1, 3)))
            for parent in parents:
                edges.append(LineageEdge(parent, node_id, EdgeType.DEPENDS))
            for i in range(columns):
                target = ColumnRef(node_id, f"col_{i}")
                for parent in rng.sample(parents, k=min(len(parents), rng.randint(1, 2))):
                    source = ColumnRef(parent, f"col_{rng.randrange(columns)}")
                    kind = rng.choice(_DIRECT)
                    edges.append(
                        LineageEdge(source, target, EdgeType.DIRECT, kind, f"f({source.column})")
                    )
            if len(parents) > 1:
                edges.append(
                    LineageEdge(
                        ColumnRef(parents[0], "col_0"), node_id, EdgeType.INDIRECT, EdgeKind.JOIN
                    )
                )
            if count % 4 == 0:
                edges.append(
                    LineageEdge(
                        ColumnRef(parents[0], "col_1"),
                        ColumnRef(node_id, f"col_{columns - 1}"),
                        EdgeType.INDIRECT,
                        EdgeKind.WINDOW,
                    )
                )
            tier.append(node_id)
            count += 1
        tiers.append(tier)
    for index, mart in enumerate(tiers[-1][::200]):
        exposure = f"exposure.synth.dashboard_{index}"
        nodes[exposure] = ExposureNode(
            node_id=exposure,
            type=NodeType.EXPOSURE,
            name=f"Dashboard {index}",
            exposure_type="dashboard",
            owner_name="Analytics",
        )
        edges.append(LineageEdge(mart, exposure, EdgeType.DEPENDS))
    metadata = GraphMetadata(project_name="synth", adapter_type="duckdb")
    return LineageGraph(metadata=metadata, nodes=nodes, columns=by_column, edges=edges)
