"""The JSON document of ``impact``, ``upstream`` and ``downstream`` (``--format json``).

The layout is stable; ``schema_version`` changes when it does. Keys nest, never join::

    {
      "schema_version": 2,
      "query": "impact",                        # or "upstream", "downstream"
      "target": {"node": "model.shop.stg_orders", "column": "amount"},  # column null: a node
      "options": {"depth": null, "include_indirect": false,   # row-set edges followed
                  "kinds": ["identity", "transform", "aggregate", "join", ...]},  # kinds followed
      "columns": [                              # nearest first, then by node and column
        {"node": "model.shop.orders", "column": "amount", "distance": 1,
         "kind": "identity",                    # strongest over every path found
         "path_kinds": ["identity"],            # each edge of one shortest path, from target
         "via": {"node": "model.shop.stg_orders", "column": "amount"}}
      ],
      "relations": [{"node": "model.shop.orders", "type": "model", "name": "orders",
                     "distance": 1}],
      "exposures": [{"node": "exposure.shop.weekly_revenue", "name": "Weekly revenue",
                     "type": "dashboard", "distance": 2, "via": ["model.shop.orders"]}],
      "summary": {"columns": 1, "relations": 1, "exposures": 1, "max_distance": 2}
    }

``kind`` is ``identity``, ``transform`` or ``aggregate``, or an indirect subtype (``join``,
``filter``, ``group_by``, ``window``, ``sort``, ``distinct``) when every path to the column
crosses an indirect edge: a column-scoped one (a window key of a computed column, always
followed) or a row-set one (only with ``include_indirect``).
"""

from __future__ import annotations

import typing as t

import pydantic

from dbt_lineage.queries.impact import ImpactReport
from dbt_lineage.types import ColumnRef

SCHEMA_VERSION = 2
"""Version of this document's layout."""


class _Frozen(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(extra="forbid", frozen=True)


class ColumnKey(_Frozen):
    node: str
    column: str | None = None


class Options(_Frozen):
    depth: int | None
    include_indirect: bool
    kinds: list[str]


class Column(_Frozen):
    node: str
    column: str
    distance: int
    kind: str
    path_kinds: list[str]
    via: ColumnKey


class Relation(_Frozen):
    node: str
    type: str
    name: str
    distance: int


class Exposure(_Frozen):
    node: str
    name: str
    type: str
    distance: int
    via: list[str]


class Summary(_Frozen):
    columns: int
    relations: int
    exposures: int
    max_distance: int


class ImpactDocument(_Frozen):
    """The whole document; ``ImpactDocument.model_json_schema()`` gives its JSON Schema."""

    schema_version: int = SCHEMA_VERSION
    query: str
    target: ColumnKey
    options: Options
    columns: list[Column]
    relations: list[Relation]
    exposures: list[Exposure]
    summary: Summary


def impact_json(report: ImpactReport, *, indent: int | None = 2) -> str:
    """``report`` as the JSON document described above.

    >>> from dbt_lineage.queries.impact import ImpactReport
    >>> report = ImpactReport("impact", "model.p.a", (), (), (), ("identity",))
    >>> import json
    >>> json.loads(impact_json(report))["target"]
    {'node': 'model.p.a', 'column': None}
    """
    return impact_document(report).model_dump_json(indent=indent)


def impact_document(report: ImpactReport) -> ImpactDocument:
    """``report`` as a validated, frozen document model."""
    distances = [item.distance for group in _groups(report) for item in group]
    return ImpactDocument(
        query=report.query,
        target=_key(report.target),
        options=Options(
            depth=report.depth,
            include_indirect=report.include_indirect,
            kinds=list(report.kinds),
        ),
        columns=[
            Column(
                node=item.ref.node_id,
                column=item.ref.column,
                distance=item.distance,
                kind=item.kind,
                path_kinds=list(item.path_kinds),
                via=_key(item.via),
            )
            for item in report.columns
        ],
        relations=[
            Relation(node=item.node_id, type=item.type, name=item.name, distance=item.distance)
            for item in report.relations
        ],
        exposures=[
            Exposure(
                node=item.node_id,
                name=item.name,
                type=item.type,
                distance=item.distance,
                via=list(item.via),
            )
            for item in report.exposures
        ],
        summary=Summary(
            columns=len(report.columns),
            relations=len(report.relations),
            exposures=len(report.exposures),
            max_distance=max(distances, default=0),
        ),
    )


def _groups(report: ImpactReport) -> tuple[t.Sequence[t.Any], ...]:
    return (report.columns, report.relations, report.exposures)


def _key(key: str | ColumnRef) -> ColumnKey:
    if isinstance(key, ColumnRef):
        return ColumnKey(node=key.node_id, column=key.column)
    return ColumnKey(node=key)
