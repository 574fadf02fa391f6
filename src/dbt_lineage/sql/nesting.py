"""Whether SQL text nests deeper than sqlglot's parser may be given.

Compiled, sqlglot's parser recurses into some constructs (subqueries in FROM, chains of
subscripts such as ``a[1][1]...``) with no recursion limit: a few thousand levels overflow
its C stack and kill the process. Text nested past ``MAX_PARSE_DEPTH`` is therefore never
parsed; shallower text that is still too deep for the parser's own limit raises
``RecursionError``, which every caller reports the same way.
"""

from __future__ import annotations

import re

MAX_PARSE_DEPTH = 1000
"""Parentheses or brackets nested deeper than this, or a chain of more subscripts."""

_BRACKETS = re.compile(r"[()\[\]]")
_SUBSCRIPTS = re.compile(rf"(?:\[[^\[\]]*\]\s*){{{MAX_PARSE_DEPTH + 1}}}")


def nesting(sql: str) -> bool:
    """Module entry: whether ``sql`` nests past ``MAX_PARSE_DEPTH`` (counted in its text: a
    bracket in a string literal counts too, which errs only on absurd literals).

    >>> nesting("select ((a)) from t"), nesting("select " + "(" * 1001 + "a" + ")" * 1001)
    (False, True)
    >>> nesting("select a" + "[1]" * 1001), nesting("select " + "f(a), " * 2000 + "1")
    (True, False)
    """
    if sql.count("(") + sql.count("[") <= MAX_PARSE_DEPTH:
        return False  # the common case, at the cost of two counts
    depth = deepest = 0
    for match in _BRACKETS.finditer(sql):
        if match.group() in "([":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth = max(0, depth - 1)
    return deepest > MAX_PARSE_DEPTH or _SUBSCRIPTS.search(sql) is not None
