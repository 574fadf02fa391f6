"""The compact document the HTML report embeds: interned strings, integer ids, columns.

Every string (ids, names, types, descriptions, SQL) is stored once in ``strings`` and
referred to by its index (``0`` is the empty string). Nodes and columns are tables of
parallel arrays indexed by integer id; edges are parallel arrays of those ids. Layout
(``format`` 1), each array aligned with the others of its table:

- ``nodes``: ``id name type path mat rel pkg desc cfrom sql`` (string ids; ``type`` an index
  of ``NODE_TYPES``), ``tags`` (lists of string ids), ``meta`` (string id of its JSON, 0 for
  none), ``tests`` (lists of string ids);
- ``exposures``: ``node type label url maturity owner email``;
- ``columns``: ``node name type desc reason`` and ``flags`` (1 unresolved, 2 inferred), and
  sparse ``tags``/``meta``/``tests`` as ``[[column, value], ...]``;
- ``edges``: ``src dst kind expr``: column to column (direct, and column-scoped indirect);
  ``rows``: ``src dst kind``: a column that decides a relation's rows; ``depends``:
  ``src dst`` node to node (relation to relation or exposure);
- ``diagnostics``: ``[node, reason, message, path, [columns]]``;
- ``runs`` (or null): ``node status inv at rows secs msg cmd`` and ``source``;
- ``diff`` (or null): the ``dbt-lineage diff`` JSON document as given, plus ``sql``:
  ``{node_id: {"base": text, "head": text}}`` for changed nodes (a change's own ``sql``
  first, else ``base_sql`` and the head's compiled SQL).
"""

from __future__ import annotations

import json
import typing as t

from dbt_lineage.graph.model import (
    EdgeType,
    ExposureNode,
    LineageGraph,
    RelationNode,
)
from dbt_lineage.outputs.report.project_facts import ProjectFacts
from dbt_lineage.outputs.report.run_facts import RunFact
from dbt_lineage.types import ColumnRef, EdgeKind, Layer

FORMAT = 1
NODE_TYPES = ("source", "seed", "model", "snapshot", "exposure")
EDGE_KINDS = tuple(kind.value for kind in EdgeKind)
"""Kind codes: identity, transform, aggregate, join, filter, group_by, window, sort, distinct."""
_KIND_CODES = {kind: code for code, kind in enumerate(EdgeKind)}


class _Strings:
    """Interns strings: each distinct string gets one index, in order of first use."""

    def __init__(self) -> None:
        self.index: dict[str, int] = {"": 0}
        self.values: list[str] = [""]

    def __call__(self, value: str | None) -> int:
        if not value:
            return 0
        found = self.index.get(value)
        if found is None:
            found = self.index[value] = len(self.values)
            self.values.append(value)
        return found

    def many(self, values: t.Iterable[str]) -> list[int]:
        """The indices of ``values``, interned in one pass (the hot path for columns)."""
        index = self.index
        found = [index.setdefault(value, len(index)) for value in values]
        self.values.extend(list(index)[len(self.values) :])
        return found


def report_data(
    graph: LineageGraph,
    *,
    project: ProjectFacts | None = None,
    runs: t.Mapping[str, RunFact] | None = None,
    diff: t.Mapping[str, t.Any] | None = None,
    base_sql: t.Mapping[str, str] | None = None,
    title: str = "",
) -> dict[str, t.Any]:
    """The report's embedded document for ``graph`` (see the module docstring for layout).

    Args:
        graph: the lineage graph (schema layer; instance nodes are ignored).
        project: compiled SQL and tests (from the manifest), when known.
        runs: each node's last run, by unique id (``--with-runs``).
        diff: a ``dbt-lineage diff`` JSON document: the page opens in diff mode.
        base_sql: the base side's compiled SQL by node id, shown beside the head's for
            changed nodes in diff mode.
        title: the page title (default: the project's name).

    >>> from dbt_lineage.graph.model import ColumnNode, NodeType, RelationNode
    >>> node = RelationNode(node_id="model.p.a", type=NodeType.MODEL, name="a",
    ...                     path="models/a.sql")
    >>> column = ColumnNode(node_id="model.p.a", type=NodeType.COLUMN, name="x", column="x")
    >>> data = report_data(LineageGraph(nodes={"model.p.a": node},
    ...                                 columns={"model.p.a": {"x": column}}))
    >>> [data["strings"][i] for i in data["nodes"]["id"]], data["columns"]["node"]
    (['model.p.a'], [0])
    """
    project = project or ProjectFacts()
    strings = _Strings()
    node_ids = sorted(
        node_id
        for node_id, node in graph.nodes.items()
        if node.layer is Layer.SCHEMA and node.type.value in NODE_TYPES
    )
    node_index = {node_id: index for index, node_id in enumerate(node_ids)}
    nodes = _nodes(graph, node_ids, project, strings)
    exposures = _exposures(graph, node_ids, strings)
    columns, column_index = _columns(graph, node_ids, project, strings)
    edges, rows, depends = _edges(graph, node_index, column_index, strings)
    diagnostics = [
        [
            node_index.get(item.node_id, -1),
            strings(item.reason),
            strings(item.message),
            strings(item.path),
            [strings(name) for name in item.columns],
        ]
        for item in graph.diagnostics
    ]
    metadata = graph.metadata
    return {
        "format": FORMAT,
        "meta": {
            "title": title or metadata.project_name or "dbt project",
            "project": metadata.project_name,
            "adapter": metadata.adapter_type,
            "dbt_version": metadata.dbt_version,
            "generated_at": metadata.generated_at,
            "has_catalog": metadata.has_catalog,
            "dbt_lineage_version": metadata.dbt_lineage_version,
            "node_types": list(NODE_TYPES),
            "edge_kinds": list(EDGE_KINDS),
        },
        "nodes": nodes,
        "exposures": exposures,
        "columns": columns,
        "edges": edges,
        "rows": rows,
        "depends": depends,
        "diagnostics": diagnostics,
        "runs": _runs(runs, node_index, strings) if runs is not None else None,
        "diff": _diff(diff, project, base_sql) if diff is not None else None,
        "strings": strings.values,
    }


def _nodes(
    graph: LineageGraph, node_ids: list[str], project: ProjectFacts, strings: _Strings
) -> dict[str, list[t.Any]]:
    table: dict[str, list[t.Any]] = {
        key: []
        for key in ("id", "name", "type", "path", "mat", "rel", "pkg", "desc", "cfrom", "sql")
    }
    table.update(tags=[], meta=[], tests=[])
    for node_id in node_ids:
        node = graph.nodes[node_id]
        relation = node if isinstance(node, RelationNode) else None
        table["id"].append(strings(node_id))
        table["name"].append(strings(node.name))
        table["type"].append(NODE_TYPES.index(node.type.value))
        table["path"].append(strings(node.path))
        table["mat"].append(strings(relation.materialized if relation else ""))
        table["rel"].append(strings(relation.relation_name if relation else ""))
        table["pkg"].append(strings(relation.package_name if relation else ""))
        table["desc"].append(strings(node.description))
        table["cfrom"].append(strings(relation.columns_from if relation else ""))
        table["sql"].append(strings(project.sql.get(node_id, "")))
        table["tags"].append([strings(tag) for tag in node.tags])
        table["meta"].append(strings(_meta_json(node.meta)))
        table["tests"].append([strings(name) for name in project.node_tests.get(node_id, [])])
    return table


def _exposures(graph: LineageGraph, node_ids: list[str], strings: _Strings) -> dict[str, list[int]]:
    keys = ("node", "type", "label", "url", "maturity", "owner", "email")
    table: dict[str, list[int]] = {key: [] for key in keys}
    for index, node_id in enumerate(node_ids):
        node = graph.nodes[node_id]
        if not isinstance(node, ExposureNode):
            continue
        values = (
            node.exposure_type,
            node.label,
            node.url,
            node.maturity,
            node.owner_name,
            node.owner_email,
        )
        table["node"].append(index)
        for key, value in zip(keys[1:], values, strict=True):
            table[key].append(strings(value))
    return table


def _columns(
    graph: LineageGraph, node_ids: list[str], project: ProjectFacts, strings: _Strings
) -> tuple[dict[str, list[t.Any]], dict[str, dict[str, int]]]:
    """The column table, and each column's position as ``{node_id: {column: position}}``.

    Nested dicts, not a dict keyed by ``ColumnRef``: at 250,000 columns, making and hashing
    a key tuple per column and per edge end was a third of the report's time.
    """
    nodes: list[int] = []
    columns = []
    index: dict[str, dict[str, int]] = {}
    for node_position, node_id in enumerate(node_ids):
        by_name = graph.columns.get(node_id, {})
        start = len(columns)
        nodes.extend([node_position] * len(by_name))
        columns.extend(by_name.values())
        index[node_id] = {column.column: start + i for i, column in enumerate(by_name.values())}
    tests = []
    for ref, names in project.column_tests.items():
        position = index.get(ref.node_id, {}).get(ref.column)
        if position is not None and names:
            tests.append([position, [strings(test) for test in names]])
    table: dict[str, list[t.Any]] = {
        "node": nodes,
        "name": strings.many([column.column for column in columns]),
        "type": strings.many([column.data_type for column in columns]),
        "desc": strings.many([column.description for column in columns]),
        "reason": strings.many([column.reason for column in columns]),
        "flags": [(0 if c.resolved else 1) | (2 if c.inferred else 0) for c in columns],
        "tags": [
            [position, [strings(tag) for tag in column.tags]]
            for position, column in enumerate(columns)
            if column.tags
        ],
        "meta": [
            [position, strings(_meta_json(column.meta))]
            for position, column in enumerate(columns)
            if column.meta
        ],
        "tests": sorted(tests),
    }
    return table, index


def _edges(
    graph: LineageGraph,
    node_index: dict[str, int],
    column_index: dict[str, dict[str, int]],
    strings: _Strings,
) -> tuple[dict[str, list[int]], dict[str, list[int]], dict[str, list[int]]]:
    edges: dict[str, list[int]] = {"src": [], "dst": [], "kind": [], "expr": []}
    rows: dict[str, list[int]] = {"src": [], "dst": [], "kind": []}
    depends: dict[str, list[int]] = {"src": [], "dst": []}
    schema, depends_type, indirect = Layer.SCHEMA, EdgeType.DEPENDS, EdgeType.INDIRECT
    no_columns: dict[str, int] = {}
    # Bound methods and the expressions interned in one pass after the walk, in the same
    # order: at 300,000 edges the lookups and calls per edge were most of the report's time.
    columns_of, nodes_get, codes = column_index.get, node_index.get, _KIND_CODES
    add_src, add_dst, add_kind = edges["src"].append, edges["dst"].append, edges["kind"].append
    expressions: list[str] = []
    add_expr = expressions.append
    for edge in graph.edges:
        if edge.layer is not schema:
            continue
        if edge.type is depends_type:
            source, target = nodes_get(str(edge.source)), nodes_get(str(edge.target))
            if source is not None and target is not None:
                depends["src"].append(source)
                depends["dst"].append(target)
            continue
        origin = edge.source
        if edge.kind is None or not isinstance(origin, ColumnRef):
            continue
        source = columns_of(origin.node_id, no_columns).get(origin.column)
        if source is None:
            continue
        end = edge.target
        if isinstance(end, ColumnRef):
            target = columns_of(end.node_id, no_columns).get(end.column)
            if target is not None:
                add_src(source)
                add_dst(target)
                add_kind(codes[edge.kind])
                add_expr(edge.expression)
        elif edge.type is indirect:
            target = nodes_get(end)
            if target is not None:
                rows["src"].append(source)
                rows["dst"].append(target)
                rows["kind"].append(codes[edge.kind])
    edges["expr"] = strings.many(expressions)
    return edges, rows, depends


def _runs(
    runs: t.Mapping[str, RunFact], node_index: dict[str, int], strings: _Strings
) -> dict[str, t.Any]:
    keys = ("node", "status", "inv", "at", "rows", "secs", "msg", "cmd")
    table: dict[str, t.Any] = {key: [] for key in keys}
    sources = sorted({fact.source for fact in runs.values()})
    for unique_id in sorted(runs):
        position = node_index.get(unique_id)
        if position is None:
            continue
        fact = runs[unique_id]
        table["node"].append(position)
        table["status"].append(strings(fact.status))
        table["inv"].append(strings(fact.invocation_id))
        table["at"].append(strings(fact.completed_at))
        table["rows"].append(fact.rows_affected)
        table["secs"].append(
            round(fact.execution_time, 3) if fact.execution_time is not None else None
        )
        table["msg"].append(strings(fact.message))
        table["cmd"].append(strings(fact.command))
    table["source"] = ", ".join(sources)
    return table


def _diff(
    document: t.Mapping[str, t.Any],
    project: ProjectFacts,
    base_sql: t.Mapping[str, str] | None,
) -> dict[str, t.Any]:
    """The diff document, and the base and head SQL of every node it says changed."""
    base_sql = base_sql or {}
    sql: dict[str, dict[str, str]] = {}
    for change in document.get("changes", []):
        node_id = change.get("node")
        if not isinstance(node_id, str):
            continue
        given = change.get("sql") if isinstance(change.get("sql"), dict) else {}
        sides = {
            "base": given.get("base") or base_sql.get(node_id, ""),
            "head": given.get("head") or project.sql.get(node_id, ""),
        }
        if change.get("change") == "removed":
            sides["head"] = ""
        if change.get("change") == "added":
            sides["base"] = ""
        sql[node_id] = sides
    return {**json.loads(json.dumps(dict(document), default=str)), "sql": sql}


def _meta_json(meta: t.Mapping[str, t.Any]) -> str:
    return json.dumps(meta, sort_keys=True, default=str) if meta else ""
