"""Generate a synthetic dbt project: plan the DAG, write each model's SQL, write the artifacts."""

from __future__ import annotations

import json
import random
import uuid
from dataclasses import dataclass
from pathlib import Path

from . import artifacts
from .dag import ModelSpec, SourceSpec, plan_models, plan_sources, singular
from .recipes import build_model_sql
from .sqlgen import Upstream

EXPOSURE_KINDS = ("dashboard", "ml", "application", "analysis")
MODELS_PER_EXPOSURE = 200


@dataclass(frozen=True)
class ProjectSummary:
    """What was written, for the caller to print."""

    manifest_path: Path
    catalog_path: Path | None
    models: int
    sources: int
    exposures: int
    columns: int


def generate_project(
    n_models: int,
    out_dir: str | Path,
    *,
    seed: int = 0,
    with_catalog: bool = True,
    project: str = "bench",
    database: str = "bench",
) -> ProjectSummary:
    """Write ``target/manifest.json`` (and ``target/catalog.json``) of ``n_models`` models.

    The same arguments always give the same bytes.

    Args:
        n_models: how many models (staging, intermediate and marts together).
        out_dir: the project directory; ``target/`` is created in it.
        seed: the seed of the random choices.
        with_catalog: also write ``catalog.json``, as ``dbt docs generate`` would.
        project: the dbt project (and package) name.
        database: the database every relation lives in.

    Returns:
        The paths written and the counts of nodes and model columns.
    """
    if n_models < 1:
        raise ValueError("n_models must be at least 1")
    rng = random.Random(seed)
    n_sources = max(1, round(n_models * 0.3 * 0.8))
    sources = plan_sources(rng, project, n_sources)
    models = plan_models(rng, project, n_models, sources)
    by_id: dict[str, SourceSpec | ModelSpec] = {s.unique_id: s for s in sources}

    nodes: dict[str, dict] = {}
    for index, spec in enumerate(models):
        ups = [by_id[uid] for uid in spec.upstream_ids]
        upstreams = [Upstream(f"__UPSTREAM_{i}__", u.name, u.columns) for i, u in enumerate(ups)]
        model_sql = build_model_sql(rng, spec.layer, upstreams, f"{singular(spec.entity)}_id")
        spec.columns = model_sql.columns
        by_id[spec.unique_id] = spec
        compiled, raw = model_sql.sql, _config_header(spec.materialized) + model_sql.sql
        refs, src_refs = [], []
        for i, up in enumerate(ups):
            placeholder = f"__UPSTREAM_{i}__"
            if isinstance(up, SourceSpec):
                rel = artifacts.relation_name(database, up.source_name, up.name)
                jinja = f"{{{{ source('{up.source_name}', '{up.name}') }}}}"
                src_refs.append((up.source_name, up.name))
            else:
                rel = artifacts.relation_name(database, "main", up.name)
                jinja = f"{{{{ ref('{up.name}') }}}}"
                refs.append(up.name)
            compiled = compiled.replace(placeholder, rel)
            raw = raw.replace(placeholder, jinja)
        nodes[spec.unique_id] = artifacts.model_node(
            spec, project, database, raw, compiled, refs, src_refs, index
        )

    source_nodes = {
        s.unique_id: artifacts.source_node(s, project, database, i) for i, s in enumerate(sources)
    }
    exposures = _exposures(rng, project, models)
    invocation_id = str(uuid.UUID(int=rng.getrandbits(128), version=4))
    target = Path(out_dir) / "target"
    target.mkdir(parents=True, exist_ok=True)
    _write_project_file(Path(out_dir), project)
    manifest_path = target / "manifest.json"
    _dump(artifacts.manifest(project, invocation_id, nodes, source_nodes, exposures), manifest_path)

    catalog_path = target / "catalog.json"
    if with_catalog:
        cat_nodes = {
            m.unique_id: artifacts.catalog_entry(
                m.unique_id,
                database,
                "main",
                m.name,
                "VIEW" if m.materialized == "view" else "BASE TABLE",
                m.columns,
            )
            for m in models
        }
        cat_sources = {
            s.unique_id: artifacts.catalog_entry(
                s.unique_id, database, s.source_name, s.name, "BASE TABLE", s.columns
            )
            for s in sources
        }
        _dump(artifacts.catalog(invocation_id, cat_nodes, cat_sources), catalog_path)
    elif catalog_path.exists():
        catalog_path.unlink()

    return ProjectSummary(
        manifest_path=manifest_path,
        catalog_path=catalog_path if with_catalog else None,
        models=len(models),
        sources=len(sources),
        exposures=len(exposures),
        columns=sum(len(m.columns) for m in models),
    )


def _config_header(materialized: str) -> str:
    return f"{{{{ config(materialized='{materialized}') }}}}\n\n"


def _exposures(rng: random.Random, project: str, models: list[ModelSpec]) -> dict[str, dict]:
    """One exposure per ~200 models, each on 1 to 4 marts (any model when there are none)."""
    marts = [m for m in models if m.layer == "marts"] or models
    out = {}
    for i in range(max(1, round(len(models) / MODELS_PER_EXPOSURE))):
        kind = EXPOSURE_KINDS[i % len(EXPOSURE_KINDS)]
        deps = rng.sample(marts, min(len(marts), rng.randint(1, 4)))
        node = artifacts.exposure_node(project, f"{kind}_{i}", kind, deps, i)
        out[node["unique_id"]] = node
    return out


def _write_project_file(out_dir: Path, project: str) -> None:
    text = (
        f"name: {project}\nversion: '1.0.0'\nconfig-version: 2\nprofile: {project}\n"
        "model-paths: ['models']\ntarget-path: target\n"
    )
    (out_dir / "dbt_project.yml").write_text(text, encoding="utf-8")


def _dump(data: dict, path: Path) -> None:
    path.write_text(json.dumps(data), encoding="utf-8")
