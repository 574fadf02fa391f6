"""Normalise the caller's schema and look tables up in it by their parts.

The caller may give ``{"db.schema.table": {col: type}}`` with keys of any depth, or an
already nested ``{catalog: {db: {table: {col: type}}}}`` mapping of one depth. Both become
one index keyed by normalised name parts; a table written in SQL with fewer (or more) parts
than the key matches it when the match is unique, the way a warehouse resolves a name
against its default database and schema.
"""

from __future__ import annotations

import functools
import typing as t

from sqlglot import exp
from sqlglot.dialects.dialect import Dialect
from sqlglot.schema import MappingSchema

Parts = tuple[str, ...]
Columns = dict[str, str]

_PAD = ""


class SchemaIndex:
    """Tables by normalised name parts, with suffix look-up.

    Args:
        tables: normalised parts -> {normalised column: type}.
    """

    def __init__(self, tables: dict[Parts, Columns]) -> None:
        # A table given with no columns is a table whose columns are unknown, not an empty one.
        self.tables = {parts: columns for parts, columns in tables.items() if columns}
        self._by_name: dict[str, list[Parts]] = {}
        for parts in self.tables:
            self._by_name.setdefault(parts[-1], []).append(parts)

    def lookup(self, parts: Parts) -> tuple[Parts, Columns] | None:
        """The schema entry for a table written with ``parts``, or None when unknown/ambiguous.

        >>> index = SchemaIndex({("shop", "main", "orders"): {"id": "int"}})
        >>> index.lookup(("orders",))
        (('shop', 'main', 'orders'), {'id': 'int'})
        """
        exact = self.tables.get(parts)
        if exact is not None:
            return parts, exact
        candidates = [
            key
            for key in self._by_name.get(parts[-1], ())
            if key[-len(parts) :] == parts or parts[-len(key) :] == key
        ]
        if len(candidates) != 1:
            return None
        return candidates[0], self.tables[candidates[0]]


def schema_index(schema: t.Mapping[str, t.Any] | None, dialect: str) -> SchemaIndex:
    """Build a :class:`SchemaIndex` from either accepted schema form.

    Args:
        schema: flat ``{"[db.][schema.]table": {column: type}}`` or nested
            ``{catalog: {db: {table: {column: type}}}}``; None for no schema.
        dialect: the SQL dialect, which decides identifier case folding.

    Returns:
        The index, with table parts and column names normalised for the dialect.

    >>> schema_index({"Main.Orders": {"ID": "int"}}, "duckdb").tables
    {('main', 'orders'): {'id': 'int'}}
    """
    tables: dict[Parts, Columns] = {}
    if not schema:
        return SchemaIndex(tables)
    norm = _normaliser(dialect)
    for key, value in schema.items():
        if _is_columns(value):
            parts = _split(str(key), dialect, norm)
            tables[parts] = _columns(value, norm)
        else:
            _nested(value, (_name(str(key), norm),), tables, norm)
    return SchemaIndex(tables)


def mapping_schema(
    entries: dict[Parts, Columns], dialect: str, *, plain_types: bool = False
) -> MappingSchema:
    """A sqlglot ``MappingSchema`` holding ``entries`` keyed by the parts the query wrote.

    Keys of different depths are left-padded with empty parts so that sqlglot's one-depth
    rule holds; its suffix look-up still finds the shorter names. ``plain_types`` replaces
    every type with ``UNKNOWN``, for types sqlglot cannot parse (``USER-DEFINED``...).
    """
    depth = max((len(parts) for parts in entries), default=1)
    nested: dict[str, t.Any] = {}
    for parts, columns in entries.items():
        padded = (_PAD,) * (depth - len(parts)) + parts
        level = nested
        for part in padded[:-1]:
            level = level.setdefault(part, {})
        level[padded[-1]] = dict.fromkeys(columns, "UNKNOWN") if plain_types else columns
    return MappingSchema(nested, dialect=dialect, normalize=False)


def _is_columns(value: t.Any) -> bool:
    if not isinstance(value, t.Mapping):
        return False
    return all(not isinstance(inner, t.Mapping) for inner in value.values())


def _nested(
    value: t.Any, prefix: Parts, tables: dict[Parts, Columns], norm: t.Callable[[str], str]
) -> None:
    if not isinstance(value, t.Mapping):
        return
    if _is_columns(value):
        tables[prefix] = _columns(value, norm)
        return
    for key, inner in value.items():
        _nested(inner, prefix + (norm(str(key)),), tables, norm)


def _columns(value: t.Mapping[str, t.Any], norm: t.Callable[[str], str]) -> Columns:
    return {_name(str(col), norm): str(typ) for col, typ in value.items()}


def _name(name: str, norm: t.Callable[[str], str]) -> str:
    """A name folded like an unquoted identifier, or like a quoted one when written quoted."""
    if len(name) > 1 and name[0] == name[-1] and name[0] in '"`':
        return getattr(norm, "quoted", _keep)(name[1:-1])
    return norm(name)


def _split(key: str, dialect: str, norm: t.Callable[[str], str]) -> Parts:
    if '"' in key or "`" in key or "[" in key:
        return _split_quoted(key, dialect)
    return tuple(norm(part) for part in key.split("."))


@functools.lru_cache(maxsize=65536)
def _split_quoted(key: str, dialect: str) -> Parts:
    """Parse a quoted name once per process: dbt's relation names recur in many schemas."""
    table = exp.to_table(key, dialect=dialect)
    return tuple(
        _identifier_text(part, dialect) for part in table.parts if isinstance(part, exp.Expr)
    )


def _identifier_text(node: exp.Expr, dialect: str) -> str:
    if isinstance(node, exp.Identifier):
        return Dialect.get_or_raise(dialect).normalize_identifier(node.copy()).name
    return node.name


class _Fold:
    """Case folding of names: what sqlglot's normalize_identifiers does in ``dialect``."""

    def __init__(self, dialect: str) -> None:
        self.dialect = Dialect.get_or_raise(dialect)
        unquoted = self._fold("aB", quoted=False)
        self.unquoted = str.lower if unquoted == "ab" else str.upper if unquoted == "AB" else None

    def __call__(self, name: str) -> str:
        return self.unquoted(name) if self.unquoted else self._fold(name, quoted=False)

    def quoted(self, name: str) -> str:
        return self._fold(name, quoted=True)

    def _fold(self, name: str, quoted: bool) -> str:
        identifier = exp.Identifier(this=name, quoted=quoted)
        return self.dialect.normalize_identifier(identifier).name


def _normaliser(dialect: str) -> _Fold:
    return _Fold(dialect)


def _keep(name: str) -> str:
    return name
