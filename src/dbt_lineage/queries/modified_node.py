"""How one relation present on both sides of a diff changed: its class (breaking, partial,
non_breaking, metadata, none or unknown), its column changes and the row clauses that
changed (``node_changes`` compares every node with it).

A node's compiled SQL is compared as a parsed tree with comments and formatting ignored and
every relation name replaced by the unique id it refers to (``sql.normal_form``), so
environment schemas make no difference; a cheap textual comparison first spares the parse
for every node whose SQL is the same up to those names.
"""

from __future__ import annotations

import dataclasses
import re
import typing as t

from dbt_lineage.errors import SqlError
from dbt_lineage.queries.column_changes import ADDED, LOGIC, REMOVED, RETYPED, column_changes
from dbt_lineage.queries.diff_side import DiffSide, NodeFacts, changed_macros, same_code
from dbt_lineage.queries.row_set_words import row_set_words
from dbt_lineage.resolve.cache import placeholders
from dbt_lineage.sql.inlined_columns import (
    ROW_CLAUSES,
    ColumnForm,
    InlinedColumns,
    inlined_columns,
)
from dbt_lineage.sql.normal_form import NormalTree, normal_form

CLASSES = ("breaking", "partial", "non_breaking", "metadata", "none", "unknown")
"""Change classes, from the one that changes most data to the one we could not tell."""

_CLAUSE_NAMES = {
    "where": "WHERE",
    "join": "JOIN",
    "group_by": "GROUP BY",
    "having": "HAVING",
    "qualify": "QUALIFY",
    "distinct": "DISTINCT",
    "limit": "LIMIT",
    "union": "UNION branches",
    "from": "FROM",
}


@dataclasses.dataclass
class NodeChange:
    """One changed relation: ``change`` is added, removed or modified; ``klass`` one of
    ``CLASSES``; ``columns`` each changed column -> added, removed, renamed_from:<old>,
    retyped or logic."""

    node: str
    change: str
    klass: str
    columns: dict[str, str] = dataclasses.field(default_factory=dict)
    reasons: list[str] = dataclasses.field(default_factory=list)
    sql_changed: bool | None = None
    """Whether its SQL reads differently; None: as its class says (not for ``metadata``
    and ``none``). A node that only follows an upstream rename is ``none`` with its SQL
    changed."""
    clauses: tuple[str, ...] = ()
    """The row clauses (``ROW_CLAUSES`` kinds) whose text changed."""
    clause_words: dict[str, str] = dataclasses.field(default_factory=dict)
    """What changed in each of ``clauses``, in words ("WHERE added")."""

    @property
    def reads_differently(self) -> bool:
        if self.sql_changed is not None:
            return self.sql_changed
        return self.klass not in ("metadata", "none")


def modified_node(
    node_id: str,
    base: DiffSide,
    head: DiffSide,
    renames: t.Mapping[str, t.Mapping[str, str]] | None = None,
    *,
    before: NodeChange | None = None,
) -> NodeChange | None:
    """How ``node_id``, a node of both sides, changed; None when it did not.

    Args:
        node_id: the node.
        base: the base side.
        head: the head side.
        renames: upstream node -> {base column: head column}, applied to the base side's
            inlined expressions before they are compared.
        before: the node's change without ``renames``: the result is then that change
            without the differences the renames account for (``before`` itself when they
            account for none of it).
    """
    change = _modified(node_id, base.nodes[node_id], head.nodes[node_id], base, head, renames)
    if before is None:
        return change
    if change is None or not change.reads_differently:
        return before
    return _following(before, change, renames or {}, base, head)


def _following(
    change: NodeChange,
    again: NodeChange,
    applied: t.Mapping[str, t.Mapping[str, str]],
    base: DiffSide,
    head: DiffSide,
) -> NodeChange:
    """``change`` without the differences the renames in ``applied`` account for."""
    columns = {name: what for name, what in change.columns.items() if name in again.columns}
    clauses = tuple(kind for kind in change.clauses if kind in again.clauses)
    if columns == change.columns and clauses == change.clauses:
        return change  # the rename explains none of it
    what = ", ".join(
        f"{node_id}.{old} -> {new}"
        for node_id, renamed in sorted(applied.items())
        for old, new in sorted(renamed.items())
    )
    follows = f"follows the rename of {what}"
    unresolved = _unresolved(change.node, head)
    if not columns and not clauses and not unresolved:
        return NodeChange(change.node, "modified", "none", reasons=[follows], sql_changed=True)
    rest = _class_of(change.node, columns, clauses, change.clause_words, unresolved, base, head)
    rest.reasons.append(follows)
    return rest


def _modified(
    node_id: str,
    old: NodeFacts,
    new: NodeFacts,
    base: DiffSide,
    head: DiffSide,
    renames: t.Mapping[str, t.Mapping[str, str]] | None = None,
) -> NodeChange | None:
    """``renames``: upstream node -> {base column: head column}, applied to the base
    side's inlined expressions before they are compared."""
    if old.sql is None and new.sql is None:
        return _no_sql(node_id, old, new, base, head)
    if old.sql is None or new.sql is None:
        side = "base" if old.sql is None else "head"
        return NodeChange(
            node_id,
            "modified",
            "unknown",
            reasons=[f"no compiled SQL on the {side} side: run `dbt compile` there"],
        )
    if _same_plain(node_id, old, new, base, head):
        return _same_logic(node_id, old, new, base, head)
    try:
        before, after = _tree(node_id, old, base), _tree(node_id, new, head)
    except SqlError as error:
        return NodeChange(node_id, "modified", "unknown", reasons=[error.one_line()])
    if before.text == after.text:
        return _same_logic(node_id, old, new, base, head)
    try:
        old_columns = inlined_columns(before, base.schema(before.relations))
        new_columns = inlined_columns(after, head.schema(after.relations))
        if renames:
            old_columns = _renamed(old_columns, renames)
    except SqlError as error:
        return NodeChange(node_id, "modified", "unknown", reasons=[error.one_line()])
    return _classed(node_id, old_columns, new_columns, new, base, head)


def _classed(
    node_id: str,
    old: InlinedColumns,
    new: InlinedColumns,
    facts: NodeFacts,
    base: DiffSide,
    head: DiffSide,
) -> NodeChange:
    columns = column_changes(
        old.columns,
        new.columns,
        base_types=_types(base, node_id),
        head_types=_types(head, node_id),
        hints=facts.renamed_from,
    )
    clauses = tuple(kind for kind in ROW_CLAUSES if old.rows.get(kind) != new.rows.get(kind))
    words = {
        kind: row_set_words(_CLAUSE_NAMES[kind], old.rows.get(kind, ""), new.rows.get(kind, ""))
        for kind in clauses
    }
    return _class_of(node_id, columns, clauses, words, _unresolved(node_id, head), base, head)


def _unresolved(node_id: str, head: DiffSide) -> list[str]:
    return [
        column.column
        for column in head.graph.columns.get(node_id, {}).values()
        if not column.resolved and not column.inferred
    ]


def _class_of(
    node_id: str,
    columns: dict[str, str],
    clauses: tuple[str, ...],
    words: t.Mapping[str, str],
    unresolved: list[str],
    base: DiffSide,
    head: DiffSide,
) -> NodeChange:
    """The class and reasons of a modified node from what differs in it (``words``: what
    changed in each row clause)."""
    reasons = []
    if clauses:
        klass = "breaking"
        named = ", ".join(words.get(kind) or f"{_CLAUSE_NAMES[kind]} changed" for kind in clauses)
        reasons.append(f"row set changes: {named}")
    elif any(what not in (ADDED,) for what in columns.values()):
        klass = "partial"
    elif columns:
        klass = "non_breaking"
    else:
        klass = "unknown"
        reasons.append("the SQL changed in a way traced to no column and no row clause")
    if unresolved:
        klass = "unknown"
        reasons.append(f"unresolved column(s) in head: {', '.join(sorted(unresolved))}")
    reasons.extend(_column_reasons(columns))
    macros = changed_macros(node_id, base, head)
    if same_code(base.nodes[node_id], head.nodes[node_id]):
        if macros:
            reasons.append(f"its code is unchanged: the difference comes from {macros}")
        else:
            reasons.append(
                "its code is unchanged: the difference comes from macros, vars or the "
                "environment (is_incremental() on a table that exists on one side only)"
            )
    elif macros:
        reasons.append(f"besides its own code, {macros} changed")
    kept = {kind: words[kind] for kind in clauses if kind in words}
    return NodeChange(
        node_id, "modified", klass, columns, reasons, clauses=clauses, clause_words=kept
    )


def _renamed(
    columns: InlinedColumns, renames: t.Mapping[str, t.Mapping[str, str]]
) -> InlinedColumns:
    """``columns`` with each read of a renamed upstream column under its new name."""
    rules = [
        (
            re.compile(rf'"{re.escape(node_id)}"\.("?){re.escape(old)}\1(?!\w)', re.IGNORECASE),
            f'"{node_id}".{new}',
        )
        for node_id, renamed in renames.items()
        for old, new in renamed.items()
    ]

    def rewrite(text: str) -> str:
        for pattern, replacement in rules:
            text = pattern.sub(lambda _, new=replacement: new, text)
        return text

    return InlinedColumns(
        rows={kind: rewrite(text) for kind, text in columns.rows.items()},
        columns={
            # the untyped text stays lazy, as ColumnForm makes it only where two differ
            name: ColumnForm(rewrite(form.expression), lambda form=form: rewrite(form.untyped))
            for name, form in columns.columns.items()
        },
    )


def _column_reasons(columns: dict[str, str]) -> list[str]:
    counts: dict[str, int] = {}
    for what in columns.values():
        key = "renamed" if what.startswith("renamed_from:") else what
        counts[key] = counts.get(key, 0) + 1
    order = (ADDED, REMOVED, "renamed", RETYPED, LOGIC)
    return [f"{counts[key]} column(s) {key}" for key in order if key in counts]


def _same_logic(
    node_id: str, old: NodeFacts, new: NodeFacts, base: DiffSide, head: DiffSide
) -> NodeChange | None:
    """A node whose SQL means the same on both sides: metadata, formatting or nothing."""
    reasons = []
    if old.contract_enforced != new.contract_enforced:
        enforced = "enforced" if new.contract_enforced else "no longer enforced"
        reasons.append(f"contract {enforced}")
    if old.config != new.config:
        reasons.append("config changed")
    if old.docs != new.docs:
        reasons.append("documentation, meta or tags changed")
    if reasons:
        return NodeChange(node_id, "modified", "metadata", reasons=reasons)
    same = same_code(old, new)
    if same is None:
        return NodeChange(
            node_id,
            "modified",
            "unknown",
            reasons=[
                f"its file cannot be compared: the sides come from dbt versions that checksum "
                f"files differently ({old.checksum_scheme} and {new.checksum_scheme}) and the "
                "manifest holds no code for it (a seed's data): check it"
            ],
        )
    if not same:
        return NodeChange(node_id, "modified", "none", reasons=["comments or formatting only"])
    return None


def _no_sql(
    node_id: str, old: NodeFacts, new: NodeFacts, base: DiffSide, head: DiffSide
) -> NodeChange | None:
    """A seed or a source: its columns as the warehouse (or its YAML) has them."""
    before, after = _types(base, node_id), _types(head, node_id)
    columns: dict[str, str] = {}
    folded = {name.casefold(): name for name in before}
    for name, data_type in after.items():
        was = folded.pop(name.casefold(), None)
        if was is None:
            columns[name] = ADDED
        elif before[was] and data_type and before[was].casefold() != data_type.casefold():
            columns[name] = RETYPED
    columns.update({name: REMOVED for name in folded.values()})
    if new.resource_type == "seed" and same_code(old, new) is False:
        reasons = ["seed data changed: its rows may differ", *_column_reasons(columns)]
        return NodeChange(node_id, "modified", "breaking", columns, reasons)
    if columns:
        only_added = all(what == ADDED for what in columns.values())
        klass = "non_breaking" if only_added else "partial"
        return NodeChange(node_id, "modified", klass, columns, _column_reasons(columns))
    return _same_logic(node_id, old, new, base, head)


def _same_plain(
    node_id: str, old: NodeFacts, new: NodeFacts, base: DiffSide, head: DiffSide
) -> bool:
    """Whether the node's SQL is the same text on both sides once the relation names it
    reads are replaced by their unique ids and whitespace is folded (``_plain``). The same
    SQL reading the same names is (most nodes of a pull request: folding every node's
    whitespace took 0.25 s of GitLab's diff)."""
    old_names, new_names = _names(node_id, base), _names(node_id, head)
    if old.sql == new.sql and list(old_names.items()) == list(new_names.items()):
        return True  # in the same order too: ``_plain`` replaces names of a length in order
    return _plain(old, old_names) == _plain(new, new_names)


def _names(node_id: str, side: DiffSide) -> dict[str, str]:
    """The relation names the node reads, to their unique ids."""
    names = {}
    for other in side.reads(node_id):
        found = side.nodes.get(other)
        if found is not None and found.relation_name:
            names[found.relation_name] = other
    return names


def _plain(facts: NodeFacts, names: dict[str, str]) -> str:
    """The SQL text with the relation names in ``names`` replaced by their unique ids."""
    text = placeholders(facts.sql or "", {name: f"<{node}>" for name, node in names.items()})
    return re.sub(r"\s+", " ", text).strip()


def _tree(node_id: str, facts: NodeFacts, side: DiffSide) -> NormalTree:
    relations = side.relations(side.reads(node_id))
    return normal_form(facts.sql or "", side.dialect, relations, side.place)


def _types(side: DiffSide, node_id: str) -> dict[str, str]:
    """A seed's or source's columns with their types; columns known only from how
    downstream SQL reads them (inferred) say nothing about the relation itself."""
    return {
        name: column.data_type
        for name, column in side.graph.columns.get(node_id, {}).items()
        if not column.inferred
    }
