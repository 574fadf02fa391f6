"""The execution oracle's data: random rows by column type, perturbations, the DuckDB
tables they are loaded into (see :mod:`.oracle`), and what the steps of a query
(:mod:`.oracle_steps`) give on them, and whether that moved."""

from __future__ import annotations

import collections
import datetime
import random
import threading
import typing as t

import duckdb

Rows = list[tuple[t.Any, ...]]
Domain = tuple[list[t.Any], list[t.Any]]
"""A column's values: the base values of its type, and the query's literals of that type."""


def family(type_: str) -> str | None:
    """The family of a column type whose values are drawn (an empty type is an integer), or
    None for types random scalars do not cover (JSON, arrays, structs)."""
    text = type_.casefold()
    if text.endswith("[]"):  # an array of scalars: its length decides what an UNNEST gives
        element = family(text[:-2])
        return f"{element}[]" if element in ("int", "text") else None
    if not text or "int" in text:
        return "int"
    for kind, marks in _FAMILIES.items():
        if any(mark in text for mark in marks):
            return kind
    return None


_FAMILIES = {
    "double": ("double", "float", "number", "numeric", "decimal", "real"),
    "text": ("char", "text", "string"),
    "bool": ("bool",),
    "timestamp": ("timestamp", "datetime"),
    "date": ("date",),
}
_DUCKDB_TYPES = {
    "int": "INTEGER", "double": "DOUBLE", "text": "VARCHAR", "bool": "BOOLEAN",
    "timestamp": "TIMESTAMP", "date": "DATE", "int[]": "INTEGER[]", "text[]": "VARCHAR[]",
}  # fmt: skip
_BASE: dict[str, list[t.Any]] = {
    "int": [0, 1, 2, 3],
    "double": [0.5, 1.0, 2.0, 2.5],
    "text": ["a", "b", "1", "2"],
    "bool": [True, False],
    "date": [datetime.date(2024, 1, d) for d in (1, 2, 3)],
    "timestamp": [datetime.datetime(2024, 1, d, h) for d in (1, 2) for h in (0, 12)],
    "int[]": [[1], [], [1, 2], [2, 1, 1]],
    "text[]": [["a"], [], ["a", "b"], ["b", "a", "a"]],
}


PROFILES = ((0.15, 4), (0.5, 4), (0.0, 2), (0.3, 4), (0.15, 2), (0.6, 2), (0.05, 4), (0.3, 2))
"""The data sets tried, in turn: (share of NULLs, values of each type drawn from). Later
sets reach what the first cannot: a guard column that is NULL on every row, or never; a
narrow domain where every join and group meets a match."""


def random_table(
    rng: random.Random,
    columns: t.Mapping[str, str],
    literals: dict[str, list[t.Any]],
    profile: tuple[float, int] = PROFILES[0],
) -> tuple[list[str], Rows, list[Domain]]:
    """Random rows of a table: its column names, rows, and each column's value domain (the
    base values of its type, and the query's literals of that type, drawn more often),
    drawn with ``profile``'s share of NULLs from its first values of each type."""
    nulls, width = profile
    families = [t.cast(str, family(type_)) for type_ in columns.values()]
    domains = [
        (_BASE[f][:width], [v for v in literals.get(f, []) if v not in _BASE[f]]) for f in families
    ]
    count = rng.randint(5, 8)
    rows: Rows = [tuple(draw(rng, domain, nulls) for domain in domains) for _ in range(count)]
    rows += [rng.choice(rows) for _ in range(rng.randint(1, 2))]  # duplicates
    rng.shuffle(rows)
    return list(columns), rows, domains


def draw(rng: random.Random, domain: tuple[list[t.Any], list[t.Any]], nulls: float = 0.15) -> t.Any:
    base, literals = domain
    if rng.random() < nulls:
        return None
    return rng.choice(literals if literals and rng.random() < 0.4 else base)


def reorder(rng: random.Random, rows: Rows, order: str) -> Rows:
    if order == "kept":
        return list(rows)
    if order == "reversed":
        return rows[::-1]
    return rng.sample(rows, len(rows))


def perturbed(
    rng: random.Random, domain: tuple[list[t.Any], list[t.Any]], count: int, variant: int
) -> list[t.Any]:
    if variant % 4 == 2:
        return [None] * count
    if variant % 4 == 1:
        return [fresh(domain[0][0], i) for i in range(count)]
    if variant % 4 == 3:  # the same, in the other order: whatever order a key made, one flips it
        return [fresh(domain[0][0], count - 1 - i) for i in range(count)]
    return [draw(rng, domain) for _ in range(count)]


def perturbed_rows(
    rng: random.Random, rows: Rows, index: int, domain: Domain, variant: int
) -> Rows:
    """``rows`` with column ``index`` replaced by a perturbation (:func:`perturbed`)."""
    values = perturbed(rng, domain, len(rows), variant)
    return [(*r[:index], v, *r[index + 1 :]) for r, v in zip(rows, values, strict=False)]


def fresh(like: t.Any, i: int) -> t.Any:
    """A value of ``like``'s type that no drawn value equals."""
    if isinstance(like, bool):
        return i % 2 == 0
    if isinstance(like, int):
        return 100 + i
    if isinstance(like, float):
        return 100.5 + i
    if isinstance(like, datetime.datetime):
        return datetime.datetime(2030, 1, 1 + i, 6)
    if isinstance(like, datetime.date):
        return datetime.date(2030, 1, 1 + i)
    if isinstance(like, list):  # lengths 0, 1, 2, 0...: a perturbation that moves row counts
        return [fresh(like[0] if like else "", i + j) for j in range(i % 3)]
    return f"z{i}"


def create(
    con: duckdb.DuckDBPyConnection,
    parts: tuple[str, ...],
    columns: list[str],
    types: t.Mapping[str, str],
    rows: Rows,
) -> None:
    if len(parts) == 3:
        con.execute(f"attach if not exists ':memory:' as {quote(parts[0])}")
    if len(parts) >= 2:
        con.execute(f"create schema if not exists {relation(parts[:-1])}")
    defs = ", ".join(f"{quote(c)} {_DUCKDB_TYPES[t.cast(str, family(types[c]))]}" for c in columns)
    con.execute(f"create or replace table {relation(parts)} ({defs})")
    load(con, parts, columns, rows)


def load(
    con: duckdb.DuckDBPyConnection, parts: tuple[str, ...], columns: list[str], rows: Rows
) -> None:
    con.execute(f"delete from {relation(parts)}")
    marks = ", ".join("?" for _ in columns)
    con.executemany(f"insert into {relation(parts)} values ({marks})", [list(row) for row in rows])


def run(con: duckdb.DuckDBPyConnection, query: str) -> Rows:
    """The query's rows; interrupted (a ``duckdb.Error``) past ``TIMEOUT`` seconds (a recursive
    CTE over a cycle in random rows never ends)."""
    timer = threading.Timer(TIMEOUT, con.interrupt)
    timer.start()
    try:
        return con.execute(query).fetchall()
    finally:
        timer.cancel()


TIMEOUT = 5.0


def quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def relation(parts: t.Sequence[str]) -> str:
    return ".".join(quote(part) for part in parts)


def freeze(value: t.Any) -> t.Any:
    """A value as a hashable one, floats rounded (DuckDB's sums differ in the last bits)."""
    if isinstance(value, float):
        return round(value, 9)
    if isinstance(value, (list, tuple)):
        return tuple(freeze(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((k, freeze(v)) for k, v in value.items()))
    return value


Seen = dict[str, tuple[collections.Counter, collections.Counter]]
"""What each step gave: its row-id tuples and its whole rows, as multisets, by label."""


def witness(con: duckdb.DuckDBPyConnection, found: t.Sequence[t.Any]) -> Seen:
    """Each step's rows and row ids on the data in ``con`` (steps DuckDB refuses: none);
    ``found``: :class:`.oracle_steps.Step` s."""
    seen: Seen = {}
    for step in found:
        try:
            rows = run(con, step.sql)
        except duckdb.Error:
            continue
        ids = collections.Counter(freeze(row[len(row) - step.rids :]) for row in rows)
        if not step.rids:  # no base table: the step's rows are its count
            ids = collections.Counter({(): len(rows)})
        seen[step.label] = (ids, collections.Counter(freeze(row) for row in rows))
    return seen


def moved(before: Seen, after: Seen) -> set[tuple[str, str]]:
    """``(step, "rows" or "values")`` for each step whose row ids or values changed."""
    found = set()
    for label, (ids, rows) in after.items():
        if label not in before:
            continue
        if ids != before[label][0]:
            found.add((label, "rows"))
        if rows != before[label][1]:
            found.add((label, "values"))
    return found
