"""Map relation names, as compiled SQL writes them, back to dbt node ids."""

from __future__ import annotations

import typing as t

from sqlglot import exp
from sqlglot.errors import ParseError
from sqlglot.optimizer.normalize_identifiers import normalize_identifiers

from dbt_lineage.artifacts.manifest import ManifestNode

EPHEMERAL_PREFIX = "__dbt__cte__"
"""dbt inlines an ephemeral model as a CTE named with this prefix."""

_AMBIGUOUS = ""


class RelationIndex:
    """Looks up a table's name parts (as the engine reports them) and returns its node id.

    Full names and their shorter suffixes (``schema.table``, ``table``) are indexed; a suffix
    shared by two relations is ambiguous and maps to nothing. Lookups fall back to a
    case-folded comparison, since warehouses fold unquoted names differently.
    """

    def __init__(self, dialect: str) -> None:
        self.dialect = dialect
        self._exact: dict[tuple[str, ...], str] = {}
        self._folded: dict[tuple[str, ...], str] = {}

    def add(self, parts: tuple[str, ...], node_id: str) -> None:
        for size in range(1, len(parts) + 1):
            suffix = parts[-size:]
            _put(self._exact, suffix, node_id)
            _put(self._folded, tuple(part.casefold() for part in suffix), node_id)

    def lookup(self, parts: t.Sequence[str]) -> str | None:
        key = tuple(part for part in parts if part)
        found = self._exact.get(key)
        if found is None:
            found = self._folded.get(tuple(part.casefold() for part in key))
        return found or None


def _put(index: dict[tuple[str, ...], str], key: tuple[str, ...], node_id: str) -> None:
    existing = index.get(key)
    index[key] = node_id if existing in (None, node_id) else _AMBIGUOUS


def table_parts(name: str, dialect: str) -> tuple[str, ...]:
    """A relation name's normalized parts, as the engine reports table parts.

    >>> table_parts('"Shop"."main".ORDERS', "duckdb")
    ('Shop', 'main', 'orders')
    """
    try:
        table = exp.to_table(name, dialect=dialect)
    except (ParseError, ValueError):
        return tuple(part.strip('"`[]') for part in name.split("."))
    table = normalize_identifiers(table, dialect=dialect)
    return tuple(part.name for part in table.parts)


def schema_name(node: ManifestNode) -> str:
    """The name the compiled SQL of a node's children uses for it."""
    if node.is_ephemeral:
        return f"{EPHEMERAL_PREFIX}{node.name}"
    if node.relation_name:
        return node.relation_name
    parts = [node.database, node.schema_name, node.alias or node.identifier or node.name]
    return ".".join(part for part in parts if part)


def relation_index(nodes: t.Iterable[ManifestNode], dialect: str) -> RelationIndex:
    """Index every relation node by the parts of the name its children's SQL uses."""
    index = RelationIndex(dialect)
    for node in nodes:
        index.add(table_parts(schema_name(node), dialect), node.unique_id)
    return index
