"""Which relations a pull request changed, how (added, removed, modified), and the class of
each change: breaking, partial, non_breaking, metadata, none or unknown.

Nodes are matched by unique id; a node on both sides is compared by ``modified_node``. A
node that only follows an upstream rename, or only inlines a changed ephemeral model, is
not counted as changed for it.
"""

from __future__ import annotations

import typing as t

from dbt_lineage.queries.column_changes import ADDED, REMOVED, RENAMED_PREFIX
from dbt_lineage.queries.diff_side import DiffSide, NodeFacts, changed_macros
from dbt_lineage.queries.modified_node import NodeChange, modified_node

_NO_FACTS = NodeFacts("", "", None, "", {}, (), (), "")


def node_changes(
    base: DiffSide, head: DiffSide, *, only: t.Collection[str] | None = None
) -> list[NodeChange]:
    """Every relation that differs between ``base`` and ``head``, in unique id order.

    Args:
        base: the base side (the branch merged into).
        head: the head side (the pull request).
        only: compare only these node ids (``--select``); None compares every node.
    """
    _align_places(base, head)
    changes = []
    for node_id in sorted(set(base.nodes) | set(head.nodes)):
        if only is not None and node_id not in only:
            continue
        old, new = base.nodes.get(node_id), head.nodes.get(node_id)
        if old is None and new is not None:
            changes.append(_added(node_id, head))
        elif new is None and old is not None:
            changes.append(_removed(node_id, base))
        elif old is not None and new is not None:
            change = modified_node(node_id, base, head)
            if change is not None:
                changes.append(change)
    return _after_ephemerals(_after_renames(changes, base, head), base, head)


def _after_ephemerals(
    changes: list[NodeChange], base: DiffSide, head: DiffSide
) -> list[NodeChange]:
    """Drops the models whose own code and macros did not change but whose compiled SQL did
    because an ephemeral model they inline changed: that change is the ephemeral's, and the
    impact walk reaches them from it, with the columns that change."""
    changed = {
        change.node
        for change in changes
        if change.reads_differently and head.nodes.get(change.node, _NO_FACTS).ephemeral
    }
    if not changed:
        return changes
    kept = []
    for change in changes:
        old, new = base.nodes.get(change.node), head.nodes.get(change.node)
        inlined = (
            change.change == "modified"
            and change.node not in changed
            and old is not None
            and new is not None
            and old.checksum == new.checksum
            and not changed_macros(change.node, base, head)
            and any(other in changed for other in head.reads(change.node))
        )
        if not inlined:
            kept.append(change)
    return kept


def _align_places(base: DiffSide, head: DiffSide) -> None:
    """Where each side's relations live, by the base's names: a user function qualified by
    the target database or schema (``analytics.my_udf(x)``) is then the same call on both
    sides, as relations named by unique id are. Names two places share stay as written."""
    found: dict[str, dict[tuple[str, ...], set[tuple[str, ...]]]] = {"base": {}, "head": {}}
    for node_id in base.nodes.keys() & head.nodes.keys():
        old, new = base.nodes[node_id], head.nodes[node_id]
        if not old.database or not new.database:
            continue
        canonical = (old.database.casefold(), old.schema.casefold())
        for side, facts in (("base", old), ("head", new)):
            place = (facts.database.casefold(), facts.schema.casefold())
            found[side].setdefault(place[:1], set()).add(canonical[:1])
            found[side].setdefault(place, set()).add(canonical)
    for side, places in ((base, found["base"]), (head, found["head"])):
        side.places = {key: next(iter(names)) for key, names in places.items() if len(names) == 1}


def _after_renames(changes: list[NodeChange], base: DiffSide, head: DiffSide) -> list[NodeChange]:
    """Compare again, with upstream renames applied to the base side, the nodes that read
    a renamed column. Following a rename removes only the rename's own difference: a column
    or row clause that differs with the rename applied is classified as usual, and one that
    differs only once it is applied (a reader still naming the old column) is left to the
    broken references. A node that only follows the rename returns the same data."""
    renames = {
        change.node: {
            what.removeprefix(RENAMED_PREFIX): name
            for name, what in change.columns.items()
            if what.startswith(RENAMED_PREFIX)
        }
        for change in changes
        if change.change == "modified"
    }
    renames = {node_id: renamed for node_id, renamed in renames.items() if renamed}
    if not renames:
        return changes
    followed = []
    for change in changes:
        applied = {
            node_id: renames[node_id]
            for node_id in head.reads(change.node)
            if node_id in renames and node_id != change.node
        }
        if change.change == "modified" and applied and change.klass != "none":
            change = modified_node(change.node, base, head, applied, before=change)
        followed.append(change)
    return followed


def _added(node_id: str, head: DiffSide) -> NodeChange:
    columns = {name: ADDED for name in head.graph.columns.get(node_id, {})}
    return NodeChange(node_id, "added", "non_breaking", columns, ["new node"])


def _removed(node_id: str, base: DiffSide) -> NodeChange:
    columns = {name: REMOVED for name in base.graph.columns.get(node_id, {})}
    return NodeChange(node_id, "removed", "breaking", columns, ["node removed: every column"])
