"""The JSON document of ``classify --format json``. Keys nest, never join::

    {
      "schema_version": 1,
      "classes": ["pii"],                       # every class found (or asked for with --class)
      "columns": [                              # by class, then node and column
        {"node": "model.shop.customers", "column": "email", "class": "pii",
         "label": "pii",                        # "masked:pii" when it arrives only masked
         "masked": false, "declared": null,     # "meta" or "tag" where declared
         "origin": {"node": "model.shop.stg_customers", "column": "email"},
         "hops": 1, "path_kinds": ["identity"],
         "via": {"node": "model.shop.stg_customers", "column": "email"},
         "masked_by": null}                     # e.g. "md5", "macro mask_email", "meta masks"
      ],
      "declassified": [{"node": "...", "column": "...", "class": "pii",
                        "source": {"node": "...", "column": "..."}, "reason": "count"}],
      "inference_risks": [{"node": "model.shop.shared_email_accounts", "column": null,
                           "class": "pii", "masked": false, "kind": "join",
                           "source": {"node": "...", "column": "email"}, "expression": "..."}],
      "exposures": [{"node": "exposure.shop.weekly_revenue", "name": "Weekly revenue",
                     "type": "dashboard", "class": "pii",
                     "state": "unmasked",         # or "masked", "inference_risk"
                     "columns": [{"node": "model.shop.customers", "column": "email"}],
                     "relations": ["model.shop.customers"]}],
      "gates": [{"option": "fail-on-unmasked", "class": "pii", "passed": false,
                 "exposures": ["exposure.shop.weekly_revenue"]}],
      "summary": {"classes": 1, "columns": 9, "exposures": 1, "failed_gates": 1}
    }

``inference_risks[].column`` is null when the class steers a relation's rows (a join, a
filter...), else the column whose window it keys.
"""

from __future__ import annotations

import typing as t

import pydantic

from dbt_lineage.queries.classification_report import Classification, Gate
from dbt_lineage.types import ColumnRef

SCHEMA_VERSION = 1


class _Frozen(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class ColumnKey(_Frozen):
    node: str
    column: str | None = None


class Column(_Frozen):
    node: str
    column: str
    class_: str = pydantic.Field(alias="class")
    label: str
    masked: bool
    declared: str | None
    origin: ColumnKey
    hops: int
    path_kinds: list[str]
    via: ColumnKey | None
    masked_by: str | None


class Declassified(_Frozen):
    node: str
    column: str
    class_: str = pydantic.Field(alias="class")
    source: ColumnKey
    reason: str


class Risk(_Frozen):
    node: str
    column: str | None
    class_: str = pydantic.Field(alias="class")
    masked: bool
    kind: str
    source: ColumnKey
    expression: str


class Exposure(_Frozen):
    node: str
    name: str
    type: str
    class_: str = pydantic.Field(alias="class")
    state: str
    columns: list[ColumnKey]
    relations: list[str]


class GateResult(_Frozen):
    option: str
    class_: str = pydantic.Field(alias="class")
    passed: bool
    exposures: list[str]


class Summary(_Frozen):
    classes: int
    columns: int
    exposures: int
    failed_gates: int


class ClassifyDocument(_Frozen):
    """The whole document; ``ClassifyDocument.model_json_schema()`` gives its JSON Schema."""

    schema_version: int = SCHEMA_VERSION
    classes: list[str]
    columns: list[Column]
    declassified: list[Declassified]
    inference_risks: list[Risk]
    exposures: list[Exposure]
    gates: list[GateResult]
    summary: Summary


def classify_json(report: Classification, gates: t.Sequence[Gate] = ()) -> str:
    """``report`` and the gates' outcome as the JSON document described above.

    >>> import json
    >>> json.loads(classify_json(Classification((), (), (), ())))["summary"]
    {'classes': 0, 'columns': 0, 'exposures': 0, 'failed_gates': 0}
    """
    reached = {r.exposure for r in report.exposures if r.state != "inference_risk"}
    document = ClassifyDocument(
        classes=list(report.classes),
        columns=[
            Column(
                node=item.ref.node_id,
                column=item.ref.column,
                class_=item.name,
                label=item.label,
                masked=item.masked,
                declared=item.declared or None,
                origin=_key(item.origin),
                hops=item.hops,
                path_kinds=list(item.path_kinds),
                via=_key(item.via) if item.via is not None else None,
                masked_by=item.masked_by or None,
            )
            for item in report.columns
        ],
        declassified=[
            Declassified(
                node=item.ref.node_id,
                column=item.ref.column,
                class_=item.name,
                source=_key(item.source),
                reason=item.reason,
            )
            for item in report.declassified
        ],
        inference_risks=[
            Risk(
                node=_key(item.target).node,
                column=_key(item.target).column,
                class_=item.name,
                masked=item.masked,
                kind=item.kind,
                source=_key(item.source),
                expression=item.expression,
            )
            for item in report.risks
        ],
        exposures=[
            Exposure(
                node=item.exposure,
                name=item.exposure_name,
                type=item.exposure_type,
                class_=item.name,
                state=item.state,
                columns=[_key(ref) for ref in item.columns],
                relations=list(item.relations),
            )
            for item in report.exposures
        ],
        gates=[
            GateResult(
                option=gate.option,
                class_=gate.name,
                passed=not gate.failed,
                exposures=[reach.exposure for reach in gate.failed],
            )
            for gate in gates
        ],
        summary=Summary(
            classes=len(report.classes),
            columns=len({item.ref for item in report.columns}),
            exposures=len(reached),
            failed_gates=sum(1 for gate in gates if gate.failed),
        ),
    )
    return document.model_dump_json(indent=2, by_alias=True)


def _key(key: str | ColumnRef) -> ColumnKey:
    if isinstance(key, ColumnRef):
        return ColumnKey(node=key.node_id, column=key.column)
    return ColumnKey(node=key)
