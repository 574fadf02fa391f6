"""dbt artifacts as dbt 1.11 on DuckDB writes them: manifest v12 and catalog v1 dictionaries.

Only the shape matters here; the fields follow a real ``dbt build`` / ``dbt docs generate``
of a small DuckDB project, including the ones lineage tools read (``relation_name``,
``compiled_code``, ``depends_on``, ``columns``, ``config.materialized``) and the ones they
should ignore.
"""

from __future__ import annotations

import hashlib
import typing as t

from .columns import PII_NAMES, Col
from .dag import ModelSpec, SourceSpec

MANIFEST_SCHEMA = "https://schemas.getdbt.com/dbt/manifest/v12.json"
CATALOG_SCHEMA = "https://schemas.getdbt.com/dbt/catalog/v1.json"
DBT_VERSION = "1.11.16"
GENERATED_AT = "2026-01-01T00:00:00.000000Z"
CREATED_AT = 1767225600.0

Json = dict[str, t.Any]


def relation_name(database: str, schema: str, identifier: str) -> str:
    """The quoted three-part name dbt-duckdb compiles a relation to."""
    return f'"{database}"."{schema}"."{identifier}"'


def _column(col: Col, entity: str) -> Json:
    pii = any(p in col.name for p in PII_NAMES)
    meta = {"pii": True} if pii else {}
    tags = ["pii"] if pii else []
    return {
        "name": col.name,
        "description": f"The {col.name.replace('_', ' ')} of the {entity}.",
        "meta": meta,
        "data_type": col.type.lower(),
        "constraints": [],
        "quote": None,
        "config": {"meta": meta, "tags": tags},
        "tags": tags,
        "granularity": None,
        "doc_blocks": [],
    }


def _config(materialized: str) -> Json:
    return {
        "enabled": True,
        "alias": None,
        "schema": None,
        "database": None,
        "tags": [],
        "meta": {},
        "group": None,
        "materialized": materialized,
        "incremental_strategy": None,
        "persist_docs": {},
        "post-hook": [],
        "pre-hook": [],
        "quoting": {},
        "column_types": {},
        "full_refresh": None,
        "unique_key": None,
        "on_schema_change": "ignore",
        "on_configuration_change": "apply",
        "grants": {},
        "packages": [],
        "docs": {"show": True, "node_color": None},
        "contract": {"enforced": False, "alias_types": True},
        "access": "protected",
    }


def model_node(
    spec: ModelSpec,
    project: str,
    database: str,
    raw: str,
    compiled: str,
    refs: list[str],
    sources: list[tuple[str, str]],
    index: int,
) -> Json:
    """The manifest entry of one model."""
    folder = spec.layer
    path = f"{folder}/{spec.name}.sql"
    columns = {c.name: _column(c, spec.entity) for c in spec.columns} if spec.declared else {}
    return {
        "database": database,
        "schema": "main",
        "name": spec.name,
        "resource_type": "model",
        "package_name": project,
        "path": path,
        "original_file_path": f"models/{path}",
        "unique_id": spec.unique_id,
        "fqn": [project, folder, spec.name],
        "alias": spec.name,
        "checksum": {"name": "sha256", "checksum": hashlib.sha256(raw.encode()).hexdigest()},
        "config": _config(spec.materialized),
        "tags": [spec.layer],
        "description": f"{spec.layer.capitalize()} model of {spec.entity}.",
        "columns": columns,
        "meta": {"owner": f"team-{spec.entity}"},
        "group": None,
        "docs": {"show": True, "node_color": None},
        "patch_path": f"{project}://models/{folder}/_{folder}.yml" if spec.declared else None,
        "build_path": None,
        "unrendered_config": {"materialized": spec.materialized},
        "created_at": CREATED_AT + index,
        "relation_name": relation_name(database, "main", spec.name),
        "raw_code": raw,
        "doc_blocks": [],
        "language": "sql",
        "refs": [{"name": r, "package": None, "version": None} for r in refs],
        "sources": [list(s) for s in sources],
        "metrics": [],
        "functions": [],
        "depends_on": {"macros": [], "nodes": list(spec.upstream_ids)},
        "compiled_path": f"target/compiled/{project}/models/{path}",
        "compiled": True,
        "compiled_code": compiled,
        "extra_ctes_injected": True,
        "extra_ctes": [],
        "contract": {"enforced": False, "alias_types": True, "checksum": None},
        "access": "protected",
        "constraints": [],
        "version": None,
        "latest_version": None,
        "deprecation_date": None,
        "primary_key": [spec.columns[0].name],
        "time_spine": None,
    }


def source_node(spec: SourceSpec, project: str, database: str, index: int) -> Json:
    """The manifest entry of one source table."""
    path = f"models/staging/_{spec.source_name}__sources.yml"
    freshness = {
        "warn_after": {"count": None, "period": None},
        "error_after": {"count": None, "period": None},
        "filter": None,
    }
    columns = {c.name: _column(c, spec.entity) for c in spec.columns} if spec.declared else {}
    return {
        "database": database,
        "schema": spec.source_name,
        "name": spec.name,
        "resource_type": "source",
        "package_name": project,
        "path": path,
        "original_file_path": path,
        "unique_id": spec.unique_id,
        "fqn": [project, "staging", spec.source_name, spec.name],
        "source_name": spec.source_name,
        "source_description": f"Raw {spec.source_name} data.",
        "loader": "",
        "identifier": spec.name,
        "quoting": {"database": None, "schema": None, "identifier": None, "column": None},
        "loaded_at_field": None,
        "loaded_at_query": None,
        "freshness": freshness,
        "external": None,
        "description": f"Raw {spec.entity} from {spec.source_name}.",
        "columns": columns,
        "meta": {},
        "source_meta": {},
        "tags": [],
        "config": {
            "enabled": True,
            "event_time": None,
            "freshness": freshness,
            "loaded_at_field": None,
            "loaded_at_query": None,
            "meta": {},
            "tags": [],
        },
        "patch_path": None,
        "unrendered_config": {},
        "relation_name": relation_name(database, spec.source_name, spec.name),
        "created_at": CREATED_AT + index,
        "unrendered_database": None,
        "unrendered_schema": spec.source_name,
        "doc_blocks": [],
    }


def exposure_node(
    project: str, name: str, kind: str, depends_on: list[ModelSpec], index: int
) -> Json:
    """The manifest entry of one exposure (a dashboard, ML model or application)."""
    return {
        "name": name,
        "resource_type": "exposure",
        "package_name": project,
        "path": "marts/_exposures.yml",
        "original_file_path": "models/marts/_exposures.yml",
        "unique_id": f"exposure.{project}.{name}",
        "fqn": [project, "marts", name],
        "type": kind,
        "owner": {"email": "analytics@example.com", "name": "Analytics"},
        "description": f"{kind.capitalize()} fed by {len(depends_on)} marts.",
        "label": name.replace("_", " ").title(),
        "maturity": "high",
        "meta": {},
        "tags": [],
        "config": {"enabled": True, "tags": [], "meta": {}},
        "unrendered_config": {},
        "url": f"https://bi.example.com/{name}",
        "depends_on": {"macros": [], "nodes": [m.unique_id for m in depends_on]},
        "refs": [{"name": m.name, "package": None, "version": None} for m in depends_on],
        "sources": [],
        "metrics": [],
        "created_at": CREATED_AT + index,
    }


def manifest(project: str, invocation_id: str, nodes: Json, sources: Json, exposures: Json) -> Json:
    """The whole manifest, with ``parent_map`` and ``child_map`` derived from ``depends_on``."""
    parent_map: dict[str, list[str]] = {}
    child_map: dict[str, list[str]] = {}
    for uid in (*nodes, *sources, *exposures):
        parent_map[uid] = []
        child_map[uid] = []
    for group in (nodes, exposures):
        for uid, node in group.items():
            for parent in node["depends_on"]["nodes"]:
                parent_map[uid].append(parent)
                child_map[parent].append(uid)
    return {
        "metadata": {
            "dbt_schema_version": MANIFEST_SCHEMA,
            "dbt_version": DBT_VERSION,
            "generated_at": GENERATED_AT,
            "invocation_id": invocation_id,
            "invocation_started_at": GENERATED_AT,
            "env": {},
            "project_name": project,
            "project_id": hashlib.md5(project.encode()).hexdigest(),
            "user_id": None,
            "send_anonymous_usage_stats": False,
            "adapter_type": "duckdb",
            "quoting": {"database": True, "schema": True, "identifier": True, "column": None},
        },
        "nodes": nodes,
        "sources": sources,
        "macros": {},
        "docs": {},
        "exposures": exposures,
        "metrics": {},
        "groups": {},
        "selectors": {},
        "disabled": {},
        "parent_map": {k: sorted(v) for k, v in parent_map.items()},
        "child_map": {k: sorted(v) for k, v in child_map.items()},
        "group_map": {},
        "saved_queries": {},
        "semantic_models": {},
        "unit_tests": {},
        "functions": {},
    }


def catalog_entry(
    uid: str, database: str, schema: str, name: str, kind: str, columns: list[Col]
) -> Json:
    """One catalog entry, columns indexed from 1 as DuckDB's information schema has them."""
    return {
        "metadata": {
            "type": kind,
            "schema": schema,
            "name": name,
            "database": database,
            "comment": None,
            "owner": None,
        },
        "columns": {
            c.name: {"type": c.type, "index": i, "name": c.name, "comment": None}
            for i, c in enumerate(columns, 1)
        },
        "stats": {
            "has_stats": {
                "id": "has_stats",
                "label": "Has Stats?",
                "value": False,
                "include": False,
                "description": "Indicates whether there are statistics for this table",
            }
        },
        "unique_id": uid,
    }


def catalog(invocation_id: str, nodes: Json, sources: Json) -> Json:
    """The whole catalog."""
    return {
        "metadata": {
            "dbt_schema_version": CATALOG_SCHEMA,
            "dbt_version": DBT_VERSION,
            "generated_at": GENERATED_AT,
            "invocation_id": invocation_id,
            "invocation_started_at": GENERATED_AT,
            "env": {},
        },
        "nodes": nodes,
        "sources": sources,
        "errors": None,
    }
