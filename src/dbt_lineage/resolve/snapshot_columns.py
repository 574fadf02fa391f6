"""The columns dbt adds to a snapshot, derived from the snapshot's configuration.

dbt hashes the ``unique_key`` and the version (``updated_at``) into ``dbt_scd_id``; it copies
the version into ``dbt_updated_at`` and ``dbt_valid_from``, and takes the next version's as
``dbt_valid_to``. With the ``check`` strategy the version is the time the snapshot saw the
check columns change: those columns (every column for ``check_cols='all'``), plus
``updated_at`` when it is set. Each added column derives (transform) from the upstreams of the
snapshot's own columns that its config names; ``dbt_is_deleted`` from none.
"""

from __future__ import annotations

import re
import typing as t

from dbt_lineage.resolve.node_lineage import (
    ColumnLineage,
    NodeLineage,
    SnapshotConfig,
    UpstreamEdge,
)
from dbt_lineage.types import EdgeKind

if t.TYPE_CHECKING:
    from dbt_lineage.artifacts.manifest import ManifestNode

ADDED = ("dbt_scd_id", "dbt_updated_at", "dbt_valid_from", "dbt_valid_to", "dbt_is_deleted")
"""Columns dbt adds to a snapshot (``dbt_is_deleted`` with ``hard_deletes='new_record'``)."""

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_$]*")


def snapshot_config(node: ManifestNode) -> SnapshotConfig:
    """The parts of a snapshot node's config its added columns derive from."""
    config = node.config
    key = config.unique_key
    keys = tuple(key) if isinstance(key, list) else (key,) if key else ()
    check = config.check_cols
    check_cols = None if check == "all" else tuple(check) if isinstance(check, list) else ()
    if isinstance(check, str) and check != "all":
        check_cols = (check,)
    renamed = tuple(
        (added, name)
        for added, name in sorted((config.snapshot_meta_column_names or {}).items())
        if name and added in ADDED
    )
    return SnapshotConfig(
        keys, (config.strategy or "").lower(), config.updated_at or "", check_cols, renamed
    )


def snapshot_columns(
    result: NodeLineage, snapshot: SnapshotConfig | None, dialect: str, declared: dict[str, str]
) -> None:
    """Add the columns dbt adds to a snapshot to ``result``, each with its upstreams.

    >>> from dbt_lineage.types import ColumnRef
    >>> result = NodeLineage("snapshot.p.s")
    >>> for name in ("id", "ts"):
    ...     edge = UpstreamEdge(ColumnRef("source.p.raw", name), EdgeKind.IDENTITY)
    ...     result.columns[name] = ColumnLineage(name, upstreams=[edge])
    >>> snapshot_columns(result, SnapshotConfig(("id",), "timestamp", "ts", ()), "duckdb", {})
    >>> sorted(e.upstream.column for e in result.columns["dbt_scd_id"].upstreams)
    ['id', 'ts']
    >>> [e.kind.value for e in result.columns["dbt_valid_to"].upstreams]
    ['transform']
    """
    own = {name.casefold(): column for name, column in result.columns.items()}
    declared_names = {name.casefold(): name for name in declared}
    renamed = dict(snapshot.meta_names) if snapshot is not None else {}
    upper = dialect in ("snowflake", "oracle")
    version: list[ColumnLineage] = []
    key: list[ColumnLineage] = []
    if snapshot is not None:
        key = _named(own, snapshot.unique_key)
        if snapshot.strategy == "check":
            added = set(ADDED) | {name.casefold() for name in renamed.values()}
            checked = (
                [column for name, column in own.items() if name not in added]
                if snapshot.check_cols is None
                else _named(own, snapshot.check_cols)
            )
            version = checked + _named(own, (snapshot.updated_at,) if snapshot.updated_at else ())
        else:
            version = _named(own, (snapshot.updated_at,) if snapshot.updated_at else ())
    sources = {
        "dbt_scd_id": key + version,
        "dbt_updated_at": version,
        "dbt_valid_from": version,
        "dbt_valid_to": version,
        "dbt_is_deleted": [],
    }
    for added, read in sources.items():
        wanted = renamed.get(added, added).casefold()
        if wanted in own or (added == "dbt_is_deleted" and wanted not in declared_names):
            continue  # the snapshot's SQL outputs it itself; or dbt does not add it
        name = declared_names.get(wanted) or renamed.get(added, added)
        name = name.upper() if upper and wanted not in declared_names else name
        result.columns[name] = ColumnLineage(name, declared.get(name, ""), _transforms(read))


def _named(own: dict[str, ColumnLineage], expressions: t.Iterable[str]) -> list[ColumnLineage]:
    """The snapshot's columns that key expressions name (``id``, ``id || '-' || region``)."""
    found: dict[str, ColumnLineage] = {}
    for expression in expressions:
        for word in _WORD.findall(expression):
            column = own.get(word.casefold())
            if column is not None:
                found[column.name] = column
    return list(found.values())


def _transforms(columns: list[ColumnLineage]) -> list[UpstreamEdge]:
    edges: dict[t.Any, UpstreamEdge] = {}
    for column in columns:
        for edge in column.upstreams:
            if edge.upstream not in edges:
                kind = EdgeKind.by_rank(max(edge.kind.rank, EdgeKind.TRANSFORM.rank))
                edges[edge.upstream] = UpstreamEdge(edge.upstream, kind, edge.expression)
    return list(edges.values())
