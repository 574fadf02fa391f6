"""Whether a column's derivation masks its input: a hash applied over the input column.

A small local rule until the governance rules of issue 10 land: a direct edge is masking
when its SQL expression calls a hash function (md5, sha1/sha2/sha256/..., hash, ...) whose
argument list contains the input column. Anything else (casts, substrings, ``coalesce``)
is not masking: the value, or part of it, survives.
"""

from __future__ import annotations

import functools
import re

HASH_FUNCTIONS = frozenset(
    {
        "md5",
        "md5_hex",
        "md5_binary",
        "sha",
        "sha1",
        "sha1_hex",
        "sha1_binary",
        "sha2",
        "sha2_hex",
        "sha2_binary",
        "sha224",
        "sha256",
        "sha384",
        "sha512",
        "hash",
        "hashbytes",
        "standard_hash",
        "farm_fingerprint",
        "xxhash64",
    }
)

_CALL = re.compile(r"\b([A-Za-z_][A-Za-z0-9_]*)\s*\(")
_ANY_HASH = re.compile(
    r"\b(?:" + "|".join(sorted(HASH_FUNCTIONS, key=len, reverse=True)) + r")\s*\(", re.I
)


def masking(expression: str, column: str) -> bool:
    """Whether ``expression`` hashes ``column``.

    >>> masking("MD5(LOWER(stg_customers.email))", "email")
    True
    >>> masking("SHA2(c.email, 256)", "customer_id")
    False
    >>> masking("UPPER(c.email)", "email")
    False
    """
    if not expression or not _ANY_HASH.search(expression):
        return False
    wanted = _column_pattern(column)
    for call in _CALL.finditer(expression):
        if call.group(1).lower() not in HASH_FUNCTIONS:
            continue
        if wanted.search(_arguments(expression, call.end())):
            return True
    return False


@functools.lru_cache(maxsize=4096)
def _column_pattern(column: str) -> re.Pattern[str]:
    name = re.escape(column)
    return re.compile(rf'(?<![A-Za-z0-9_$]){name}(?![A-Za-z0-9_$(])|"{name}"', re.I)


def _arguments(expression: str, start: int) -> str:
    """The text between the parenthesis that opens at ``start - 1`` and its match."""
    depth = 1
    for position in range(start, len(expression)):
        character = expression[position]
        if character == "(":
            depth += 1
        elif character == ")":
            depth -= 1
            if depth == 0:
                return expression[start:position]
    return expression[start:]
