"""The columns that masking macros compute, found in each model's SQL as written."""

from __future__ import annotations

import re
import typing as t

from dbt_lineage.graph.model import LineageGraph
from dbt_lineage.types import ColumnRef


def masking_macros(
    graph: LineageGraph, raw_code: t.Mapping[str, str], macros: t.Collection[str]
) -> dict[ColumnRef, str]:
    """Columns computed by a call to one of ``macros``, with the macro's name.

    A column counts when the model's SQL selects the call under an alias,
    ``{{ mask_email('email') }} as masked_email`` (a package prefix, ``{{ pkg.mask(...) }}``,
    and whitespace control, ``{{- ... -}}``, allowed). Compiled SQL no longer shows the macro,
    so the SQL as written is read; the alias is matched to the graph's columns ignoring case.

    >>> from dbt_lineage.graph.model import ColumnNode, NodeType
    >>> graph = LineageGraph(columns={"model.p.m": {"masked": ColumnNode(
    ...     node_id="model.p.m", column="masked", type=NodeType.COLUMN, name="masked")}})
    >>> sql = "select {{ util.mask_email('email') }} as MASKED from {{ ref('c') }}"
    >>> masking_macros(graph, {"model.p.m": sql}, ["mask_email"])
    {ColumnRef(node_id='model.p.m', column='masked'): 'mask_email'}
    """
    if not macros:
        return {}
    names = "|".join(re.escape(name) for name in sorted(macros, key=len, reverse=True))
    call = re.compile(
        r"\{\{-?\s*(?:\w+\.)?(?P<macro>" + names + r")\s*\(.*?\)\s*-?\}\}"
        r"\s*(?:as\s+)?(?P<alias>\"[^\"]+\"|`[^`]+`|\[[^\]]+\]|[A-Za-z_][\w$]*)",
        re.IGNORECASE | re.DOTALL,
    )
    found: dict[ColumnRef, str] = {}
    for node_id, code in raw_code.items():
        if node_id not in graph.columns:
            continue
        by_name = {name.casefold(): name for name in graph.columns[node_id]}
        for match in call.finditer(code):
            alias = match.group("alias").strip('"`[]').casefold()
            if alias in by_name:
                found[ColumnRef(node_id, by_name[alias])] = match.group("macro")
    return found
