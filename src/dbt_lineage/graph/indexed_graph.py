"""A ``LineageGraph`` read from the query index beside ``lineage.json``, row by row as walked.

Nothing but the index's meta is read when the graph opens; whether a key is a node, a
relation or exposure, its columns, and the edges into and out of a relation and its
columns, are read from the index the first time a query asks for them, and kept; a bare
name is matched through the index's key on names. Only a query that lists every node (as
``len(graph.nodes)`` does) reads every node id.
Queries see the same graph as one loaded from ``lineage.json``: ``graph.nodes``,
``graph.columns`` and the adjacency of ``graph.digraph()`` (``succ`` and ``pred``, neighbours
in the order lineage.json lists the edges) answer as the loaded graph's do, so ``impact``,
``upstream`` and ``downstream`` cost what they reach, not the size of the project.
``graph.edges`` is left empty: a query that needs every edge loads lineage.json.
"""

from __future__ import annotations

import json
import sqlite3
import typing as t
from pathlib import Path

from dbt_lineage.graph.column_entries import column_entries
from dbt_lineage.graph.index_file import index_file
from dbt_lineage.graph.index_meta import index_meta
from dbt_lineage.graph.model import (
    EMPTY,
    EXPOSURE_FIELDS,
    RELATION_FIELDS,
    ColumnNode,
    EdgeType,
    ExposureNode,
    GraphMetadata,
    LineageEdge,
    LineageGraph,
    LineageNode,
    NodeKey,
    NodeType,
    RelationNode,
)
from dbt_lineage.types import ColumnRef, EdgeKind, Layer

_Neighbours = dict[NodeKey, dict[int, dict[str, LineageEdge]]]


def indexed_graph(
    lineage_path: str | Path, *, meta: dict[str, str] | None = None
) -> LineageGraph | None:
    """The graph of ``lineage_path`` from its index, or None when there is no index, it is
    stale (lineage.json changed since it was written), of another version, or unreadable.
    ``meta`` is the index's ``index_meta``, when the caller has just read it.

    >>> indexed_graph("/nowhere/lineage.json") is None
    True
    """
    meta = meta if meta is not None else index_meta(lineage_path)
    if meta is None:
        return None
    location = index_file(lineage_path).path.resolve().as_uri()
    try:
        # Read-only, and SQLite serialises each connection's calls (Python builds it so):
        # a graph opened in one thread may be asked questions from another.
        connection = sqlite3.connect(f"{location}?mode=ro", uri=True, check_same_thread=False)
    except sqlite3.Error:
        return None
    try:
        return _open(connection, meta)
    except (sqlite3.Error, ValueError, KeyError, TypeError):
        connection.close()
        return None


def _open(connection: sqlite3.Connection, meta: dict[str, str]) -> LineageGraph:
    metadata = json.loads(meta.get("metadata", "{}"))
    metadata["selected"] = tuple(metadata.get("selected", ()))
    nodes = _Nodes(connection)
    graph = IndexedGraph(
        metadata=GraphMetadata(**metadata),
        nodes=t.cast(t.Any, nodes),
        columns=t.cast(t.Any, _Columns(nodes)),
    )
    graph._index = _Adjacency(connection, nodes)
    return graph


class IndexedGraph(LineageGraph):
    """A graph whose nodes, columns and edges are read from the index on demand."""

    def digraph(self) -> t.Any:
        """The index's adjacency: ``succ`` and ``pred`` as networkx's ``MultiDiGraph``
        offers them (``.get(key, {})`` -> neighbour -> edge key -> ``{"edge": edge}``)."""
        return self._index

    def invalidate(self) -> None:
        """Nothing to forget: the graph is read-only."""

    def nodes_named(self, names: t.Collection[str]) -> list[LineageNode]:
        """The nodes whose short name is one of ``names``, found by the index's key."""
        nodes = t.cast(_Nodes, self.nodes)
        return nodes.named(names)

    def short_names(self) -> list[tuple[str, str]]:
        """Every relation's and exposure's id and short name, from the index's ``nodes``
        table alone (no entry is read)."""
        nodes = t.cast(_Nodes, self.nodes)
        return nodes.short_names()


class _Nodes(t.Mapping[str, LineageNode]):
    """Relations and exposures by id, each read when first asked for."""

    def __init__(self, connection: sqlite3.Connection) -> None:
        self._connection = connection
        self._keys: dict[str, tuple[int, bool] | None] = {}
        """Each key asked about: its number in the index, and whether it is a node (a key
        only an edge names is not); None: not in the index."""
        self._order: list[str] | None = None
        self._read: dict[str, LineageNode] = {}
        self._entries: dict[str, dict[str, t.Any]] = {}

    def number(self, key: str) -> int | None:
        """The index's number of ``key`` (a node, or a key only an edge names)."""
        found = self._key(key)
        return found[0] if found is not None else None

    def _key(self, key: str) -> tuple[int, bool] | None:
        if key in self._keys:
            return self._keys[key]
        row = self._connection.execute(
            "SELECT id, short IS NOT NULL FROM nodes WHERE node_id = ?", (key,)
        ).fetchone()
        found = self._keys[key] = (row[0], bool(row[1])) if row is not None else None
        return found

    def __getitem__(self, node_id: str) -> LineageNode:
        found = self._read.get(node_id)
        if found is not None:
            return found
        if node_id not in self:
            raise KeyError(node_id)
        found = self._read[node_id] = _node(node_id, self.entry(node_id))
        return found

    def entry(self, node_id: str) -> dict[str, t.Any]:
        """A node's lineage.json entry, columns included, read once."""
        found = self._entries.get(node_id)
        if found is None:
            (text,) = self._connection.execute(
                "SELECT entry FROM nodes WHERE id = ?", (self.number(node_id),)
            ).fetchone()
            found = self._entries[node_id] = json.loads(text)
        return found

    def __contains__(self, node_id: object) -> bool:
        if not isinstance(node_id, str):
            return False
        found = self._key(node_id)
        return found is not None and found[1]

    def __iter__(self) -> t.Iterator[str]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())

    def _all(self) -> list[str]:
        """Every node id in lineage.json's order, read once from two covering indexes
        (never from the table, whose rows hold every node's entry)."""
        if self._order is None:
            ids = dict(
                self._connection.execute(
                    "SELECT id, node_id FROM nodes INDEXED BY sqlite_autoindex_nodes_1"
                )
            )
            named = self._connection.execute(
                "SELECT id FROM nodes INDEXED BY nodes_by_short WHERE short IS NOT NULL"
            ).fetchall()
            named.sort()
            self._order = [ids[number] for (number,) in named]
            self._keys.update((ids[number], (number, True)) for (number,) in named)
        return self._order

    def named(self, names: t.Collection[str]) -> list[LineageNode]:
        wanted = sorted(set(names))
        marks = ", ".join("?" for _ in wanted)
        found = self._connection.execute(
            f"SELECT node_id, id FROM nodes WHERE short IN ({marks}) ORDER BY id", wanted
        ).fetchall()
        self._keys.update((node_id, (number, True)) for node_id, number in found)
        return [self[node_id] for node_id, _ in found]

    def short_names(self) -> list[tuple[str, str]]:
        query = "SELECT node_id, short FROM nodes WHERE short IS NOT NULL ORDER BY id"
        return [(node_id, short) for node_id, short in self._connection.execute(query)]


class _Columns(t.Mapping[str, dict[str, ColumnNode]]):
    """Each node's columns, by node id, read when first asked for."""

    def __init__(self, nodes: _Nodes) -> None:
        self._nodes = nodes
        self._read: dict[str, dict[str, ColumnNode]] = {}

    def __getitem__(self, node_id: str) -> dict[str, ColumnNode]:
        found = self._read.get(node_id)
        if found is not None:
            return found
        if node_id not in self._nodes:
            raise KeyError(node_id)
        entries = self._nodes.entry(node_id).get("columns", {})
        found = self._read[node_id] = column_entries(node_id, entries)
        return found

    def __contains__(self, node_id: object) -> bool:
        return node_id in self._nodes

    def __iter__(self) -> t.Iterator[str]:
        return iter(self._nodes)

    def __len__(self) -> int:
        return len(self._nodes)


class _Adjacency:
    """``succ`` and ``pred`` over the index's edges."""

    def __init__(self, connection: sqlite3.Connection, nodes: _Nodes) -> None:
        self.succ = _Neighbourhood(connection, nodes, outgoing=True)
        self.pred = _Neighbourhood(connection, nodes, outgoing=False)


class _Neighbourhood:
    """The edges out of (``outgoing``) or into each key, grouped by the key at the other
    end, in lineage.json's order. A node's edges, and those of all its columns, are read
    together the first time one of them is asked for."""

    def __init__(self, connection: sqlite3.Connection, nodes: _Nodes, *, outgoing: bool) -> None:
        self._connection = connection
        self._nodes = nodes
        self._outgoing = outgoing
        near, other = ("source", "target") if outgoing else ("target", "source")
        self._sql = (
            "SELECT e.source_column, e.target_column, o.node_id, e.type, e.kind, e.expression "
            f"FROM edges e JOIN nodes o ON o.id = e.{other} WHERE e.{near} = ? ORDER BY e.rowid"
        )
        self._read: dict[NodeKey, _Neighbours] = {}
        self._nodes_read: set[str] = set()
        self._names: dict[str, str] = {}
        """One copy of each node id read from the edges."""

    def get(self, key: NodeKey, default: t.Any = None) -> t.Any:
        node_id = key.node_id if isinstance(key, ColumnRef) else key
        if node_id not in self._nodes_read:
            self._read_node(t.cast(str, node_id))
        return self._read.get(key) or default

    def __getitem__(self, key: NodeKey) -> _Neighbours:
        found = self.get(key)
        if found is None:
            raise KeyError(key)
        return t.cast(_Neighbours, found)

    def __contains__(self, key: object) -> bool:
        return self.get(t.cast(NodeKey, key)) is not None

    def _read_node(self, node_id: str) -> None:
        self._nodes_read.add(node_id)
        number = self._nodes.number(node_id)
        if number is None:
            return
        read, outgoing, names = self._read, self._outgoing, self._names
        rows = self._connection.execute(self._sql, (number,))
        for source_column, target_column, other_id, type_, kind, expression in rows:
            other_id = names.setdefault(other_id, other_id)
            if outgoing:
                start, end = _key(node_id, source_column), _key(other_id, target_column)
            else:
                start, end = _key(other_id, source_column), _key(node_id, target_column)
            edge = LineageEdge(start, end, _EDGE_TYPES[type_], _EDGE_KINDS.get(kind), expression)
            near, other = (start, end) if outgoing else (end, start)
            parallel = read.setdefault(near, {}).setdefault(other, {})
            parallel[len(parallel)] = {"edge": edge}


_EDGE_TYPES = {member.value: member for member in EdgeType}
_EDGE_KINDS = {member.value: member for member in EdgeKind}
_NODE_TYPES = {member.value: member for member in NodeType}
_LAYERS = {member.value: member for member in Layer}


def _key(node_id: str, column: str | None) -> NodeKey:
    return ColumnRef(node_id, column) if column is not None else node_id


def _node(node_id: str, entry: dict[str, t.Any]) -> LineageNode:
    """A node from its lineage.json entry, as ``graph.document`` decodes it."""
    node_type = _NODE_TYPES[entry["type"]]
    common: dict[str, t.Any] = {
        "node_id": node_id,
        "type": node_type,
        "name": entry["name"],
        "layer": _LAYERS[entry.get("layer", "schema")],
        "description": entry.get("description", ""),
        "path": entry.get("path", ""),
        "meta": entry.get("meta") or EMPTY,
        "tags": tuple(entry.get("tags", ())),
    }
    if node_type is NodeType.EXPOSURE:
        return ExposureNode(**common, **{field: entry.get(field, "") for field in EXPOSURE_FIELDS})
    return RelationNode(**common, **{field: entry.get(field, "") for field in RELATION_FIELDS})
