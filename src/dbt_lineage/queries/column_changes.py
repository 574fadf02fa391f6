"""What happened to each column of a node whose SQL changed: added, removed, renamed,
retyped, or its logic changed.

Columns are compared by their inlined expressions (``sql.inlined_columns``): a column kept
under a new name with the same expression is a rename (a YAML ``meta: {renamed_from: old}``
says so explicitly); an expression that differs only in a CAST's type, or a warehouse type
that changed, is a retype; any other difference in expression, or in what it reads, is a
change of logic.
"""

from __future__ import annotations

import typing as t

ADDED = "added"
REMOVED = "removed"
RETYPED = "retyped"
LOGIC = "logic"
RENAMED_PREFIX = "renamed_from:"


class Forms(t.Protocol):
    """Each output column's inlined expression, with and without CAST types."""

    expression: str
    untyped: str


def column_changes(
    base: t.Mapping[str, Forms],
    head: t.Mapping[str, Forms],
    *,
    base_types: t.Mapping[str, str] | None = None,
    head_types: t.Mapping[str, str] | None = None,
    hints: t.Mapping[str, str] | None = None,
) -> dict[str, str]:
    """Each changed column (head's name; base's for a removed one) -> what changed.

    Args:
        base: the base side's columns by name.
        head: the head side's columns by name.
        base_types: the base side's column types (catalog or declared), by name.
        head_types: the head side's, by name.
        hints: head column name -> the base name YAML says it was renamed from.

    Names are matched without regard to case.

    >>> from dbt_lineage.sql.inlined_columns import ColumnForm as F
    >>> column_changes({"a": F("x", "x"), "b": F("y", "y"), "c": F("CAST(z AS INT)", "z?")},
    ...                {"a2": F("x", "x"), "b": F("y + 1", "y + 1"),
    ...                 "c": F("CAST(z AS TEXT)", "z?"), "d": F("w", "w")})
    {'b': 'logic', 'c': 'retyped', 'a2': 'renamed_from:a', 'd': 'added'}
    """
    base_by = {name.casefold(): name for name in base}
    head_by = {name.casefold(): name for name in head}
    base_types = {k.casefold(): v for k, v in (base_types or {}).items()}
    head_types = {k.casefold(): v for k, v in (head_types or {}).items()}
    changes: dict[str, str] = {}
    for key, name in head_by.items():
        if key not in base_by:
            continue
        old, new = base[base_by[key]], head[name]
        if old.expression != new.expression:
            changes[name] = RETYPED if old.untyped == new.untyped else LOGIC
        elif _retyped(base_types.get(key), head_types.get(key)):
            changes[name] = RETYPED
    gone = [key for key in base_by if key not in head_by]
    new_keys = [key for key in head_by if key not in base_by]
    renamed = _renames(gone, new_keys, base, head, base_by, head_by, hints or {})
    for key in new_keys:
        name = head_by[key]
        changes[name] = f"{RENAMED_PREFIX}{base_by[renamed[key]]}" if key in renamed else ADDED
    taken = set(renamed.values())
    for key in gone:
        if key not in taken:
            changes[base_by[key]] = REMOVED
    return changes


def _renames(
    gone: list[str],
    new_keys: list[str],
    base: t.Mapping[str, Forms],
    head: t.Mapping[str, Forms],
    base_by: dict[str, str],
    head_by: dict[str, str],
    hints: t.Mapping[str, str],
) -> dict[str, str]:
    """New column key -> the gone column key it renames: by hint first, then by the same
    expression when exactly one gone column has it."""
    renamed: dict[str, str] = {}
    folded_hints = {new.casefold(): old.casefold() for new, old in hints.items()}
    for key in new_keys:
        old = folded_hints.get(key)
        if old in gone and old not in renamed.values():
            renamed[key] = old
    by_expression: dict[str, list[str]] = {}
    for key in gone:
        if key not in renamed.values():
            by_expression.setdefault(base[base_by[key]].expression, []).append(key)
    for key in new_keys:
        if key in renamed:
            continue
        same = by_expression.get(head[head_by[key]].expression, [])
        if len(same) == 1 and same[0] not in renamed.values():
            renamed[key] = same[0]
    return renamed


def _retyped(old: str | None, new: str | None) -> bool:
    return bool(old) and bool(new) and old.casefold() != new.casefold()  # type: ignore[union-attr]
