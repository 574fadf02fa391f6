"""The JSON document of ``docs --inherit --format json``::

{
  "schema_version": 1,
  "proposals": [                            # by node, then column
    {"node": "model.shop.customer_contacts", "column": "contact_email",
     "description": "Contact email.",
     "source": {"node": "model.shop.customers", "column": "email"},  # documented column
     "hops": 1}                             # identity edges between them
  ],
  "summary": {"proposals": 1}
}
"""

from __future__ import annotations

import typing as t

import pydantic

from dbt_lineage.queries.doc_inheritance import ColumnDescription
from dbt_lineage.types import ColumnRef

SCHEMA_VERSION = 1


class _Frozen(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(extra="forbid", frozen=True)


class ColumnKey(_Frozen):
    node: str
    column: str


class Proposal(_Frozen):
    node: str
    column: str
    description: str
    source: ColumnKey
    hops: int


class Summary(_Frozen):
    proposals: int


class DocsDocument(_Frozen):
    """The whole document; ``DocsDocument.model_json_schema()`` gives its JSON Schema."""

    schema_version: int = SCHEMA_VERSION
    proposals: list[Proposal]
    summary: Summary


def docs_json(proposals: t.Mapping[ColumnRef, ColumnDescription]) -> str:
    """The proposals as the JSON document described above.

    >>> import json
    >>> json.loads(docs_json({}))
    {'schema_version': 1, 'proposals': [], 'summary': {'proposals': 0}}
    """
    document = DocsDocument(
        proposals=[
            Proposal(
                node=ref.node_id,
                column=ref.column,
                description=found.text,
                source=ColumnKey(node=found.source.node_id, column=found.source.column),
                hops=found.hops,
            )
            for ref, found in proposals.items()
            if found.source is not None
        ],
        summary=Summary(proposals=len(proposals)),
    )
    return document.model_dump_json(indent=2)
