"""The layered DAG of a synthetic project: sources, staging, intermediate models and marts.

Each staging model reads one source (one in ten reads two); each intermediate model and mart
reads 1 to 3 models of earlier layers (or earlier in its own layer), so the index order is a
topological order.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from .columns import ENTITIES, INTEGER, Col, Names, random_columns

SOURCE_SYSTEMS = ("erp", "crm", "web", "billing", "support")
VERBS = ("joined", "enriched", "rollup", "daily", "scored", "deduped", "unioned")


@dataclass
class SourceSpec:
    """One source table and its columns; ``declared`` when its YAML lists the columns."""

    unique_id: str
    source_name: str
    name: str
    entity: str
    columns: list[Col]
    declared: bool


@dataclass
class ModelSpec:
    """One model; ``columns`` and ``sql`` are filled in when its SQL is written."""

    unique_id: str
    name: str
    layer: str
    entity: str
    upstream_ids: list[str]
    materialized: str
    declared: bool
    columns: list[Col] = field(default_factory=list)
    sql: str = ""


def singular(entity: str) -> str:
    """``orders`` -> ``order``: the stem of the key column of an entity."""
    return entity[:-1] if entity.endswith("s") else entity


def plan_sources(rng: random.Random, project: str, count: int) -> list[SourceSpec]:
    """``count`` source tables of 10 to 38 columns, each with an ``id`` and foreign keys."""
    sources = []
    for i in range(count):
        entity = ENTITIES[i % len(ENTITIES)]
        system = SOURCE_SYSTEMS[i % len(SOURCE_SYSTEMS)]
        table = f"{entity}_{i}"
        names = Names(["id"])
        cols = [Col("id", INTEGER)]
        others = [e for e in ENTITIES if e != entity]
        for fk in rng.sample(others, rng.randint(1, 3)):
            cols.append(Col(names.fresh(f"{singular(fk)}_id"), INTEGER))
        cols += random_columns(rng, rng.randint(10, 38) - len(cols), names)
        uid = f"source.{project}.{system}.{table}"
        sources.append(SourceSpec(uid, system, table, entity, cols, rng.random() < 0.7))
    return sources


def plan_models(
    rng: random.Random, project: str, n_models: int, sources: list[SourceSpec]
) -> list[ModelSpec]:
    """Lay out ``n_models`` models: 30% staging, 40% intermediate, 30% marts."""
    n_stg = max(1, round(n_models * 0.3))
    n_int = max(0, min(n_models - n_stg, round(n_models * 0.4)))
    n_mart = n_models - n_stg - n_int
    models: list[ModelSpec] = []
    staging: list[ModelSpec] = []
    inter: list[ModelSpec] = []
    marts: list[ModelSpec] = []

    def add(spec: ModelSpec, layer_list: list[ModelSpec]) -> None:
        models.append(spec)
        layer_list.append(spec)

    for i in range(n_stg):
        src = sources[i % len(sources)]
        ups = [src.unique_id]
        if len(sources) > 1 and rng.random() < 0.1:
            other = rng.choice(sources)
            if other is not src:
                ups.append(other.unique_id)
        name = f"stg_{src.source_name}__{src.name}_{i}"
        spec = ModelSpec(
            f"model.{project}.{name}", name, "staging", src.entity, ups, "view", rng.random() < 0.5
        )
        add(spec, staging)

    for i in range(n_int):
        ups = _pick(rng, [(staging, 0.7), (inter, 0.3)])
        entity = ups[0].entity
        name = f"int_{entity}_{rng.choice(VERBS)}_{n_stg + i}"
        mat = rng.choice(("view", "table"))
        spec = ModelSpec(
            f"model.{project}.{name}",
            name,
            "intermediate",
            entity,
            [u.unique_id for u in ups],
            mat,
            rng.random() < 0.3,
        )
        add(spec, inter)

    for i in range(n_mart):
        ups = _pick(rng, [(inter, 0.6), (staging, 0.25), (marts, 0.15)])
        entity = ups[0].entity
        prefix = rng.choice(("fct", "dim"))
        name = f"{prefix}_{entity}_{n_stg + n_int + i}"
        mat = rng.choice(("table", "table", "incremental"))
        spec = ModelSpec(
            f"model.{project}.{name}",
            name,
            "marts",
            entity,
            [u.unique_id for u in ups],
            mat,
            rng.random() < 0.8,
        )
        add(spec, marts)
    return models


def _pick(rng: random.Random, pools: list[tuple[list[ModelSpec], float]]) -> list[ModelSpec]:
    """1 to 3 distinct upstreams, each drawn from a non-empty pool by weight."""
    live = [(pool, w) for pool, w in pools if pool]
    want = rng.choices((1, 2, 3), (50, 35, 15))[0]
    picked: list[ModelSpec] = []
    for _ in range(want * 2):
        pool = rng.choices([p for p, _ in live], [w for _, w in live])[0]
        cand = pool[_biased_index(rng, len(pool))]
        if all(cand.unique_id != p.unique_id for p in picked):
            picked.append(cand)
        if len(picked) == want:
            break
    return picked


def _biased_index(rng: random.Random, size: int) -> int:
    """An index into a pool in creation order: a third of the draws favour the first models
    (hubs many models read, like a core dimension), a third the latest (long chains), the
    rest are uniform."""
    r, u = rng.random(), rng.random()
    if r < 1 / 3:
        return int(size * u * u)
    if r < 2 / 3:
        return int(size * (1 - u * u))
    return int(size * u)
