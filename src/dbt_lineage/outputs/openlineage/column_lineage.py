"""The ``columnLineage`` dataset facet (ColumnLineageDatasetFacet 1-2-0) of one output.

Each output column lists, under ``fields``, the input columns its values come from, each
with its transformations: DIRECT (IDENTITY, TRANSFORMATION, AGGREGATION, with ``masking``
when the derivation hashes the input) and column-scoped INDIRECT (WINDOW: the partition
and order keys of the window that computes it). The facet-level ``dataset`` list holds the
columns that decide which rows the output has: JOIN, FILTER, GROUP_BY, SORT. OpenLineage
has no DISTINCT subtype: a DISTINCT is a grouping by every selected column, so it is sent
as GROUP_BY, with ``DISTINCT`` in the description so that nothing is lost.
"""

from __future__ import annotations

import functools
import typing as t

from openlineage.client.facet_v2 import column_lineage_dataset as facet

from dbt_lineage.outputs.openlineage.lineage_index import Hop, LineageIndex
from dbt_lineage.types import ColumnRef, EdgeKind

DatasetOf = t.Callable[[str], "tuple[str, str] | None"]
"""A node id to its dataset's (namespace, name), or None when it is no dataset."""


def column_lineage(
    index: LineageIndex,
    node_id: str,
    columns: t.Sequence[str],
    dataset_of: DatasetOf,
    producer: str,
) -> facet.ColumnLineageDatasetFacet | None:
    """The facet for ``node_id``'s ``columns``; None when no column has a known input."""
    fields: dict[str, facet.Fields] = {}
    for column in columns:
        target = ColumnRef(node_id, column)
        hops = [(hop, False) for hop in index.direct(target)]
        hops += [(hop, True) for hop in index.column_indirect(target)]
        inputs = _input_fields(hops, dataset_of)
        if inputs:
            fields[column] = facet.Fields(inputFields=inputs)
    dataset = _input_fields([(hop, True) for hop in index.rows(node_id)], dataset_of)
    if not fields and not dataset:
        return None
    return facet.ColumnLineageDatasetFacet(fields=fields, dataset=dataset, producer=producer)


@functools.lru_cache(maxsize=65536)
def transformation(
    kind: EdgeKind, expression: str = "", masking: bool = False
) -> facet.Transformation:
    """OpenLineage's transformation for one of our edge kinds (shared, never changed).

    >>> transformation(EdgeKind.DISTINCT).subtype
    'GROUP_BY'
    """
    kind_type, subtype = kind.openlineage
    description = expression or None
    if kind is EdgeKind.DISTINCT:
        subtype = "GROUP_BY"
        description = f"DISTINCT: {expression}" if expression else "DISTINCT"
    return facet.Transformation(
        type=kind_type, subtype=subtype, description=description, masking=masking
    )


def _input_fields(
    hops: t.Iterable[tuple[Hop, bool]], dataset_of: DatasetOf
) -> list[facet.InputField]:
    """One input field per (dataset, column), with all its transformations: a source and
    the seed that loads it are two dbt nodes but one dataset."""
    grouped: dict[tuple[str, str, str], list[facet.Transformation]] = {}
    for hop, indirect in hops:
        dataset = dataset_of(hop.source.node_id)
        if dataset is None:
            continue
        change = transformation(hop.kind, hop.expression, hop.masking and not indirect)
        known = grouped.setdefault((*dataset, hop.source.column), [])
        if change not in known:
            known.append(change)
    return [
        facet.InputField(namespace=key[0], name=key[1], field=key[2], transformations=changes)
        for key, changes in sorted(grouped.items())
    ]
