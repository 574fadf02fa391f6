"""The column types of a side's relations, inferred from their SQL (``sql.column_types``)
with the types of what each reads: from the side's catalog for a relation whose SQL is not
in question, else inferred from that relation's own SQL in turn, in dependency order.
"""

from __future__ import annotations

import typing as t

from dbt_lineage.errors import SqlError
from dbt_lineage.queries.diff_side import DiffSide
from dbt_lineage.sql.column_types import column_types
from dbt_lineage.sql.normal_form import normal_form


def inferred_types(
    side: DiffSide, nodes: t.Iterable[str], *, from_sql: t.Collection[str] = ()
) -> dict[str, dict[str, str | None]]:
    """Column name (folded) -> type text or None (not inferred), for each of ``nodes``.

    Args:
        side: the side whose SQL and catalog to read.
        nodes: the relations whose columns to type (by their SQL; a seed or source, which
            has none, by the catalog).
        from_sql: relations whose catalog types are not to be trusted (the catalog of a
            head describes the warehouse before the pull request): typed by their SQL when
            a node reads them.
    """
    types = _Types(side, set(from_sql))
    return {node_id: types.of(node_id) for node_id in nodes}


class _Types:
    """Each relation's column types (folded names), inferred once."""

    def __init__(self, side: DiffSide, from_sql: set[str]) -> None:
        self.side = side
        self.from_sql = from_sql
        self.done: dict[str, dict[str, str | None]] = {}

    def of(self, node_id: str) -> dict[str, str | None]:
        if node_id not in self.done:
            self.done[node_id] = {}  # a relation that reads itself: nothing known
            self.done[node_id] = self._infer(node_id)
        return self.done[node_id]

    def _infer(self, node_id: str) -> dict[str, str | None]:
        facts = self.side.nodes.get(node_id)
        if facts is None or not facts.sql:
            return self._catalog(node_id)
        try:
            tree = normal_form(
                facts.sql, self.side.dialect, self.side.relations(self.side.reads(node_id))
            )
            schema = {relation: self._read(relation) for relation in tree.relations}
            found = column_types(tree, schema)
        except SqlError:
            return {}
        return {name.casefold(): data_type for name, data_type in found.items()}

    def _catalog(self, node_id: str) -> dict[str, str | None]:
        return {
            name.casefold(): data_type or None
            for name, data_type in self.side.catalog.get(node_id, {}).items()
        }

    def _read(self, relation: str) -> dict[str, str]:
        """A relation's columns as the query reads them, with their types where known."""
        if relation not in self.from_sql and relation in self.side.catalog:
            known = self._catalog(relation)
        else:
            known = self.of(relation)
        names = [column.column for column in self.side.graph.columns_of(relation)]
        names = names or list(self.side.catalog.get(relation, {})) or list(known)
        return {name: known.get(name.casefold()) or "" for name in names}
