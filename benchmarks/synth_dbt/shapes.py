"""A synthetic Snowflake project compiled without a warehouse, in the shapes large real
projects have where lineage is hardest (no catalog, raw tables nobody declares):

- **star chains**: a base model per raw table, a chain of 3 to 8 ``SELECT *`` CTEs over the
  table (some filtering on the way) ending in an explicit, wide select list with casts;
- **many-branch unions**: ``UNION ALL`` of 8 to 30 base models, each branch tagging its rows;
- **JSON flattening**: ``LATERAL FLATTEN(INPUT => PARSE_JSON(col))`` over a raw table, with
  ``value:path::type`` reads and the element's ``index``;
- **long CASE chains**: a ``CASE`` of 40 to 250 ``WHEN`` branches bucketing a code, and a
  hash over every column of a base model.

Nothing declares the raw tables' columns and there is no catalog.json: a tool has to infer
them from how the SQL reads them. The same seed gives the same bytes.

With ``adapter`` BigQuery or Databricks (or ``dialect_shapes`` on Snowflake) the project also
has the shapes of :mod:`.dialect_shapes`: arrays of structs unnested, struct stars, PIVOT and
UNPIVOT over CTEs, ``TABLE(FLATTEN)``, unions of different widths; BigQuery and Databricks
projects have no ``LATERAL FLATTEN`` models.
"""

from __future__ import annotations

import json
import random
import typing as t
import uuid
from pathlib import Path

from . import artifacts, dialect_shapes
from .columns import Col
from .dag import ModelSpec, SourceSpec
from .project import ProjectSummary

SYSTEMS = ("ledger", "helpdesk", "events", "hr", "marketing")
FIELDS = (
    "status", "amount", "region", "channel", "owner_id", "plan", "quantity", "currency",
    "created_at", "updated_at", "score", "category", "priority", "country", "is_active",
)  # fmt: skip
SHARED = ("id", "updated_at")
"""Columns every base model ends with, so unions can read them from any of them."""


def generate_shapes_project(
    n_models: int,
    out_dir: str | Path,
    *,
    seed: int = 0,
    project: str = "shapes",
    database: str = "analytics",
    adapter: str = "snowflake",
    dialect_shapes_on: bool | None = None,
) -> ProjectSummary:
    """Write ``target/manifest.json`` (Snowflake, no catalog) of about ``n_models`` models:
    60% base models over raw tables, the rest unions, JSON flattening and CASE chains.

    >>> import tempfile
    >>> summary = generate_shapes_project(20, tempfile.mkdtemp())
    >>> summary.models, summary.sources, summary.catalog_path
    (20, 12, None)
    """
    rng = random.Random(seed)
    n_base = max(2, round(n_models * 0.6))
    sources = [_source(project, i) for i in range(n_base)]
    nodes: dict[str, dict] = {}
    bases: list[ModelSpec] = []
    specs: list[ModelSpec] = []
    for i, source in enumerate(sources):
        spec, sql = _base(rng, project, source, i, adapter)
        bases.append(spec)
        specs.append(spec)
        nodes[spec.unique_id] = _node(spec, project, database, sql, len(nodes))
    makers: list = (
        [_union, _flatten, _case_chain] if adapter == "snowflake" else [_union, _case_chain]
    )
    if dialect_shapes_on or (dialect_shapes_on is None and adapter != "snowflake"):
        makers += [_dialect(maker, adapter) for maker in dialect_shapes.MAKERS[adapter]]
    for i in range(max(0, n_models - n_base)):
        spec, sql = makers[i % len(makers)](rng, project, bases, sources, i, adapter)
        specs.append(spec)
        nodes[spec.unique_id] = _node(spec, project, database, sql, len(nodes))
    source_nodes = {}
    for i, source in enumerate(sources):
        node = artifacts.source_node(source, project, database, i)
        node["relation_name"] = f"{database}.{source.source_name}.{source.name}"
        source_nodes[source.unique_id] = node
    document = artifacts.manifest(
        project, str(uuid.UUID(int=rng.getrandbits(128), version=4)), nodes, source_nodes, {}
    )
    document["metadata"]["adapter_type"] = adapter
    document["metadata"]["quoting"] = {
        "database": False, "schema": False, "identifier": False, "column": None,
    }  # fmt: skip
    target = Path(out_dir) / "target"
    target.mkdir(parents=True, exist_ok=True)
    (target / "catalog.json").unlink(missing_ok=True)
    manifest_path = target / "manifest.json"
    manifest_path.write_text(json.dumps(document), encoding="utf-8")
    return ProjectSummary(
        manifest_path=manifest_path,
        catalog_path=None,
        models=len(specs),
        sources=len(sources),
        exposures=0,
        columns=sum(len(s.columns) for s in specs),
    )


def _source(project: str, index: int) -> SourceSpec:
    system = SYSTEMS[index % len(SYSTEMS)]
    table = f"{system}_feed_{index}"
    return SourceSpec(f"source.{project}.{system}.{table}", system, table, system, [], False)


def _spec(project: str, name: str, layer: str, upstream: list[str], columns: list) -> ModelSpec:
    spec = ModelSpec(f"model.{project}.{name}", name, layer, layer, upstream, "view", False)
    spec.columns = columns
    return spec


def _base(
    rng: random.Random, project: str, source: SourceSpec, index: int, adapter: str
) -> tuple[ModelSpec, str]:
    """A star chain over a raw table, ending in a wide explicit select."""
    chain = ["source"]
    ctes = [f"source as (\n    select * from {_placeholder(source.unique_id)}\n)"]
    for step in range(rng.randint(3, 8)):
        name = f"step_{step}"
        where = f"\n    where {rng.choice(FIELDS)} is not null" if rng.random() < 0.3 else ""
        ctes.append(f"{name} as (\n    select * from {chain[-1]}{where}\n)")
        chain.append(name)
    picked = rng.sample(FIELDS, rng.randint(6, len(FIELDS)))
    items, columns = [], []
    for field in picked:
        if field in SHARED:
            continue
        cast = rng.choice(dialect_shapes.CASTS[adapter]).format(field)
        out = f"{field}_{index}" if rng.random() < 0.3 else field
        items.append(f"{cast} as {out}" if cast != field or out != field else field)
        columns.append(_col(out))
    items += ["id", dialect_shapes.TIMESTAMP[adapter].format("updated_at") + " as updated_at"]
    columns += [_col("id"), _col("updated_at")]
    listed = ",\n        ".join(items)
    ctes.append(f"final as (\n    select\n        {listed}\n    from {chain[-1]}\n)")
    sql = "with " + ",\n".join(ctes) + "\nselect * from final\n"
    name = f"base_{source.name}"
    return _spec(project, name, "base", [source.unique_id], columns), sql


def _union(
    rng: random.Random, project: str, bases: list[ModelSpec], sources: list, index: int, _: str
) -> tuple[ModelSpec, str]:
    """``UNION ALL`` of many base models, each branch naming where its rows come from."""
    branches = rng.sample(bases, min(len(bases), rng.randint(8, 30)))
    selects = [
        f"select id, updated_at, '{b.name}' as origin from {_placeholder(b.unique_id)}"
        for b in branches
    ]
    sql = "\nunion all\n".join(selects) + "\n"
    columns = [_col("id"), _col("updated_at"), _col("origin")]
    name = f"unioned_{index}"
    return _spec(project, name, "union", [b.unique_id for b in branches], columns), sql


def _flatten(
    rng: random.Random, project: str, bases: list, sources: list[SourceSpec], index: int, _: str
) -> tuple[ModelSpec, str]:
    """Rows of a JSON array held as text in a raw table's column, one per element."""
    source = rng.choice(sources)
    keys = rng.sample(("sku", "label", "price", "qty", "kind", "ref"), 4)
    reads = [f"f.value:{key}::varchar as item_{key}" for key in keys]
    sql = (
        "with raw as (\n    select * from "
        + _placeholder(source.unique_id)
        + "\n),\nitems as (\n    select\n        r.id,\n        r.updated_at,\n        "
        + "f.index as item_position,\n        "
        + ",\n        ".join(reads)
        + "\n    from raw as r,\n        lateral flatten(input => parse_json(r.payload)) as f\n)"
        + "\nselect * from items\n"
    )
    columns = [_col("id"), _col("updated_at"), _col("item_position")]
    columns += [_col(f"item_{key}") for key in keys]
    name = f"flattened_{index}"
    return _spec(project, name, "flatten", [source.unique_id], columns), sql


def _case_chain(
    rng: random.Random,
    project: str,
    bases: list[ModelSpec],
    sources: list,
    index: int,
    adapter: str,
) -> tuple[ModelSpec, str]:
    """A long CASE bucketing a code, and a hash over every column of a base model."""
    base = rng.choice(bases)
    code = next((c.name for c in base.columns if c.name not in SHARED), "id")
    whens = [
        f"        when {code} = 'code_{n}' then 'group_{n % 17}'"
        for n in range(rng.randint(40, 250))
    ]
    text = dialect_shapes.CASTS[adapter][0]
    hashed = ", ".join(f"coalesce({text.format(c.name)}, '')" for c in base.columns)
    sql = (
        "select\n    id,\n    case\n"
        + "\n".join(whens)
        + f"\n        else 'other'\n    end as {code}_group,\n"
        + f"    md5(concat({hashed})) as row_hash\n"
        + f"from {_placeholder(base.unique_id)}\n"
    )
    columns = [_col("id"), _col(f"{code}_group"), _col("row_hash")]
    name = f"bucketed_{index}"
    return _spec(project, name, "case", [base.unique_id], columns), sql


def _dialect(maker: dialect_shapes.Maker, adapter: str) -> t.Callable[..., tuple[ModelSpec, str]]:
    """A maker of :mod:`.dialect_shapes` as a maker of this module (its model's spec)."""

    def make(rng: random.Random, project: str, bases: list, sources: list, index: int, _: str):
        name, upstream, sql = maker(rng, adapter, bases, sources, index)
        return _spec(project, name, name.rsplit("_", 1)[0], upstream, [_col("id")]), sql

    return make


def _placeholder(unique_id: str) -> str:
    return f"__REL__{unique_id}__"


def _node(spec: ModelSpec, project: str, database: str, sql: str, index: int) -> dict:
    """The model's manifest entry, its placeholders replaced by relation names and refs."""
    compiled, raw = sql, sql
    refs, sources = [], []
    for upstream in spec.upstream_ids:
        kind, _, rest = upstream.partition(".")
        parts = rest.split(".")
        if kind == "source":
            relation = f"{database}.{parts[1]}.{parts[2]}"
            jinja = f"{{{{ source('{parts[1]}', '{parts[2]}') }}}}"
            sources.append((parts[1], parts[2]))
        else:
            relation = f"{database}.main.{parts[1]}"
            jinja = f"{{{{ ref('{parts[1]}') }}}}"
            refs.append(parts[1])
        compiled = compiled.replace(_placeholder(upstream), relation)
        raw = raw.replace(_placeholder(upstream), jinja)
    node = artifacts.model_node(spec, project, database, raw, compiled, refs, sources, index)
    node["relation_name"] = f"{database}.main.{spec.name}"
    return node


def _col(name: str) -> Col:
    return Col(name, "VARCHAR")
