"""Write the query index of a ``lineage.json`` (see :mod:`dbt_lineage.graph.index_file`)."""

from __future__ import annotations

import json
import os
import sqlite3
import stat
import tempfile
import typing as t
from pathlib import Path

from dbt_lineage.graph.document import _encode_column, _encode_metadata, _encode_node
from dbt_lineage.graph.index_file import INDEX_KEYS, INDEX_SCHEMA, INDEX_VERSION, index_file
from dbt_lineage.graph.model import EdgeType, LineageEdge, LineageGraph, short_name
from dbt_lineage.types import ColumnRef, Layer


def save_index(graph: LineageGraph, lineage_path: str | Path) -> Path | None:
    """Index ``graph``, just written to ``lineage_path``, beside it.

    The index holds exactly what ``lineage.json`` holds for queries, edges in the order a
    reader of ``lineage.json`` finds them, so that a query gives the same answer from
    either. It is written whole (a temporary file, then renamed); when it cannot be written,
    an index left from an earlier build is removed (it would be stale anyway) and None is
    returned: queries then read lineage.json.
    """
    target = index_file(lineage_path)
    if target.identity is None:
        return None
    directory = target.path.parent
    try:
        handle, partial = tempfile.mkstemp(
            prefix=f".{target.path.name}.", suffix=".partial", dir=directory
        )
        os.close(handle)
    except OSError:
        _remove(target.path)
        return None
    try:
        _write(graph, Path(partial), target.identity)
        os.chmod(partial, _readable(Path(lineage_path)))
        os.replace(partial, target.path)
    except (OSError, sqlite3.Error):
        _remove(target.path)
        return None
    finally:
        _remove(Path(partial))
    return target.path


def _write(graph: LineageGraph, path: Path, identity: str) -> None:
    connection = sqlite3.connect(path, isolation_level=None)
    try:
        connection.execute("PRAGMA journal_mode = OFF")
        connection.execute("PRAGMA synchronous = OFF")
        connection.execute("PRAGMA cache_size = -65536")
        connection.executescript(INDEX_SCHEMA)
        connection.execute("BEGIN")
        ids: dict[str, int] = {}
        rows = []
        for node_id, node in graph.nodes.items():
            if node.layer is not Layer.SCHEMA:
                continue
            columns = {
                name: _encode_column(column)
                for name, column in graph.columns.get(node_id, {}).items()
            }
            ids[node_id] = len(ids) + 1
            entry = _dumps(_encode_node(node))
            rows.append((ids[node_id], node_id, short_name(node), entry, _dumps(columns)))
        connection.executemany("INSERT INTO nodes VALUES (?, ?, ?, ?, ?)", rows)
        edges = list(_edge_rows(graph.edges, ids))
        connection.executemany(
            "INSERT INTO nodes (id, node_id) VALUES (?, ?)",
            [(number, key) for key, number in ids.items() if number > len(rows)],
        )
        connection.executemany("INSERT INTO edges VALUES (?, ?, ?, ?, ?, ?, ?)", edges)
        connection.executemany(
            "INSERT INTO meta VALUES (?, ?)",
            [
                ("version", str(INDEX_VERSION)),
                ("identity", identity),
                ("metadata", _dumps(_encode_metadata(graph.metadata))),
            ],
        )
        connection.execute("COMMIT")
        connection.executescript(INDEX_KEYS)
    finally:
        connection.close()


def _edge_rows(edges: list[LineageEdge], ids: dict[str, int]) -> t.Iterator[tuple[t.Any, ...]]:
    """The schema-layer edges as rows, in the order ``lineage.json`` lists them (see
    :func:`dbt_lineage.graph.document.encode`): direct edges by target node, then column;
    indirect ones by target node, row-set edges before column-scoped ones by column;
    dependencies by target node. New keys get the next ids."""
    direct: dict[str, dict[str, list[tuple[t.Any, ...]]]] = {}
    indirect: dict[str, tuple[list[tuple[t.Any, ...]], dict[str, list[tuple[t.Any, ...]]]]] = {}
    depends: dict[str, list[tuple[t.Any, ...]]] = {}
    schema, direct_type = Layer.SCHEMA, EdgeType.DIRECT
    indirect_type, depends_type = EdgeType.INDIRECT, EdgeType.DEPENDS

    def number(node_id: str) -> int:
        found = ids.get(node_id)
        if found is None:
            found = ids[node_id] = len(ids) + 1
        return found

    for edge in edges:
        if edge.layer is not schema:
            continue
        source, target, kind = edge.source, edge.target, edge.type
        if isinstance(source, ColumnRef):
            start, start_column = source.node_id, source.column
        else:
            start, start_column = str(source), None
        if isinstance(target, ColumnRef):
            end, end_column = target.node_id, target.column
        else:
            end, end_column = str(target), None
        row = (
            number(start),
            start_column,
            number(end),
            end_column,
            kind.value,
            edge.kind.value if edge.kind is not None else None,
            edge.expression,
        )
        if kind is direct_type and end_column is not None:
            direct.setdefault(end, {}).setdefault(end_column, []).append(row)
        elif kind is indirect_type:
            rows, by_column = indirect.setdefault(end, ([], {}))
            if end_column is not None:
                by_column.setdefault(end_column, []).append(row)
            else:
                rows.append(row)
        elif kind is depends_type:
            depends.setdefault(end, []).append(row)
    for grouped in direct.values():
        for group in grouped.values():
            yield from group
    for rows, grouped in indirect.values():
        yield from rows
        for group in grouped.values():
            yield from group
    for group in depends.values():
        yield from group


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
