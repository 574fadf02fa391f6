"""Benchmark the single-query engine and the graph model on shapes that used to be slow.

Prints, as medians of ``--repeat`` runs in this process (CPU seconds):

- a UNION ALL of 8 branches with 1,000 columns each (issue: 5.6 s when output names were
  recomputed per column; the floor is 0.5 s), beside sqlglot's parse of the same SQL;
- a 30-branch UNION ALL, an md5 over 164 columns and a 500-term CASE in one query;
- a chain of 100,000 ``amount + amount + ...`` terms (linear, not quadratic);
- the graph model at 10,000 relations of 25 columns: building the plain dataclasses,
  writing lineage.json, and reading it back (pydantic checks the JSON at the boundary).

Usage::

    python benchmarks/bench_engine.py [--repeat 5]
"""

from __future__ import annotations

import argparse
import functools
import os
import tempfile
import time
import typing as t
from pathlib import Path

import sqlglot
from benchkit.docs_figures import docs_figures
from benchkit.stats import median

from dbt_lineage.graph.io import load_graph
from dbt_lineage.graph.model import (
    ColumnNode,
    EdgeType,
    LineageEdge,
    LineageGraph,
    NodeType,
    RelationNode,
)
from dbt_lineage.graph.save import save_graph
from dbt_lineage.sql.column_lineage import column_lineage
from dbt_lineage.types import ColumnRef, EdgeKind


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    print("| case | engine (median CPU s) | sqlglot parse alone | result |")
    print("|---|---|---|---|")
    for name, sql, dialect, schema in _cases():
        engine = _timed(
            functools.partial(column_lineage, sql, dialect=dialect, schema=schema), args.repeat
        )
        parse = _timed(functools.partial(sqlglot.parse_one, sql, read=dialect), args.repeat)
        lineage = column_lineage(sql, dialect=dialect, schema=schema)
        edges = sum(len(ups) for ups in lineage.columns.values())
        result = (
            f"{len(lineage.columns)} columns, {edges} edges, {len(lineage.unresolved)} unresolved"
        )
        print(f"| {name} | {engine:.3f} | {parse:.3f} | {result} |")
    print()
    print("| graph model, 10,000 relations x 25 columns | median CPU s |")
    print("|---|---|")
    graph = _graph(10_000, 25)
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "lineage.json"
        build = _timed(lambda: _graph(10_000, 25), args.repeat)
        save = _timed(lambda: save_graph(graph, path), args.repeat)
        load = _timed(lambda: load_graph(path), args.repeat)
        size = os.path.getsize(path) / 2**20
    print(f"| build nodes and edges (dataclasses) | {build:.2f} |")
    print(f"| write lineage.json ({size:.0f} MB) | {save:.2f} |")
    print(f"| read and check lineage.json | {load:.2f} |")


def _cases() -> list[tuple[str, str, str, dict[str, t.Any]]]:
    wide = [f"c{i}" for i in range(1000)]
    union = " union all ".join(f"select {', '.join(wide)} from t{b}" for b in range(8))
    union_schema = {f"t{b}": dict.fromkeys(wide, "int") for b in range(8)}
    cols = [f"c{i}" for i in range(164)]
    hashed = " || '|' || ".join(f"coalesce(cast({c} as varchar), '')" for c in cols)
    cases = " ".join(f"when c0 = '{i}' then c{i % 164}" for i in range(500))
    branches = " union all ".join(f"select c{i} as v from wide" for i in range(30))
    deep = (
        f"with u as ({branches}) select md5({hashed}) as row_hash, "
        f"case {cases} end as picked, (select max(v) from u) as top from wide"
    )
    chain = "select " + " + ".join(["amount"] * 100_000) + " as total from orders"
    return [
        ("UNION ALL, 8 branches x 1,000 columns", union, "duckdb", union_schema),
        ("30 branches, md5 of 164 columns, 500-term CASE", deep, "postgres",
         {"wide": dict.fromkeys(cols, "varchar")}),
        ("100,000-term sum", chain, "duckdb", {"orders": {"amount": "int"}}),
    ]  # fmt: skip


def _graph(relations: int, width: int) -> LineageGraph:
    nodes = {}
    columns: dict[str, dict[str, ColumnNode]] = {}
    edges = []
    for number in range(relations):
        node_id = f"model.bench.m{number}"
        nodes[node_id] = RelationNode(node_id=node_id, type=NodeType.MODEL, name=f"m{number}")
        columns[node_id] = {
            f"c{c}": ColumnNode(node_id=node_id, type=NodeType.COLUMN, name=f"c{c}", column=f"c{c}")
            for c in range(width)
        }
        if number:
            parent = f"model.bench.m{number - 1}"
            edges += [
                LineageEdge(
                    ColumnRef(parent, f"c{c}"), ColumnRef(node_id, f"c{c}"), EdgeType.DIRECT,
                    EdgeKind.IDENTITY, f"c{c}",
                )
                for c in range(width)
            ]  # fmt: skip
            edges.append(LineageEdge(parent, node_id, EdgeType.DEPENDS))
    return LineageGraph(nodes=nodes, columns=columns, edges=edges)


def _timed(work: t.Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.process_time()
        work()
        times.append(time.process_time() - start)
    return median(times)


if __name__ == "__main__":
    raise SystemExit(docs_figures("bench_engine", main))
