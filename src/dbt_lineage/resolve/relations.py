"""Map relation names, as compiled SQL writes them, back to dbt node ids."""

from __future__ import annotations

import typing as t

if t.TYPE_CHECKING:
    from dbt_lineage.artifacts.manifest import ManifestNode

EPHEMERAL_PREFIX = "__dbt__cte__"
"""dbt inlines an ephemeral model as a CTE named with this prefix."""


class RelationIndex:
    """Looks up a table's name parts (as the engine reports them) and returns its node id.

    Full names and their shorter suffixes (``schema.table``, ``table``) are indexed. When
    several relations share a name (a seed declared again as a source, or a suffix two
    schemas share), the reading node's own dependencies decide, and a source wins over a
    seed. Lookups fall back to a case-folded comparison, since warehouses fold unquoted
    names differently; not for a qualified name in BigQuery, whose dataset and table names
    are case-sensitive (``ds.MyTable`` and ``ds.mytable`` are two tables).
    """

    def __init__(self, dialect: str) -> None:
        self.dialect = dialect
        self._fold_qualified = dialect != "bigquery"
        self._exact: dict[tuple[str, ...], list[str]] = {}
        self._folded: dict[tuple[str, ...], list[str]] = {}
        self._names: list[tuple[str, str]] = []
        """Relation names (as SQL writes them) and their node ids, split into parts at the
        first lookup: splitting takes the SQL engine, which a build's main process, handing
        the index to workers, then never loads, and the index crosses to each worker as
        these strings rather than as its tables. GitLab: the main process saves 0.14 s
        (loading the engine, splitting, pickling); each worker, which has the engine
        loaded, splits in 0.023 s instead of unpickling the tables in 0.013 s."""

    def add_name(self, name: str, node_id: str) -> None:
        """Index a relation by its name as SQL writes it (split at the first lookup)."""
        self._names.append((name, node_id))

    def _add(self, parts: tuple[str, ...], node_id: str) -> None:
        for size in range(1, len(parts) + 1):
            suffix = parts[-size:]
            _put(self._exact, suffix, node_id)
            _put(self._folded, tuple(part.casefold() for part in suffix), node_id)

    def lookup(self, parts: t.Sequence[str], among: t.Collection[str] = ()) -> str | None:
        """The node id for ``parts``; ``among`` (the reader's dependencies) breaks ties."""
        if self._names:
            self._split_names()
        found = self._exact.get(parts)
        if found is None:
            key = tuple(part for part in parts if part)
            found = self._exact.get(key)
            if not found and (self._fold_qualified or len(key) < 2):
                found = self._folded.get(tuple(p.casefold() for p in key))
            if not found:
                return None
        if len(found) == 1:
            return found[0]
        narrowed = [node_id for node_id in found if node_id in among] or found
        sources = [node_id for node_id in narrowed if node_id.startswith("source.")]
        narrowed = sources or narrowed
        return narrowed[0] if len(narrowed) == 1 else None

    def _split_names(self) -> None:
        from dbt_lineage.sql.names import table_parts  # the SQL engine only when looking up

        names, self._names = self._names, []
        for name, node_id in names:
            self._add(table_parts(name, self.dialect), node_id)


def _put(index: dict[tuple[str, ...], list[str]], key: tuple[str, ...], node_id: str) -> None:
    found = index.setdefault(key, [])
    if node_id not in found:
        found.append(node_id)


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
        index.add_name(schema_name(node), node.unique_id)
    return index
