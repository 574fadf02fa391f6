"""The columns dbt adds to a snapshot, derived from the snapshot's configuration.

dbt hashes the ``unique_key`` and the version (``updated_at``) into ``dbt_scd_id``; it copies
the version into ``dbt_updated_at`` and ``dbt_valid_from``, and takes the next version's as
``dbt_valid_to``. With the ``check`` strategy the version is the time the snapshot saw the
check columns change: those columns (every column for ``check_cols='all'``), plus
``updated_at`` when it is set. Each added column derives (transform) from the upstreams of the
snapshot's own columns that its config names; ``dbt_is_deleted`` from none. A named column
the snapshot's SQL leaves unresolved makes the added column unresolved, never silently short.

dbt reads the config columns by name from the snapshot's query, so a config column its
``SELECT *`` over a relation of unknown columns passes through is inferred like any column a
reader reads (docs/commands/build.md, point 4): the snapshot and that relation get it, and the
added columns derive from the relation's column; over two such relations it is
``ambiguous_star``.
"""

from __future__ import annotations

import re
import typing as t

from dbt_lineage.errors import SqlError
from dbt_lineage.resolve.node_lineage import (
    ColumnLineage,
    NodeLineage,
    SnapshotConfig,
    UpstreamEdge,
)
from dbt_lineage.sql.enclosing_calls import enclosing_calls
from dbt_lineage.types import ColumnRef, EdgeKind, UnresolvedReason

if t.TYPE_CHECKING:
    from dbt_lineage.artifacts.manifest import ManifestNode

ADDED = ("dbt_scd_id", "dbt_updated_at", "dbt_valid_from", "dbt_valid_to", "dbt_is_deleted")
"""Columns dbt adds to a snapshot (``dbt_is_deleted`` with ``hard_deletes='new_record'``)."""

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_$]*")
_UPPER = ("snowflake", "oracle")


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
    result: NodeLineage,
    snapshot: SnapshotConfig | None,
    dialect: str,
    declared: dict[str, str],
    star: str = "",
) -> None:
    """Add the columns dbt adds to a snapshot to ``result``, each with its upstreams.

    ``star`` is the reason of a star over columns unknown that the snapshot's SQL keeps (its
    ``*``): a config column missing from the snapshot then comes through it, and the added
    column shares that reason (one diagnostic for both).

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
    upper = dialect in _UPPER
    read = _Reader(result, own, dialect)
    version: list[str] = []
    key: list[str] = []
    # check_cols='all' hashes every column, and the star's are unknown: never silently short
    every = snapshot is not None and snapshot.strategy == "check" and snapshot.check_cols is None
    if snapshot is not None:
        key = list(snapshot.unique_key)
        updated = [snapshot.updated_at] if snapshot.updated_at else []
        if snapshot.strategy == "check":
            added = set(ADDED) | {name.casefold() for name in renamed.values()}
            checked = (
                [column.name for name, column in own.items() if name not in added]
                if snapshot.check_cols is None
                else list(snapshot.check_cols)
            )
            version = checked + updated
        else:
            version = updated
    sources = {
        "dbt_scd_id": key + version,
        "dbt_updated_at": version,
        "dbt_valid_from": version,
        "dbt_valid_to": version,
        "dbt_is_deleted": [],
    }
    for added, names in sources.items():
        wanted = renamed.get(added, added).casefold()
        if wanted in own or (added == "dbt_is_deleted" and wanted not in declared_names):
            continue  # the snapshot's SQL outputs it itself; or dbt does not add it
        name = declared_names.get(wanted) or renamed.get(added, added)
        name = name.upper() if upper and wanted not in declared_names else name
        edges, missing = read(names)
        if every and star and added != "dbt_is_deleted":
            missing.append("*")
        reason = ""
        if missing and read.ambiguous:
            reason = (
                f"{UnresolvedReason.AMBIGUOUS_STAR.value}: the snapshot config names "
                f"{', '.join(read.ambiguous)}, which could come from "
                f"{', '.join(result.star_sources)}"
            )
        elif missing and star:
            reason = star
        elif missing:
            reason = (
                f"{UnresolvedReason.UNKNOWN_COLUMN.value}: the snapshot config names "
                f"{', '.join(missing)}, which its SQL does not resolve"
            )
        result.columns[name] = ColumnLineage(name, declared.get(name, ""), edges, reason)


class _Reader:
    """The upstreams of the snapshot's columns that config entries name."""

    def __init__(self, result: NodeLineage, own: dict[str, ColumnLineage], dialect: str) -> None:
        self.result = result
        self.own = own
        self.dialect = dialect
        self.upper = dialect in _UPPER
        self.ambiguous: list[str] = []

    def __call__(self, expressions: list[str]) -> tuple[list[UpstreamEdge], list[str]]:
        """Edges (as transforms) and the names that no column of the snapshot resolves.

        An entry is a column or an expression (``id || '-' || region``), whose column
        references are read (an expression that does not parse is reported, not guessed at).
        A column the snapshot does not list passes through its ``SELECT *`` over a relation
        of unknown columns, which holds it.
        """
        edges: dict[ColumnRef, UpstreamEdge] = {}
        missing: list[str] = []
        self.ambiguous = []
        for expression in expressions:
            for word in self._columns(expression, missing):
                column = self.own.get(word.casefold())
                if column is not None:
                    if column.reason and not column.upstreams:
                        missing.append(word)
                    for edge in column.upstreams:
                        _add(edges, edge)
                elif self.result.star_sources:
                    self._through_star(word, edges, missing)
                else:
                    missing.append(word)
        return list(edges.values()), missing

    def _columns(self, expression: str, missing: list[str]) -> list[str]:
        if _WORD.fullmatch(expression):
            return [expression]
        try:
            return list(
                dict.fromkeys(use.column for use in enclosing_calls(expression, self.dialect))
            )
        except SqlError:
            missing.append(expression)
            return []

    def _through_star(
        self, word: str, edges: dict[ColumnRef, UpstreamEdge], missing: list[str]
    ) -> None:
        """A config column the snapshot's ``SELECT *`` outputs: read by dbt, like any reader.

        The snapshot gets it (``inferred_columns`` adds it, identity through the star) and so
        does the one relation the star is over; over several it stays ``ambiguous_star``.
        """
        result = self.result
        name = word.upper() if self.upper else word
        result.inferred.setdefault(result.node_id, {})[name] = ""
        if len(result.star_sources) > 1:
            missing.append(word)
            self.ambiguous.append(word)
            return
        source = result.star_sources[0]
        _add(edges, UpstreamEdge(ColumnRef(source, name), EdgeKind.IDENTITY, "*"))
        result.inferred.setdefault(source, {})[name] = ""


def _add(edges: dict[ColumnRef, UpstreamEdge], edge: UpstreamEdge) -> None:
    if edge.upstream not in edges:
        kind = EdgeKind.by_rank(max(edge.kind.rank, EdgeKind.TRANSFORM.rank))
        edges[edge.upstream] = UpstreamEdge(edge.upstream, kind, edge.expression)
