"""What each node is resolved with: the columns its upstream relations offer, and the cache key.

A relation's columns come from, in order: ``catalog.json`` (the warehouse's names, which may
be older than the SQL: a column the SQL reads that the catalog lacks is then inferred, not
an error); a seed's CSV header; the output columns resolved from a model's own SQL
(complete when every one resolved and no star over unknown columns is left); YAML
``columns:`` (often only the documented ones, so incomplete). See ADR 0001.
"""

from __future__ import annotations

import typing as t

from dbt_lineage.artifacts.manifest import ManifestNode
from dbt_lineage.resolve.cache import cache_key, placeholders
from dbt_lineage.resolve.declared_columns import DeclaredColumns
from dbt_lineage.resolve.node_lineage import NodeInputs, NodeLineage, SqlNode
from dbt_lineage.resolve.relations import schema_name
from dbt_lineage.resolve.snapshot_columns import snapshot_config

SQL_TYPES = ("model", "snapshot")
"""Resource types whose columns come from their own SQL."""


class Prepared(t.NamedTuple):
    """A node ready to resolve: the parts a worker needs, its inputs, and its cache key."""

    node: SqlNode
    inputs: NodeInputs
    key: str
    marks: dict[str, str]
    """The full name of each relation its SQL may name, and the mark that stands for it in
    the key and in the cached result."""


class KnownColumns:
    """The columns each relation offers its readers, and how far to trust each list.

    ``partial`` lists may be only some of the columns (YAML; SQL that left a star over
    unknown columns or a column unresolved): stars over them stay unexpanded. ``lenient``
    lists come from a catalog, which may be older than the SQL. A column the SQL reads that
    a partial or lenient list lacks is inferred, not unknown.
    """

    def __init__(self, declared: dict[str, DeclaredColumns | None]) -> None:
        self.declared = declared
        self.known: dict[str, dict[str, str]] = {}
        self.partial: set[str] = set()
        self.lenient: set[str] = set()
        self._texts: dict[int, tuple[dict[str, str], str]] = {}
        """Column lists' ``repr`` by ``id`` (each kept, so that no id is reused): a wide
        relation read by many models is written out for the cache key once."""
        for node_id, own in declared.items():
            if own is not None and own.complete:
                self.known[node_id] = own.columns  # known before the node is resolved
                if own.origin == "catalog":
                    self.lenient.add(node_id)

    def learn(self, node: ManifestNode, result: NodeLineage) -> None:
        """Record what a resolved node offers its readers."""
        node_id = node.unique_id
        own = self.declared.get(node_id)
        if node.resource_type not in SQL_TYPES:
            if own is not None:
                self.known[node_id] = own.columns
                if own.origin == "yaml":
                    self.partial.add(node_id)
            return
        outputs = {name: column.data_type for name, column in result.columns.items()}
        complete = (
            bool(outputs)
            and not result.star_sources
            and not any(column.reason for column in result.columns.values())
        )
        catalog = own is not None and own.origin == "catalog"
        folded = {name.casefold() for name in outputs}
        if not catalog and len(folded) == len(outputs):
            merged = outputs  # no two names equal ignoring case: each is kept as it is
        else:
            merged = dict(own.columns) if catalog and own is not None else {}
            folded = {name.casefold() for name in merged}
            for name, data_type in outputs.items():
                if name.casefold() not in folded:
                    merged[name] = data_type
                    folded.add(name.casefold())
        if own is not None and own.origin == "yaml" and not complete:
            for name, data_type in own.columns.items():
                if name.casefold() not in folded:
                    merged[name] = data_type
                    folded.add(name.casefold())
        if merged:
            self.known[node_id] = merged
        if complete or catalog:
            self.partial.discard(node_id)
        else:
            self.partial.add(node_id)

    def prepare(
        self, node: ManifestNode, relations: dict[str, ManifestNode], dialect: str
    ) -> Prepared:
        """The inputs a node is resolved with, and the cache key they make."""
        own = self.declared.get(node.unique_id)
        own_columns = own.columns if own is not None else {}
        complete_own = own is not None and own.origin == "catalog"
        upstream_ids = [p for p in dict.fromkeys(node.depends_on.nodes) if p in relations]
        if complete_own:
            upstream_ids.append(node.unique_id)  # incremental models read `{{ this }}`
        schema: dict[str, dict[str, str]] = {}
        partial_names: set[str] = set()
        lenient_names: set[str] = set()
        identity: list[str] = []
        for upstream_id in sorted(set(upstream_ids)):
            if upstream_id == node.unique_id:
                columns: dict[str, str] | None = own_columns
            else:
                columns = self.known.get(upstream_id)
            name = schema_name(relations[upstream_id])
            partial = upstream_id in self.partial
            lenient = upstream_id in self.lenient or upstream_id == node.unique_id
            text = self._text(columns)
            identity.append(f"[{upstream_id!r}, {text}, {partial!r}, {lenient!r}]")
            if columns:
                schema[name] = columns
                if partial:
                    partial_names.add(name)
                elif lenient:
                    lenient_names.add(name)
        sql = node.compiled_code
        snapshot = snapshot_config(node) if node.resource_type == "snapshot" else None
        upstream = (
            f"[[{', '.join(identity)}], {self._text(own_columns)}, {complete_own!r}, {snapshot!r}]"
        )
        marks = _inlined(node, relations)
        key = cache_key(node.unique_id, dialect, placeholders(sql or "", marks), upstream)
        inputs = NodeInputs(
            dialect,
            schema,
            frozenset(partial_names),
            None,
            own_columns,
            frozenset(upstream_ids),
            complete_own,
            frozenset(lenient_names),
            snapshot,
        )
        sql_node = SqlNode(node.unique_id, node.resource_type, node.original_file_path, sql)
        return Prepared(sql_node, inputs, key, marks)

    def _text(self, columns: dict[str, str] | None) -> str:
        """``repr(columns)``, made once per list."""
        if not columns:
            return repr(columns)
        kept = self._texts.get(id(columns))
        if kept is None:
            kept = self._texts[id(columns)] = (columns, repr(columns))
        return kept[1]


def _inlined(node: ManifestNode, relations: dict[str, ManifestNode]) -> dict[str, str]:
    """The full name of each relation ``node``'s compiled SQL may name (itself, what it
    reads, and what the ephemeral models it inlines read), and the mark the cache key puts
    in its place: its unique id and the last part of its name, all that its result shows
    (edges name nodes by id; column qualifiers name a relation by that last part, and an
    expression that holds a subquery names it in full: the cache swaps those for the marks,
    :func:`~dbt_lineage.resolve.cache.placeholders`)."""
    marks: dict[str, str] = {}
    todo = [node.unique_id]
    while todo:
        current = relations.get(todo.pop())
        if current is None:
            continue
        name = schema_name(current)
        if name in marks:
            continue
        marks[name] = f"\x00{current.unique_id}\x00{_own_name(current)}\x00"
        if current is node or current.is_ephemeral:
            todo += current.depends_on.nodes
    return marks


def _own_name(node: ManifestNode) -> str:
    return node.alias or node.identifier or node.name
