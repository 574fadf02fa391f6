"""Names as a dialect reads them: relation names split into parts, identifiers folded."""

from __future__ import annotations

import functools


@functools.lru_cache(maxsize=65536)
def table_parts(name: str, dialect: str) -> tuple[str, ...]:
    """A relation name's normalized parts, as the engine reports table parts.

    >>> table_parts('"Shop"."main".ORDERS', "snowflake")
    ('Shop', 'main', 'ORDERS')
    >>> table_parts('"Shop"."main".ORDERS', "duckdb")  # DuckDB folds quoted names too
    ('shop', 'main', 'orders')
    """
    from sqlglot import exp  # here, not at the top: a build served from cache never parses
    from sqlglot.errors import ParseError
    from sqlglot.optimizer.normalize_identifiers import normalize_identifiers

    try:
        table = exp.to_table(name, dialect=dialect)
    except (ParseError, ValueError):
        return tuple(part.strip('"`[]') for part in name.split("."))
    table = normalize_identifiers(table, dialect=dialect)
    return tuple(part.name for part in table.parts)
