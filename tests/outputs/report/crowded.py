"""A large synthetic graph with the shapes that broke the report at 3,000 models (issue 20).

On top of ``synthetic_graph``: a relation of 90 columns, a column name held by 60 relations,
two relations and two columns whose long names differ only in the middle, a column read by
every third model, an installed package's model sorted before the project's own, exposures
with a long name, a long https URL and a ``javascript:`` URL, a deep folder and a diagnostic
whose message has no spaces.
"""

from __future__ import annotations

from tests.outputs.report.synthetic import synthetic_graph

from dbt_lineage.graph.model import (
    ColumnNode,
    Diagnostic,
    EdgeType,
    ExposureNode,
    LineageEdge,
    LineageGraph,
    NodeType,
    RelationNode,
)
from dbt_lineage.types import ColumnRef, EdgeKind

WIDE = "model.synth.m_5"
LAST_OF_FOLDER = "model.synth.m_1596"
"""The 229th model of models/staging/area_0 in natural order: past the tree's first page."""
SHARED_NAME = "stage_name"
SHARED_BY = [f"model.synth.m_{i}" for i in range(100, 160)]
PLAN_SOURCE = "source.synth.raw.plan"
PLAN_MODELS = (
    "model.synth.plan_forecast_by_stage_and_quarter_quarterly_v1",
    "model.synth.plan_forecast_by_stage_and_quarter_quarterly_v2",
)
LONG_COLUMNS = ("stage_plan_alltime_amount_in_usd_total", "stage_plan_28day_amount_in_usd_total")
PACKAGE_MODEL = "model.aaa_package.package_first"
MART = "model.synth.m_3200"
LONG_EXPOSURE = "exposure.synth." + "quarterly_board_pack_" * 6 + "dashboard"
UNSAFE_EXPOSURE = "exposure.synth.unsafe_link"
LONG_URL = "https://bi.example.com/dashboards/" + "segment-" * 40 + "end"
HUB = ColumnRef("source.synth.raw.src_0", "col_0")
"""A date-spine-like column: read by every third model."""
DEEP_FOLDER = "models/" + "/".join(f"subject_area_with_a_long_name_{i}" for i in range(6))


def _column(node_id: str, name: str) -> ColumnNode:
    return ColumnNode(node_id=node_id, type=NodeType.COLUMN, name=name, column=name)


def _relation(
    node_id: str, kind: NodeType, name: str, path: str, package: str = ""
) -> RelationNode:
    return RelationNode(node_id=node_id, type=kind, name=name, path=path, package_name=package)


def crowded_graph() -> LineageGraph:
    graph = synthetic_graph(4000, columns=6)
    graph.columns[WIDE].update({f"wide_{i}": _column(WIDE, f"wide_{i}") for i in range(90)})
    for node_id in SHARED_BY:
        graph.columns[node_id][SHARED_NAME] = _column(node_id, SHARED_NAME)
    graph.columns[SHARED_BY[0]]["stage_name_id"] = _column(SHARED_BY[0], "stage_name_id")
    graph.nodes[PLAN_SOURCE] = _relation(PLAN_SOURCE, NodeType.SOURCE, "raw.plan", "models/x.yml")
    graph.columns[PLAN_SOURCE] = {"amount": _column(PLAN_SOURCE, "amount")}
    for node_id in PLAN_MODELS:
        name = node_id.rsplit(".", 1)[-1]
        graph.nodes[node_id] = _relation(node_id, NodeType.MODEL, name, f"{DEEP_FOLDER}/{name}.sql")
        graph.columns[node_id] = {name: _column(node_id, name) for name in LONG_COLUMNS}
        graph.edges.append(LineageEdge(PLAN_SOURCE, node_id, EdgeType.DEPENDS))
        for column in LONG_COLUMNS:
            graph.edges.append(
                LineageEdge(
                    ColumnRef(PLAN_SOURCE, "amount"),
                    ColumnRef(node_id, column),
                    EdgeType.DIRECT,
                    EdgeKind.TRANSFORM,
                )
            )
    graph.nodes[PACKAGE_MODEL] = _relation(
        PACKAGE_MODEL, NodeType.MODEL, "package_first", "models/p.sql", package="aaa_package"
    )
    graph.columns[PACKAGE_MODEL] = {"id": _column(PACKAGE_MODEL, "id")}
    for node_id, url in ((LONG_EXPOSURE, LONG_URL), (UNSAFE_EXPOSURE, "javascript:alert(1)")):
        graph.nodes[node_id] = ExposureNode(
            node_id=node_id,
            type=NodeType.EXPOSURE,
            name=node_id.rsplit(".", 1)[-1],
            exposure_type="dashboard",
            url=url,
            owner_name="Finance analytics and planning " * 3,
        )
        graph.edges.append(LineageEdge(MART, node_id, EdgeType.DEPENDS))
    graph.diagnostics.append(
        Diagnostic(
            PLAN_MODELS[0],
            "parse_error",
            "could_not_parse_" * 30,
            f"{DEEP_FOLDER}/plan_forecast_by_stage_and_quarter_quarterly_v1.sql",
        )
    )
    for i in range(0, 4000, 3):
        reader = f"model.synth.m_{i}"
        graph.edges.append(LineageEdge(HUB.node_id, reader, EdgeType.DEPENDS))
        graph.edges.append(
            LineageEdge(HUB, ColumnRef(reader, "col_5"), EdgeType.DIRECT, EdgeKind.TRANSFORM)
        )
    graph.diagnostics.append(Diagnostic(WIDE, "unsupported_sql", "a diagnostic at the page's end"))
    return graph


def add_calendar(graph: LineageGraph, date: ColumnRef) -> None:
    """A source with a date column that every model joins on (a row-set edge to each)."""
    models = [n for n, node in graph.nodes.items() if node.type is NodeType.MODEL]
    graph.nodes[date.node_id] = _relation(
        date.node_id, NodeType.SOURCE, "raw.calendar", "models/sources.yml"
    )
    graph.columns[date.node_id] = {date.column: _column(date.node_id, date.column)}
    for node_id in models:
        graph.edges.append(LineageEdge(date.node_id, node_id, EdgeType.DEPENDS))
        graph.edges.append(LineageEdge(date, node_id, EdgeType.INDIRECT, EdgeKind.JOIN))
