"""The terminal view of ``docs --inherit``: each proposed description with its source."""

from __future__ import annotations

import typing as t

from dbt_lineage.queries.doc_inheritance import ColumnDescription
from dbt_lineage.types import ColumnRef


def docs_text(proposals: t.Mapping[ColumnRef, ColumnDescription]) -> str:
    """Each undocumented column that inherits a description, with the text and its source.

    >>> proposal = ColumnDescription("Primary key.", ColumnRef("model.p.stg", "id"), 1)
    >>> print(docs_text({ColumnRef("model.p.mart", "customer_id"): proposal}))
    1 undocumented column inherits a description (an identity copy of a documented column)
    <BLANKLINE>
      model.p.mart.customer_id  <- model.p.stg.id (1 hop)
          Primary key.
    """
    if not proposals:
        return "No undocumented column is an identity copy of a documented one: nothing to propose."
    count = len(proposals)
    noun = "column inherits" if count == 1 else "columns inherit"
    lines = [
        f"{count} undocumented {noun} a description (an identity copy of a documented column)",
        "",
    ]
    width = max(len(_label(ref)) for ref in proposals)
    for ref, found in proposals.items():
        hops = "1 hop" if found.hops == 1 else f"{found.hops} hops"
        source = _label(found.source) if found.source is not None else "?"
        lines.append(f"  {_label(ref):<{width}}  <- {source} ({hops})")
        lines.append(f"      {' '.join(found.text.split())}")
    return "\n".join(lines)


def _label(key: ColumnRef | None) -> str:
    """A column as users type it (display only, never a key)."""
    return f"{key.node_id}.{key.column}" if key is not None else ""
