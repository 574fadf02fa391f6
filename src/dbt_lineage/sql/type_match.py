"""Whether two type names mean the same type in a dialect: an enforced contract's declared
``data_type`` against the type a column's SQL gives it.

Both are parsed as the dialect's types (sqlglot folds its aliases: ``varchar`` and ``text``
on DuckDB, ``datetime`` and ``timestamp``...), then a few equivalences sqlglot keeps apart
are folded too (Snowflake's integers are all NUMBER(38,0); BigQuery's are INT64; a VARCHAR
without a length is Snowflake's, BigQuery's and Databricks' string). Only types of different
families (text, number, boolean, date, time, timestamp) are certainly different: two types
of one family that are not known to be the same (INT and BIGINT, VARCHAR and TEXT on
PostgreSQL, two decimal precisions) cannot be told apart here, and say so.
"""

from __future__ import annotations

import typing as t

from sqlglot import exp
from sqlglot.dialects.dialect import Dialect
from sqlglot.errors import SqlglotError

from dbt_lineage.sql.names import names

_T = exp.DataType.Type

_FAMILIES: dict[str, frozenset[t.Any]] = {
    "text": frozenset(exp.DataType.TEXT_TYPES),
    "number": frozenset(exp.DataType.NUMERIC_TYPES),
    "boolean": frozenset({_T.BOOLEAN}),
    "date": frozenset({_T.DATE, _T.DATE32}),
    "time": frozenset({_T.TIME, _T.TIMETZ}),
    "timestamp": frozenset(
        {
            _T.DATETIME,
            _T.DATETIME2,
            _T.DATETIME64,
            _T.TIMESTAMP,
            _T.TIMESTAMPTZ,
            _T.TIMESTAMPLTZ,
            _T.TIMESTAMPNTZ,
            _T.TIMESTAMP_S,
            _T.TIMESTAMP_MS,
            _T.TIMESTAMP_NS,
        }
    ),
}

_INTEGERS = frozenset(exp.DataType.INTEGER_TYPES)
_STRING_DIALECTS = frozenset({"snowflake", "bigquery", "databricks", "spark", "duckdb"})
"""Dialects where a VARCHAR without a length is the one string type."""


def type_match(declared: str, inferred: str, dialect: str) -> bool | None:
    """True when ``declared`` and ``inferred`` are the same type in ``dialect``, False when
    they certainly differ (different families), None when this cannot tell.

    >>> type_match("varchar", "TEXT", "duckdb"), type_match("NUMBER(38,0)", "INT", "snowflake")
    (True, True)
    >>> type_match("numeric(12, 2)", "VARCHAR", "postgres"), type_match("int", "bigint", "")
    (False, None)
    """
    glot = names(dialect).sqlglot
    left, right = _parse(declared, glot), _parse(inferred, glot)
    if left is None or right is None:
        return None
    if _folded(left, glot, dialect) == _folded(right, glot, dialect):
        return True
    families = _family(left), _family(right)
    if None in families:
        return None
    return None if families[0] == families[1] else False


def _parse(text: str, glot: Dialect) -> exp.DataType | None:
    try:
        parsed = exp.DataType.build(text, dialect=glot, udt=True)
    except (SqlglotError, ValueError):
        return None
    return None if parsed.this in (_T.UNKNOWN, _T.USERDEFINED) else parsed


def _folded(data_type: exp.DataType, glot: Dialect, dialect: str) -> str:
    """The type's text with the dialect's equivalences sqlglot keeps apart folded."""
    kind = data_type.this
    if dialect == "snowflake" and kind in _INTEGERS:
        return "DECIMAL(38, 0)"
    if dialect == "bigquery" and kind in _INTEGERS:
        return "BIGINT"
    if dialect in _STRING_DIALECTS and kind in (_T.VARCHAR, _T.TEXT) and not data_type.expressions:
        return "TEXT"
    return data_type.sql(dialect=glot).upper()


def _family(data_type: exp.DataType) -> str | None:
    return next((name for name, kinds in _FAMILIES.items() if data_type.this in kinds), None)
