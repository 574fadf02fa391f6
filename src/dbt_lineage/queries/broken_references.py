"""References a change breaks: downstream SQL that still reads a removed or renamed column,
an enforced contract whose declared columns no longer match the model (its declared types:
``contract_types``), a data test on a column that no longer exists.

A reader of a gone column is broken when, in head, its lineage still reads that column
(the engine keeps a column the SQL reads but the upstream lacks, as inferred or unresolved),
or when it read the column in base and its SQL did not change since.
"""

from __future__ import annotations

import dataclasses
import typing as t

from dbt_lineage.errors import SqlError
from dbt_lineage.graph.model import LineageGraph
from dbt_lineage.queries.column_changes import REMOVED, RENAMED_PREFIX
from dbt_lineage.queries.diff_side import DiffSide
from dbt_lineage.queries.modified_node import NodeChange
from dbt_lineage.sql.normal_form import normal_form
from dbt_lineage.sql.relation_reads import relation_reads
from dbt_lineage.types import ColumnRef, EdgeKind


@dataclasses.dataclass(frozen=True)
class BrokenReference:
    """``node`` (its ``column``, or '' for the whole node) reads ``reference``, which is gone.

    ``kind`` says what breaks: ``removed`` or ``renamed`` (an upstream column), ``contract``
    or ``test``.
    """

    node: str
    column: str
    reference: ColumnRef
    kind: str
    path: str
    message: str


def broken_references(
    changes: t.Sequence[NodeChange], base: DiffSide, head: DiffSide
) -> list[BrokenReference]:
    """Every reference the changes break, by node then column.

    Args:
        changes: from ``node_changes``.
        base: the base side.
        head: the head side.
    """
    # Nodes whose SQL changed: what they read in base says nothing of what they read now.
    modified = {change.node for change in changes if change.reads_differently}
    found: dict[tuple[str, str, ColumnRef, str], BrokenReference] = {}
    reads: dict[str, frozenset[tuple[str, str]]] = {}
    for change in changes:
        queue = list(_gone(change, base.graph))
        while queue:
            gone, kind, new_name = queue.pop(0)
            readers = set()
            for item in _readers(gone, kind, new_name, base, head, modified):
                passed = _passed_on(item, gone, base, head, modified)
                if passed is not None:  # a select-star model passes the change on
                    queue.append((passed, kind, new_name))
                    continue
                found.setdefault((item.node, item.column, item.reference, item.kind), item)
                readers.add(item.node)
            for item in _sql_readers(gone, kind, new_name, head, readers, reads):
                found.setdefault((item.node, item.column, item.reference, item.kind), item)
            for item in _tests(gone, kind, head):
                found.setdefault((item.node, item.column, item.reference, item.kind), item)
        if change.change != "removed":
            for item in _contract(change, head):
                found.setdefault((item.node, item.column, item.reference, item.kind), item)
    return sorted(found.values(), key=lambda b: (b.node, b.column, b.reference, b.kind))


def _gone(change: NodeChange, base: LineageGraph) -> t.Iterator[tuple[ColumnRef, str, str]]:
    """The base columns a change takes away, how, and the new name of a renamed one."""
    if change.change == "removed":
        for name in base.columns.get(change.node, {}):
            yield ColumnRef(change.node, name), "removed", ""
        return
    for name, what in change.columns.items():
        if what == REMOVED:
            yield ColumnRef(change.node, name), "removed", ""
        elif what.startswith(RENAMED_PREFIX):
            yield ColumnRef(change.node, what[len(RENAMED_PREFIX) :]), "renamed", name


def _readers(
    gone: ColumnRef,
    kind: str,
    new_name: str,
    base: DiffSide,
    head: DiffSide,
    modified: set[str],
) -> t.Iterator[BrokenReference]:
    """Head nodes that still read ``gone``."""
    readers: dict[str, set[str]] = {}
    for side, still in ((head, True), (base, False)):
        edges = (*side.index.direct_out.get(gone, ()), *side.index.indirect_out.get(gone, ()))
        for other in (edge.target for edge in edges):
            node_id = other.node_id if isinstance(other, ColumnRef) else other
            if node_id == gone.node_id or node_id not in head.nodes:
                continue
            if not still and node_id in modified:
                continue  # it read the column in base, and its SQL changed since
            column = other.column if isinstance(other, ColumnRef) else ""
            readers.setdefault(node_id, set()).add(column)
    for node_id, columns in head.graph.columns.items():
        if node_id == gone.node_id or node_id not in head.nodes:
            continue
        for column in columns.values():
            if column.reason.startswith("unknown_column") and _mentions(column.reason, gone):
                if gone.node_id in head.nodes[node_id].depends_on:
                    readers.setdefault(node_id, set()).add(column.column)
    how = f"renamed to {new_name}" if kind == "renamed" else "removed"
    for node_id, columns in readers.items():
        for column in sorted(columns):
            yield BrokenReference(
                node_id,
                column,
                gone,
                kind,
                head.nodes[node_id].path,
                f"still reads {gone.column} of {gone.node_id}, which is {how}",
            )


def _passed_on(
    item: BrokenReference, gone: ColumnRef, base: DiffSide, head: DiffSide, modified: set[str]
) -> ColumnRef | None:
    """The reader's own column, when the reader only passes ``gone`` on as it is (a
    ``select *`` model whose SQL did not change): it does not name the column, so it does
    not break, and its head no longer has it; its readers that name it do break."""
    if item.node in modified or not item.column:
        return None
    ref = ColumnRef(item.node, item.column)
    identity = any(
        edge.target == ref and edge.kind is EdgeKind.IDENTITY
        for edge in base.index.direct_out.get(gone, ())
    )
    if not identity or item.column.casefold() != gone.column.casefold():
        return None
    columns = head.graph.columns.get(item.node, {})
    still = {name.casefold() for name, column in columns.items() if not column.inferred}
    return ref if item.column.casefold() not in still else None


def _sql_readers(
    gone: ColumnRef,
    kind: str,
    new_name: str,
    head: DiffSide,
    known: set[str],
    reads: dict[str, frozenset[tuple[str, str]]],
) -> t.Iterator[BrokenReference]:
    """Head models that read ``gone`` anywhere in their SQL where no output column does
    (a CTE column that never reaches the output): the warehouse fails them all the same.
    ``reads`` caches each model's reads."""
    key = (gone.node_id, gone.column.casefold())
    for node_id in head.index.depends_out.get(gone.node_id, ()):
        if node_id in known or node_id == gone.node_id or node_id not in head.nodes:
            continue
        if node_id not in reads:
            reads[node_id] = _reads(node_id, head)
        if key in reads[node_id]:
            how = f"renamed to {new_name}" if kind == "renamed" else "removed"
            yield BrokenReference(
                node_id,
                "",
                gone,
                kind,
                head.nodes[node_id].path,
                f"its SQL still reads {gone.column} of {gone.node_id}, which is {how}",
            )


def _reads(node_id: str, head: DiffSide) -> frozenset[tuple[str, str]]:
    """(relation id, column folded) for every relation column the head SQL reads."""
    sql = head.nodes[node_id].sql
    if not sql:
        return frozenset()
    try:
        tree = normal_form(sql, head.dialect, head.relations(head.reads(node_id)))
        found = relation_reads(tree, head.schema(tree.relations))
    except SqlError:
        return frozenset()  # its own change says it does not parse
    return frozenset((relation, column.casefold()) for relation, column in found)


def _mentions(reason: str, gone: ColumnRef) -> bool:
    detail = reason.partition(":")[2].casefold()
    return gone.column.casefold() in detail


def _tests(gone: ColumnRef, kind: str, head: DiffSide) -> t.Iterator[BrokenReference]:
    """Data tests in head on a column that is gone (as its SQL says: a catalog of the
    warehouse as the base left it may still list it)."""
    facts = head.nodes.get(gone.node_id)
    for test_id, column in head.tests.get(gone.node_id, ()):
        if column.strip('"`').casefold() == gone.column.casefold():
            yield BrokenReference(
                test_id,
                column,
                gone,
                "test",
                facts.path if facts is not None else "",
                f"tests {gone.column}, which is {kind}",
            )


def _contract(change: NodeChange, head: DiffSide) -> t.Iterator[BrokenReference]:
    """An enforced contract whose declared columns the changed model no longer matches (its
    declared types: ``contract_types``)."""
    facts = head.nodes.get(change.node)
    if facts is None or not facts.contract_enforced or not facts.declared:
        return
    actual = {name.casefold() for name in head.graph.columns.get(change.node, {})}
    if not actual:
        return
    declared = {name.casefold(): name for name in facts.declared}
    found = [
        (name, f"the contract declares {name}, which the model no longer returns")
        for key, name in declared.items()
        if key not in actual
    ]
    found += [
        (name, f"the model returns {name}, which its enforced contract does not declare")
        for name in head.graph.columns[change.node]
        if name.casefold() not in declared
    ]
    for name, message in found:
        ref = ColumnRef(change.node, name)
        yield BrokenReference(change.node, name, ref, "contract", facts.path, message)
