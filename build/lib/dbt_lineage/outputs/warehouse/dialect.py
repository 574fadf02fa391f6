"""How each supported warehouse spells a string literal and the column types we write.

One escaping rule per adapter, the same as the dbt package's ``escape_string`` macros
(``macros/escape_string.sql``), so that the Python writer and the on-run-end hook agree on
every value. dbt's own ``escape_single_quotes`` macro is not enough here: on BigQuery,
Spark and Snowflake it leaves backslashes alone, and a backslash there is an escape
character, so values would not round-trip.
"""

from __future__ import annotations

import dataclasses
import typing as t

from dbt_lineage.errors import WarehouseError

_Escape = t.Callable[[str], str]


def _double_quotes(value: str) -> str:
    return value.replace("'", "''")


def _backslash_then_double_quotes(value: str) -> str:
    return value.replace("\\", "\\\\").replace("'", "''")


def _backslash_escapes(value: str) -> str:
    return value.replace("\\", "\\\\").replace("'", "\\'")


def _bigquery(value: str) -> str:
    return _backslash_escapes(value).replace("\n", "\\n").replace("\r", "\\r")


@dataclasses.dataclass(frozen=True)
class Dialect:
    """The facts about one adapter that the writer and reader need.

    Attributes:
        name: the dbt adapter type.
        escape: the body of a single-quoted literal holding a string exactly.
        text_type: the column type for identifiers and free text.
        timestamp_type: the column type for a UTC timestamp without zone.
        max_statement_bytes: the size each INSERT stays under (UTF-8 bytes).
        transactional: whether writes can share one transaction.
    """

    name: str
    escape: _Escape
    text_type: str
    timestamp_type: str
    max_statement_bytes: int = 1_000_000
    transactional: bool = True

    def literal(self, value: str | None) -> str:
        r"""The SQL literal for a string, or ``null``.

        >>> print(dialect("postgres").literal("it's"))
        'it''s'
        >>> print(dialect("bigquery").literal("a\\b'c"))
        'a\\b\'c'
        """
        return "null" if value is None else f"'{self.escape(value)}'"


_DIALECTS = {
    "duckdb": Dialect("duckdb", _double_quotes, "varchar", "timestamp"),
    "postgres": Dialect("postgres", _double_quotes, "text", "timestamp"),
    "redshift": Dialect("redshift", _backslash_then_double_quotes, "varchar(65535)", "timestamp"),
    "snowflake": Dialect("snowflake", _backslash_then_double_quotes, "varchar", "timestamp_ntz"),
    "bigquery": Dialect("bigquery", _bigquery, "string", "timestamp", 900_000, transactional=False),
    "spark": Dialect("spark", _backslash_escapes, "string", "timestamp", transactional=False),
    "databricks": Dialect(
        "databricks", _backslash_escapes, "string", "timestamp", transactional=False
    ),
}


def dialect(adapter_type: str) -> Dialect:
    """The dialect of a dbt adapter type.

    >>> dialect("duckdb").literal("O'Brien")
    "'O''Brien'"

    Raises:
        WarehouseError: the adapter is not one dbt-lineage writes to.
    """
    try:
        return _DIALECTS[adapter_type]
    except KeyError:
        raise WarehouseError(
            f"adapter {adapter_type} is not supported by dbt-lineage's warehouse tables: "
            f"supported adapters are {', '.join(sorted(_DIALECTS))}"
        ) from None
