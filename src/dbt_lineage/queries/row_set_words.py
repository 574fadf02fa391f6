"""What changed in one row clause, in words a reviewer reads: ``WHERE added``,
``LEFT JOIN -> INNER JOIN (orders)``, ``UNION ALL -> UNION DISTINCT``.

Works on the clause texts ``sql.inlined_columns`` gives (one line per occurrence in any scope
of the query, relations named by their unique ids), so it needs no parse of its own.
"""

from __future__ import annotations

import re

_JOIN = re.compile(
    r"^(?P<kind>[A-Z ]*?)\s*\bJOIN\b\s+(?P<relation>\"[^\"]+\"|`[^`]+`|\[[^\]]+\]|\S+)?"
)
_KINDS = {
    "": "INNER",
    "INNER": "INNER",
    "OUTER": "FULL",
    "LEFT OUTER": "LEFT",
    "RIGHT OUTER": "RIGHT",
    "FULL OUTER": "FULL",
}


def row_set_words(name: str, before: str, after: str) -> str:
    """How the clause ``name`` (``WHERE``, ``JOIN``, ...) went from ``before`` to ``after``.

    Args:
        name: the clause as a reader names it.
        before: its text on the base side, one line per occurrence ('' for none).
        after: its text on the head side.

    >>> row_set_words("WHERE", "", 'WHERE "model.a.b".x > 1')
    'WHERE added'
    >>> row_set_words("JOIN", 'LEFT JOIN "model.a.c" AS c ON c.id = 1',
    ...               'JOIN "model.a.c" AS c ON c.id = 1')
    'LEFT JOIN -> INNER JOIN (c)'
    """
    old, new = _lines(before), _lines(after)
    if name == "JOIN":
        return _joins(old, new)
    if name.startswith("UNION") and len(old) == len(new) and old:
        pairs = [f"{a} -> {b}" for a, b in zip(old, new, strict=True) if a != b]
        if pairs:
            return ", ".join(pairs)
    return f"{name} {_how(old, new)}"


def _lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip()]


def _how(old: list[str], new: list[str]) -> str:
    if len(new) > len(old):
        return "added"
    if len(new) < len(old):
        return "removed"
    return "changed"


def _joins(old: list[str], new: list[str]) -> str:
    before, after = [_join(line) for line in old], [_join(line) for line in new]
    if len(before) == len(after):
        words = []
        for (kind_a, relation_a, text_a), (kind_b, relation_b, text_b) in zip(
            before, after, strict=True
        ):
            if kind_a != kind_b:
                words.append(f"{kind_a} -> {kind_b}{_of(relation_b or relation_a)}")
            elif relation_a != relation_b:
                words.append(f"{kind_a} {relation_a or '?'} -> {relation_b or '?'}")
            elif text_a != text_b:
                words.append(f"{kind_a}{_of(relation_a)} condition changed")
        return ", ".join(words) or "JOIN changed"
    removed = [join for join in before if join not in after]
    added = [join for join in after if join not in before]
    words = [f"{kind}{_of(relation)} removed" for kind, relation, _ in removed]
    words += [f"{kind}{_of(relation)} added" for kind, relation, _ in added]
    return ", ".join(words) or f"JOIN {_how(old, new)}"


def _join(line: str) -> tuple[str, str, str]:
    """(kind as ``LEFT JOIN``, the joined relation's short name, the whole text)."""
    match = _JOIN.match(line)
    if match is None:
        return "JOIN", "", line
    kind = " ".join(match.group("kind").split())
    kind = _KINDS.get(kind, kind)
    relation = (match.group("relation") or "").strip('"`[]').rsplit(".", 1)[-1]
    if relation.startswith("("):
        relation = "subquery"
    return f"{kind} JOIN", relation, line


def _of(relation: str) -> str:
    return f" ({relation})" if relation else ""
