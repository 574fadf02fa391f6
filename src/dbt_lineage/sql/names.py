"""Names as a dialect reads them: identifiers matched to stored names, relation names split.

A warehouse stores each column under one name (``catalog.json`` and ``information_schema``
report it). An identifier in SQL finds it by the dialect's rule: PostgreSQL folds unquoted
identifiers to lower case and Snowflake to upper case, quoted ones are exact; DuckDB,
BigQuery, Databricks/Spark and Redshift (by default) match case-insensitively. When the exact
rule finds nothing and exactly one stored name matches ignoring case, that one is meant
(users often hand lower-case names for Snowflake); when several do, the name is ambiguous.
"""

from __future__ import annotations

import functools
import re
import string
import typing as t

from sqlglot.dialects.dialect import Dialect, NormalizationStrategy

_INSENSITIVE = (
    NormalizationStrategy.CASE_INSENSITIVE,
    NormalizationStrategy.CASE_INSENSITIVE_UPPERCASE,
)


class Names:
    """The identifier rules of one dialect.

    Identifiers in a tree are first normalised the dialect's way (sqlglot's
    ``normalize_identifiers``): unquoted ones folded, quoted ones kept, or every one folded in
    a case-insensitive dialect. ``key`` then turns a stored name into the form a normalised
    identifier has when it means that name.

    >>> Names("snowflake").key("amount"), Names("postgres").key("Amount")
    ('amount', 'Amount')
    >>> Names("duckdb").key("UserId")
    'userid'
    """

    def __init__(self, dialect: str) -> None:
        self.dialect = dialect
        self.sqlglot = Dialect.get_or_raise(dialect)
        """sqlglot's dialect object, made once: sqlglot makes a new one per call given a name."""
        strategy = self.sqlglot.normalization_strategy
        self.insensitive = strategy in _INSENSITIVE

    def key(self, stored: str) -> str:
        """What a normalised identifier naming ``stored`` looks like."""
        return stored.casefold() if self.insensitive else stored

    def index(self, stored: t.Iterable[str]) -> NameIndex:
        """An index of stored names to match identifiers against."""
        return NameIndex(self, stored)


class NameIndex:
    """Stored names looked up by normalised identifier, exactly first, then ignoring case.

    The look-up tables are built on first use: most tables a query could read are never
    asked for a column.
    """

    __slots__ = ("_stored", "_insensitive", "_exact", "_folded")

    def __init__(self, names: Names, stored: t.Iterable[str]) -> None:
        self._stored = stored if isinstance(stored, (list, tuple, dict)) else list(stored)
        self._insensitive = names.insensitive
        self._exact: dict[str, str] | None = None
        self._folded: dict[str, list[str]] | None = None

    def match(self, identifier: str) -> tuple[str | None, list[str]]:
        """The stored name ``identifier`` means, or None and the names it could mean.

        >>> index = Names("postgres").index(["Amount", "amount", "userId"])
        >>> index.match("amount"), index.match("Amount"), index.match("userid")
        (('amount', []), ('Amount', []), ('userId', []))
        >>> index.match("AMOUNT")
        (None, ['Amount', 'amount'])
        >>> index.match("other")
        (None, [])
        """
        exact = self._exact
        if exact is None:
            exact = self._exact = self._build_exact()
        found = exact.get(identifier)
        if found is not None:
            return found, []
        folded = self._folded
        if folded is None:
            folded = self._folded = {}
            for name in self._stored:
                folded.setdefault(name.casefold(), []).append(name)
        candidates = folded.get(identifier.casefold(), [])
        if len(candidates) == 1:
            return candidates[0], []
        return None, candidates

    def _build_exact(self) -> dict[str, str]:
        exact: dict[str, str] = {}
        if self._insensitive:
            for name in self._stored:
                exact.setdefault(name.casefold(), name)
        else:
            for name in self._stored:
                exact.setdefault(name, name)
        return exact

    def __contains__(self, identifier: str) -> bool:
        return self.match(identifier)[0] is not None

    def __len__(self) -> int:
        return len(self._stored)


@functools.lru_cache(maxsize=65536)
def table_parts(name: str, dialect: str) -> tuple[str, ...]:
    """A relation name's normalised parts, as the engine reports table parts.

    >>> table_parts('"Shop"."main".ORDERS', "snowflake")
    ('Shop', 'main', 'ORDERS')
    >>> table_parts('"Shop"."main".ORDERS', "duckdb")  # DuckDB folds quoted names too
    ('shop', 'main', 'orders')
    """
    from sqlglot import exp
    from sqlglot.errors import ParseError
    from sqlglot.optimizer.normalize_identifiers import normalize_identifiers

    plain = plain_table_parts(name, dialect)
    if plain is not None:
        return plain
    try:
        table = exp.to_table(name, dialect=dialect)
    except (ParseError, ValueError):
        return tuple(part.strip('"`[]') for part in name.split("."))
    table = normalize_identifiers(table, dialect=dialect)
    return tuple(part.name for part in table.parts)


_PLAIN_PART = re.compile(r'"[^".]+"|[A-Za-z_][A-Za-z0-9_]*')


def plain_table_parts(name: str, dialect: str) -> tuple[str, ...] | None:
    """The normalised parts of a relation name of one to three plain parts (identifiers
    that are no keyword, or double-quoted names without dots or quotes inside), without
    parsing it: what parsing it gives, at a fraction of the cost; None for any other name.

    >>> plain_table_parts('"Shop"."main".ORDERS', "snowflake")
    ('Shop', 'main', 'ORDERS')
    >>> plain_table_parts('"Shop"."main".ORDERS', "duckdb"), plain_table_parts("a.select", "duckdb")
    (('shop', 'main', 'orders'), None)
    >>> plain_table_parts("PROJ.dataset.t", "bigquery") is None
    True
    """
    parts = name.split(".")
    if not 0 < len(parts) <= 3 or not all(_PLAIN_PART.fullmatch(part) for part in parts):
        return None
    rules = names(dialect).sqlglot  # get_or_raise makes a new dialect object per call
    if type(rules).normalize_identifier is not Dialect.normalize_identifier:
        return None  # BigQuery's rule depends on where the identifier sits in the tree
    keywords = rules.tokenizer_class.KEYWORDS
    from sqlglot import exp

    found = []
    for part in parts:
        quoted = part[0] == '"'
        if quoted and rules.IDENTIFIER_START != '"':
            return None
        if not quoted and part.upper() in keywords:
            return None
        identifier = exp.Identifier(this=part[1:-1] if quoted else part, quoted=quoted)
        found.append(rules.normalize_identifier(identifier).name)
    return tuple(found)


def fold_identifiers(expression: t.Any, dialect: Dialect, sql: str | None) -> None:
    """Fold the identifiers of ``expression`` (parsed from ``sql``) in place, the dialect's way.

    What sqlglot's ``normalize_identifiers`` does, in two thirds of its time (it asks every
    node of the tree for its metadata): where the dialect folds by sqlglot's common rule
    and the SQL carries no ``sqlglot.meta`` comment (``case_sensitive`` exempts a part of
    the tree). Otherwise, or for a tree not parsed here (``sql`` None), sqlglot's own pass.

    >>> import sqlglot
    >>> sql = 'select Amount, "Id" from Shop.Orders'
    >>> tree = sqlglot.parse_one(sql, dialect="snowflake")
    >>> fold_identifiers(tree, Dialect.get_or_raise("snowflake"), sql)
    >>> tree.sql("snowflake")
    'SELECT AMOUNT, "Id" FROM SHOP.ORDERS'
    """
    from sqlglot import exp
    from sqlglot.optimizer.normalize_identifiers import normalize_identifiers

    if (
        sql is None
        or "sqlglot.meta" in sql
        or type(dialect).normalize_identifier is not Dialect.normalize_identifier
    ):
        normalize_identifiers(expression, dialect=dialect)
        return
    strategy = dialect.normalization_strategy
    if strategy is NormalizationStrategy.CASE_SENSITIVE:
        return
    fold = _folding(
        strategy
        in (NormalizationStrategy.UPPERCASE, NormalizationStrategy.CASE_INSENSITIVE_UPPERCASE),
        dialect.ASCII_ONLY_NORMALIZATION,
    )
    every = strategy in _INSENSITIVE  # quoted identifiers fold too
    for identifier in expression.find_all(exp.Identifier):
        if every or not identifier.quoted:
            identifier.set("this", fold(identifier.this))


def _folding(upper: bool, ascii_only: bool) -> t.Callable[[str], str]:
    if not ascii_only:
        return str.upper if upper else str.lower
    table = _ASCII_UPPER if upper else _ASCII_LOWER
    return lambda text: text.translate(table)


_ASCII_UPPER = str.maketrans(string.ascii_lowercase, string.ascii_uppercase)
_ASCII_LOWER = str.maketrans(string.ascii_uppercase, string.ascii_lowercase)


def names(dialect: str) -> Names:
    """Module entry: the identifier rules of ``dialect``."""
    return _names(dialect)


@functools.lru_cache(maxsize=64)
def _names(dialect: str) -> Names:
    return Names(dialect)
