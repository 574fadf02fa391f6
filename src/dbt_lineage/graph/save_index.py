"""Write the query index of a ``lineage.json`` (see :mod:`dbt_lineage.graph.index_file`)."""

from __future__ import annotations

import json
import os
import sqlite3
import stat
import tempfile
import typing as t
from pathlib import Path

from dbt_lineage.graph.document import Depends, Direct, Indirect, _encode_metadata, encode
from dbt_lineage.graph.index_file import INDEX_KEYS, INDEX_SCHEMA, INDEX_VERSION, index_file
from dbt_lineage.graph.model import EdgeType, LineageEdge, LineageGraph, LineageNode, short_name
from dbt_lineage.types import ColumnRef, EdgeKind


def save_index(graph: LineageGraph, lineage_path: str | Path) -> Path | None:
    """Index ``graph``, just written to ``lineage_path``, beside it (for a graph written
    otherwise than by ``save_graph(..., index=True)``, which indexes as it writes).

    The index holds exactly what ``lineage.json`` holds for queries, edges in the order a
    reader of ``lineage.json`` finds them, so that a query gives the same answer from
    either. It is written whole (a temporary file, then renamed); when it cannot be written,
    an index left from an earlier build is removed (it would be stale anyway) and None is
    returned: queries then read lineage.json.
    """
    writer = IndexWriter(lineage_path)
    for _ in encode(graph, writer):
        pass
    return writer.finish(graph)


class IndexWriter:
    """Writes the index of the lineage.json being written, told by ``encode`` what it
    writes (see ``document.Observer``); ``finish`` once lineage.json is on disk."""

    def __init__(self, lineage_path: str | Path) -> None:
        self.lineage_path = Path(lineage_path)
        self.path = index_file(lineage_path).path
        self._ids: dict[str, int] = {}
        self._nodes: list[tuple[int, str, str, str]] = []
        self._connection: sqlite3.Connection | None = None
        try:
            handle, partial = tempfile.mkstemp(
                prefix=f".{self.path.name}.", suffix=".partial", dir=self.path.parent
            )
            os.close(handle)
            self._partial: Path | None = Path(partial)
            connection = sqlite3.connect(partial, isolation_level=None)
            connection.execute("PRAGMA journal_mode = OFF")
            connection.execute("PRAGMA synchronous = OFF")
            connection.execute("PRAGMA cache_size = -65536")
            connection.executescript(INDEX_SCHEMA)
            connection.execute("BEGIN")
            self._connection = connection
        except (OSError, sqlite3.Error):
            self._partial = None

    def node(self, node: LineageNode, entry: bytes) -> None:
        """Index a node's entry (``document.Observer``)."""
        if self._connection is None:
            return
        number = self._ids[node.node_id] = len(self._ids) + 1
        self._nodes.append((number, node.node_id, short_name(node), entry.decode()))

    def edges(self, direct: Direct, indirect: Indirect, depends: Depends) -> None:
        """Index the edges, in lineage.json's order (``document.Observer``)."""
        if self._connection is None:
            return
        self._try("INSERT INTO nodes VALUES (?, ?, ?, ?)", self._nodes)
        self._nodes = []
        known = len(self._ids)
        rows = _edge_rows(direct, indirect, depends, self._ids)
        self._try(
            "INSERT INTO nodes (id, node_id) VALUES (?, ?)",
            [(number, key) for key, number in self._ids.items() if number > known],
        )
        self._try("INSERT INTO edges VALUES (?, ?, ?, ?, ?, ?, ?)", rows)

    def finish(self, graph: LineageGraph) -> Path | None:
        """Record which lineage.json this indexes and put the index in place; the path, or
        None when it could not be written (an index left from before is removed)."""
        connection, partial = self._connection, self._partial
        identity = index_file(self.lineage_path).identity
        try:
            if connection is None or partial is None or identity is None:
                raise OSError("no index")
            meta = [
                ("version", str(INDEX_VERSION)),
                ("identity", identity),
                ("metadata", _dumps(_encode_metadata(graph.metadata))),
            ]
            connection.executemany("INSERT INTO meta VALUES (?, ?)", meta)
            connection.execute("COMMIT")
            connection.executescript(INDEX_KEYS)
            connection.close()
            os.chmod(partial, _readable(self.lineage_path))
            os.replace(partial, self.path)
        except (OSError, sqlite3.Error):
            if connection is not None:
                connection.close()
            _remove(self.path)
            return None
        finally:
            if partial is not None:
                _remove(partial)
        return self.path

    def abandon(self) -> None:
        """lineage.json could not be written: drop this index and any earlier one."""
        if self._connection is not None:
            self._connection.close()
            self._connection = None
        for path in (self._partial, self.path):
            if path is not None:
                _remove(path)

    def _try(self, sql: str, rows: list[tuple[t.Any, ...]]) -> None:
        assert self._connection is not None
        try:
            self._connection.executemany(sql, rows)
        except sqlite3.Error:
            self._connection.close()
            self._connection = None


def _edge_rows(
    direct: Direct, indirect: Indirect, depends: Depends, ids: dict[str, int]
) -> list[tuple[t.Any, ...]]:
    """The edges as rows in lineage.json's order: within a node, direct edges by target
    column, indirect row-set edges before column-scoped ones by column. New keys get the
    next ids (an edge's source before its target)."""

    def number(node_id: str) -> int:
        found = ids.get(node_id)
        if found is None:
            found = ids[node_id] = len(ids) + 1
        return found

    rows: list[tuple[t.Any, ...]] = []
    append = rows.append
    values = _VALUES
    # Direct edges, most of them (GitLab: 100,000 of 112,000), made inline: their target
    # column and type are known from the group.
    for node_id, by_column in direct.items():
        end = ids.get(node_id)
        for column, edges in by_column.items():
            for edge in edges:
                source = edge.source
                if isinstance(source, ColumnRef):
                    start = ids.get(source.node_id) or number(source.node_id)
                    start_column = source.column
                else:
                    start, start_column = number(str(source)), None
                if end is None:
                    end = number(node_id)
                append(
                    (start, start_column, end, column, "direct", values[edge.kind], edge.expression)
                )
    row = _row(number)
    for grouped in indirect.values():
        rows.extend(map(row, grouped.get("rows", ())))
        for edges in grouped.get("columns", {}).values():
            rows.extend(map(row, edges))
    for edges in depends.values():
        rows.extend(map(row, edges))
    return rows


def _row(number: t.Callable[[str], int]) -> t.Callable[[LineageEdge], tuple[t.Any, ...]]:
    """An edge's row, numbering its ends with ``number``."""

    def row(edge: LineageEdge) -> tuple[t.Any, ...]:
        source, target = edge.source, edge.target
        if isinstance(source, ColumnRef):
            start, start_column = source.node_id, source.column
        else:
            start, start_column = str(source), None
        if isinstance(target, ColumnRef):
            end, end_column = target.node_id, target.column
        else:
            end, end_column = str(target), None
        return (
            number(start), start_column, number(end), end_column, _VALUES[edge.type],
            _VALUES[edge.kind], edge.expression,
        )  # fmt: skip

    return row


_VALUES: dict[t.Any, str | None] = {
    None: None,
    **{kind: kind.value for kind in EdgeKind},
    **{kind: kind.value for kind in EdgeType},
}
"""Each edge type and kind's value (a dict lookup costs less than an enum's ``value``)."""


def _readable(lineage_path: Path) -> int:
    """The index's mode: lineage.json's, so that whoever reads one can read the other."""
    return stat.S_IMODE(lineage_path.stat().st_mode)


def _dumps(value: t.Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _remove(path: Path) -> None:
    try:
        path.unlink(missing_ok=True)
    except OSError:
        pass  # not ours to remove (a directory...): the identity check still rejects it
