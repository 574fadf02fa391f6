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
        edges = [_row(edge, ids) for edge in _document_order(graph.edges)]
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


def _row(edge: LineageEdge, ids: dict[str, int]) -> tuple[t.Any, ...]:
    source, target = edge.source, edge.target
    source_node, source_column = (
        (source.node_id, source.column) if isinstance(source, ColumnRef) else (str(source), None)
    )
    target_node, target_column = (
        (target.node_id, target.column) if isinstance(target, ColumnRef) else (str(target), None)
    )
    kind = edge.kind.value if edge.kind is not None else None
    return (
        ids.setdefault(source_node, len(ids) + 1),
        source_column,
        ids.setdefault(target_node, len(ids) + 1),
        target_column,
        edge.type.value,
        kind,
        edge.expression,
    )


def _document_order(edges: list[LineageEdge]) -> t.Iterator[LineageEdge]:
    """The schema-layer edges in the order ``lineage.json`` lists them (see
    :func:`dbt_lineage.graph.document.encode`): direct edges by target node, then column;
    indirect ones by target node, row-set edges before column-scoped ones by column;
    dependencies by target node."""
    direct: dict[str, dict[str, list[LineageEdge]]] = {}
    indirect: dict[str, tuple[list[LineageEdge], dict[str, list[LineageEdge]]]] = {}
    depends: dict[str, list[LineageEdge]] = {}
    for edge in edges:
        if edge.layer is not Layer.SCHEMA:
            continue
        target = edge.target
        node_id = target.node_id if isinstance(target, ColumnRef) else str(target)
        if edge.type is EdgeType.DIRECT and isinstance(target, ColumnRef):
            direct.setdefault(node_id, {}).setdefault(target.column, []).append(edge)
        elif edge.type is EdgeType.INDIRECT:
            rows, by_column = indirect.setdefault(node_id, ([], {}))
            if isinstance(target, ColumnRef):
                by_column.setdefault(target.column, []).append(edge)
            else:
                rows.append(edge)
        elif edge.type is EdgeType.DEPENDS:
            depends.setdefault(node_id, []).append(edge)
    for by_column in direct.values():
        for group in by_column.values():
            yield from group
    for rows, by_column in indirect.values():
        yield from rows
        for group in by_column.values():
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
