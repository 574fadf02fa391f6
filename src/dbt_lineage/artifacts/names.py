"""Turn the names users type into dbt unique ids, the way dbt's selectors read them."""

from __future__ import annotations

import typing as t

from dbt_lineage.artifacts.close_matches import close_matches
from dbt_lineage.errors import SelectionError


class NamedNode(t.NamedTuple):
    """What a name can match: a node's id, type, name, package and (sources) source name."""

    unique_id: str
    resource_type: str
    name: str
    package_name: str = ""
    source_name: str = ""


def resolve_name(name: str, candidates: t.Iterable[NamedNode]) -> str:
    """The unique id that ``name`` means.

    Accepts a unique id (``model.shop.orders``), a bare name (``orders``), a package-qualified
    name (``shop.orders``), a source as ``source:ecom.raw_orders`` or ``ecom.raw_orders``, and
    ``exposure:weekly_revenue``.

    >>> nodes = [NamedNode("model.shop.orders", "model", "orders", "shop"),
    ...          NamedNode("source.shop.ecom.raw_orders", "source", "raw_orders", "shop", "ecom")]
    >>> resolve_name("source:ecom.raw_orders", nodes)
    'source.shop.ecom.raw_orders'
    >>> resolve_name("orders", nodes)
    'model.shop.orders'

    Raises:
        SelectionError: nothing matches (with "did you mean"), or several do.
    """
    candidates = list(candidates)
    by_id = {node.unique_id: node for node in candidates}
    if name in by_id:
        return name
    method, _, rest = name.partition(":") if ":" in name else ("", "", name)
    matches = [node.unique_id for node in candidates if _matches(node, method, rest)]
    if len(matches) == 1:
        return matches[0]
    if len(matches) > 1:
        preferred = [m for m in matches if by_id[m].resource_type != "source"]
        if len(preferred) == 1 and not method:
            return preferred[0]
        raise SelectionError(f"'{name}' matches several nodes: {', '.join(sorted(matches))}")
    spellings = {node.unique_id: node.name for node in candidates}
    close = close_matches(rest, set(spellings.values()))
    close += close_matches(name, list(spellings))
    raise SelectionError(f"no node named '{name}'", suggestions=list(dict.fromkeys(close))[:3])


def _matches(node: NamedNode, method: str, rest: str) -> bool:
    if method and method != node.resource_type:
        return False
    parts = rest.split(".")
    if node.resource_type == "source":
        spelled = [node.source_name, node.name]
        return parts in (spelled, [node.package_name, *spelled])
    return parts in ([node.name], [node.package_name, node.name])
