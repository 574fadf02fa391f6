"""The caller's schema, indexed: tables by normalised name parts, columns by stored name.

The caller may give ``{"db.schema.table": {column: type}}`` with keys of any depth, or an
already nested ``{catalog: {db: {table: {column: type}}}}`` mapping of one depth. Table names
are normalised the dialect's way (write a name quoted to keep its case; BigQuery keeps the
case of every part of a qualified name, as it does in SQL); a table written in
SQL with fewer (or more) parts than the key matches it when the match is unique, the way a
warehouse resolves a name against its default database and schema. Column names are the
names as the warehouse stores them, kept verbatim.
"""

from __future__ import annotations

import dataclasses
import functools
import typing as t

from sqlglot import exp
from sqlglot.dialects.dialect import Dialect

from dbt_lineage.sql.names import NameIndex, Names, names, plain_table_parts

Parts = tuple[str, ...]
Columns = dict[str, str]


@dataclasses.dataclass
class Table:
    """A table of the schema: its parts, its columns (stored name -> type) and their index.

    ``complete`` is False for a list that may be only some of the columns (YAML's
    documented ones): a star over the table is then not expanded. ``strict`` is False for a
    list that may be out of date (a catalog older than the SQL) or incomplete: a column the
    SQL reads that it lacks is then inferred, not unknown.
    """

    parts: Parts
    columns: Columns
    index: NameIndex
    complete: bool = True
    strict: bool = True


class SchemaIndex:
    """Tables by normalised name parts, with suffix look-up."""

    def __init__(self, tables: dict[Parts, Table], names: Names) -> None:
        self.tables = tables
        self.names = names
        self._by_name: dict[str, list[Parts]] = {}
        for parts in self.tables:
            self._by_name.setdefault(parts[-1], []).append(parts)

    def lookup(self, parts: Parts) -> Table | None:
        """The table written with ``parts``, or None when unknown or ambiguous.

        >>> index = schema_index({"shop.main.orders": {"id": "int"}}, "duckdb")
        >>> index.lookup(("orders",)).parts
        ('shop', 'main', 'orders')
        """
        exact = self.tables.get(parts)
        if exact is not None:
            return exact
        candidates = [
            key
            for key in self._by_name.get(parts[-1], ())
            if key[-len(parts) :] == parts or parts[-len(key) :] == key
        ]
        if len(candidates) != 1:
            return None
        return self.tables[candidates[0]]


def schema_index(
    schema: t.Mapping[str, t.Any] | None,
    dialect: str,
    partial: t.Collection[str] = (),
    lenient: t.Collection[str] = (),
) -> SchemaIndex:
    """Build a :class:`SchemaIndex` from either accepted schema form.

    Args:
        schema: flat ``{"[db.][schema.]table": {column: type}}`` or nested
            ``{catalog: {db: {table: {column: type}}}}``; None for no schema.
        dialect: the SQL dialect, which decides how table names fold.
        partial: keys of ``schema`` (flat form) whose column lists may be incomplete.
        lenient: keys of ``schema`` (flat form) whose column lists may be out of date.

    >>> schema_index({"Main.Orders": {"ID": "int"}}, "duckdb").tables[("main", "orders")].columns
    {'ID': 'int'}
    """
    rules = names(dialect)
    tables: dict[Parts, Table] = {}
    if not schema:
        return SchemaIndex(tables, rules)
    fold = _fold(dialect)
    partial, lenient = set(partial), set(lenient)
    for key, value in schema.items():
        if _is_columns(value):
            if value:  # a table given with no columns is one whose columns are unknown
                parts = _split(str(key), dialect, fold)
                complete = key not in partial
                strict = complete and key not in lenient
                tables[parts] = _table(parts, value, rules, complete, strict)
        else:
            name = str(key) if fold.qualified_exact else _name(str(key), fold)
            _nested(value, (name,), tables, fold, rules)
    return SchemaIndex(tables, rules)


def _table(
    parts: Parts, value: t.Mapping[str, t.Any], rules: Names, complete: bool, strict: bool
) -> Table:
    if all(type(column) is str and column[:1] != '"' for column in value):
        columns = dict(value)
    else:
        columns = {_stored(str(column)): str(data_type) for column, data_type in value.items()}
    return Table(parts, columns, rules.index(columns), complete, strict)


def _stored(name: str) -> str:
    """A stored column name; one pair of surrounding double quotes is not part of it."""
    if len(name) > 1 and name[0] == name[-1] == '"':
        return name[1:-1]
    return name


def _is_columns(value: t.Any) -> bool:
    if type(value) is not dict and not isinstance(value, t.Mapping):
        return False
    # Types are strings: checked first, the costly check against the abstract Mapping (a
    # few microseconds a column, every column of every upstream) is left for the rest.
    return all(type(inner) is str or not isinstance(inner, t.Mapping) for inner in value.values())


def _nested(
    value: t.Any, prefix: Parts, tables: dict[Parts, Table], fold: _Fold, rules: Names
) -> None:
    # A loop over a stack, not recursion: a schema nested however deep cannot overflow it.
    pending: list[tuple[t.Any, Parts]] = [(value, prefix)]
    while pending:
        value, prefix = pending.pop()
        if not isinstance(value, t.Mapping):
            continue
        if _is_columns(value):
            if value:
                if fold.qualified_exact and len(prefix) == 1:
                    prefix = (_name(prefix[0], fold),)  # unqualified: folded as in SQL
                tables[prefix] = _table(prefix, value, rules, True, True)
            continue
        inner = [
            (child, prefix + ((str(key) if fold.qualified_exact else _name(str(key), fold)),))
            for key, child in value.items()
        ]
        pending.extend(reversed(inner))  # in the mapping's order


def _name(name: str, fold: _Fold) -> str:
    """A name folded like an unquoted identifier, or like a quoted one when written quoted."""
    if len(name) > 1 and name[0] == name[-1] and name[0] in '"`':
        return fold.quoted(name[1:-1])
    return fold(name)


def _split(key: str, dialect: str, fold: _Fold) -> Parts:
    if '"' in key or "`" in key or "[" in key:
        return _split_quoted(key, dialect)
    parts = key.split(".")
    if fold.qualified_exact and len(parts) > 1:
        return tuple(parts)
    return tuple(fold(part) for part in parts)


@functools.lru_cache(maxsize=65536)
def _split_quoted(key: str, dialect: str) -> Parts:
    """Parse a quoted name once per process: dbt's relation names recur in many schemas."""
    plain = plain_table_parts(key, dialect)
    if plain is not None:
        return plain
    table = exp.to_table(key, dialect=dialect)
    return tuple(
        _identifier_text(part, dialect) for part in table.parts if isinstance(part, exp.Expr)
    )


def _identifier_text(node: exp.Expr, dialect: str) -> str:
    """A part of a freshly parsed name, normalised in place (where it sits decides BigQuery's
    rule: the parts of a qualified table name keep their case)."""
    if isinstance(node, exp.Identifier):
        return names(dialect).sqlglot.normalize_identifier(node).name
    return node.name


@functools.lru_cache(maxsize=64)
def _fold(dialect: str) -> _Fold:
    return _Fold(dialect)


class _Fold:
    """Case folding of table names: what sqlglot's normalize_identifiers does in ``dialect``."""

    def __init__(self, dialect: str) -> None:
        self.dialect = Dialect.get_or_raise(dialect)
        unquoted = self._fold("aB", quoted=False)
        self.unquoted = str.lower if unquoted == "ab" else str.upper if unquoted == "AB" else None
        table = exp.Table(this=exp.to_identifier("aB"), db=exp.to_identifier("cD"))
        self.qualified_exact = self.dialect.normalize_identifier(table.this).name == "aB"
        """Whether the parts of a qualified table name keep their case (BigQuery)."""

    def __call__(self, name: str) -> str:
        return self.unquoted(name) if self.unquoted else self._fold(name, quoted=False)

    def quoted(self, name: str) -> str:
        return self._fold(name, quoted=True)

    def _fold(self, name: str, quoted: bool) -> str:
        identifier = exp.Identifier(this=name, quoted=quoted)
        return self.dialect.normalize_identifier(identifier).name
