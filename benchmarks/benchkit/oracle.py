"""Check an engine's column lineage by executing the query: an oracle no one's expectation
can bias.

The query's source tables are created in DuckDB and filled with random rows (small value
domains, duplicated rows and NULLs, the query's own literals among the values, so that joins,
filters and group-bys meet matches). Then one source column at a time is re-randomised over
several perturbations (a fresh draw from the domain, values no other row has, all NULL) and
the query run again. Results are compared as multisets of rows (order is not a result; under
``ORDER BY ... LIMIT`` the rows kept are). Against the engine's answer:

- ``direct``: each reported direct upstream moves its output column under some perturbation;
- ``unrelated``: an output never moves when a column that is neither its direct upstream, nor
  a row-set upstream, nor a window key scoped to it is perturbed;
- ``row_set``: each row-set (indirect) upstream moves the rows or some value;
- ``window``: each column-scoped (window) upstream moves one of the columns it is scoped to
  (that it moves no other is the ``unrelated`` check).

A query whose result depends on the physical order of the rows (ties under ``lag``,
``row_number`` or ``LIMIT``) is not a function of the data: it is detected by loading the
same rows in another order (or again), or by a tie among the rows a limit or a window
orders (:mod:`.oracle_ties`), and is left out (``skipped``), as are queries DuckDB
refuses.

>>> from dbt_lineage.sql.column_lineage import column_lineage
>>> sql = "select id, amount * 2 as doubled from orders where status > 1"
>>> tables = {("orders",): {"id": "int", "amount": "int", "status": "int", "note": "int"}}
>>> lineage = column_lineage(sql, dialect="duckdb", schema={"orders": tables[("orders",)]})
>>> verdict = oracle(sql, "duckdb", tables, lineage)
>>> verdict.skipped, verdict.disagreements, verdict.agreements["direct"]
(None, [], 2)
"""

from __future__ import annotations

import collections
import dataclasses
import random
import typing as t

import duckdb
import sqlglot

from .oracle_data import (
    PROFILES,
    Rows,
    create,
    family,
    freeze,
    load,
    perturbed_rows,
    random_table,
    reorder,
    run,
)
from .oracle_query import duckdb_query
from .oracle_steps import steps_moved
from .oracle_ties import tie_probes, tied

Key = tuple[tuple[str, ...], str]
"""A source column: its table's name parts and its name, case-folded (DuckDB's matching)."""

PERTURBATIONS = ((1, 2), (0, 1, 2))
"""Perturbations of each column on the first data set (values no other row has, NULL) and on
each further one while an edge is pending (a fresh draw from the domain, new values, NULL)."""


@dataclasses.dataclass(frozen=True)
class Finding:
    """One disagreement between the engine and the executed query.

    Attributes:
        check: ``direct``, ``unrelated``, ``row_set``, ``window`` or ``outputs``.
        output: the output column (empty for row-set checks).
        source: the perturbed source column as ``table.column``.
        detail: what was seen.
        step: for an edge the query's result never showed, the step of the query (run alone,
            :mod:`.oracle_steps`) where the source column moved the rows or the values, as
            ``"rows of CTE c"``; empty when it moved no step either.
        reach: for one that moved no step either, why no data set reached it, where the
            steps tell (:func:`.oracle_joins.reach`).
    """

    check: str
    output: str
    source: str
    detail: str
    step: str = ""
    reach: str = ""


@dataclasses.dataclass
class Verdict:
    """What executing one query said of the engine's answer.

    Attributes:
        skipped: why the query was not judged (DuckDB refused it, a type no random value
            fits, the result depends on row order...), else None.
        agreements: checks the execution confirmed, by check.
        disagreements: checks it contradicted.
        executions: queries run.
    """

    skipped: str | None = None
    agreements: collections.Counter[str] = dataclasses.field(default_factory=collections.Counter)
    disagreements: list[Finding] = dataclasses.field(default_factory=list)
    executions: int = 0


def oracle(
    sql: str,
    dialect: str,
    tables: t.Mapping[tuple[str, ...], t.Mapping[str, str]],
    lineage: t.Any,
    *,
    seed: int = 0,
) -> Verdict:
    """Execute ``sql`` over random rows of ``tables`` and judge ``lineage`` (its
    ``QueryLineage``) by the outputs that move when each source column is perturbed.

    Args:
        sql: the query, in ``dialect``; transpiled to DuckDB with sqlglot.
        dialect: a sqlglot dialect name.
        tables: the tables the query may read, by name parts, to ``{column: type}`` (an empty
            type is an integer); those it does not name are left out.
        lineage: the engine's answer for ``sql``.
        seed: the random rows' seed.
    """
    try:
        query, read, named, literals = duckdb_query(sql, dialect)
    except (sqlglot.errors.SqlglotError, ValueError) as error:
        return Verdict(skipped=f"not a query DuckDB can run: {str(error).splitlines()[0][:60]}")
    if "*" in lineage.unresolved:
        return Verdict(skipped="the engine left a star unresolved")
    used = {parts: columns for parts, columns in tables.items() if _fold(parts)[-1] in read}
    if named is not None:  # no star: a column the query never names cannot move it
        skip = {key for parts, columns in used.items() for key in _keys(parts, columns)}
        direct, row_set, scoped = _answer(lineage)
        answered = row_set.union(scoped, *direct.values())
        skip = {key for key in skip if key[1] not in named and key not in answered}
    else:
        skip = set()
    if any(family(type_) is None for columns in used.values() for type_ in columns.values()):
        return Verdict(skipped="a column type random values do not cover")
    with duckdb.connect() as con:
        con.execute("set threads = 1")
        con.execute("set memory_limit = '500MB'")
        return _judge(con, query, used, lineage, random.Random(seed), skip, literals)


ATTEMPTS = len(PROFILES)
"""Random data sets tried at most: a new one (another share of NULLs, another domain) while
a reported edge has not moved yet."""


def _judge(
    con: duckdb.DuckDBPyConnection,
    query: str,
    tables: t.Mapping[tuple[str, ...], t.Mapping[str, str]],
    lineage: t.Any,
    rng: random.Random,
    unread: set[Key],
    literals: dict[str, list[t.Any]],
) -> Verdict:
    verdict = Verdict()
    names = list(lineage.columns)
    moved: dict[Key, tuple[set[int], bool, bool]] = {}
    pending: set[Key] | None = None
    ties = False  # some data set had rows, all with ties
    probes = tie_probes(query)
    for attempt in range(ATTEMPTS):
        profile = PROFILES[attempt]
        data = {
            parts: random_table(rng, columns, literals, profile)
            for parts, columns in tables.items()
        }
        try:
            for parts, (columns, rows, _) in data.items():
                create(con, parts, columns, tables[parts], rows)
            base = run(con, query)
            reordered = []
            for order in ("kept", "reversed", "shuffled"):  # reloaded: rows stored anew
                for parts, (columns, rows, _) in data.items():
                    load(con, parts, columns, reorder(rng, rows, order))
                reordered.append(run(con, query))
        except duckdb.Error as error:
            return Verdict(skipped=f"DuckDB refuses it: {type(error).__name__}")
        verdict.executions += 3
        if any(_multiset(base) != _multiset(other) for other in reordered):
            return Verdict(skipped="its result depends on the order of the rows")
        if base and len(base[0]) != len(names):
            detail = f"DuckDB gives {len(base[0])} columns, the engine {len(names)}"
            verdict.disagreements.append(Finding("outputs", "", "", detail))
            return verdict
        if not base or tied(con, probes):  # nothing can move, or DuckDB breaks ties
            ties = ties or bool(base)
            if attempt < ATTEMPTS - 1:
                continue
            if ties:
                return Verdict(skipped="its result depends on the order of the rows")
            return Verdict(skipped="no rows on any random data set")
        for parts, (columns, rows, _) in data.items():
            load(con, parts, columns, rows)
        base_rows = _multiset(base)
        base_columns = [_column(base, i) for i in range(len(names))]
        for parts, (columns, rows, domains) in data.items():
            variants = PERTURBATIONS[min(attempt, 1)]
            keys = [(_fold(parts), column.casefold()) for column in columns]
            todo = [k for k in keys if k not in unread and (pending is None or k in pending)]
            for key in todo:
                index = keys.index(key)
                outputs, rows_moved, repaired = moved.get(key, (set(), False, False))
                apart = _apart(key, names, lineage)
                for variant in variants:
                    changed = perturbed_rows(rng, rows, index, domains[index], variant)
                    load(con, parts, columns, changed)
                    try:
                        result = run(con, query)
                    except duckdb.Error:  # a value the query cannot take (a cast of text)
                        continue
                    verdict.executions += 1
                    if probes and _multiset(result) != base_rows and tied(con, probes):
                        continue  # which rows a limit keeps among ties is no lineage
                    rows_moved = rows_moved or _multiset(result) != base_rows
                    alone = {i for i, c in enumerate(base_columns) if _column(result, i) != c}
                    if apart is not None and not alone & set(apart):
                        if _project(result, apart) != _project(base, apart):
                            repaired = True  # re-paired (or counted) with no column moving
                        else:
                            rest = set(range(len(names))) - alone - set(apart)
                            alone |= {i for i in rest if _moves_with(result, base, apart, i)}
                    outputs |= alone
                moved[key] = (outputs, rows_moved, repaired)
            if todo:  # each perturbation replaces the whole table: restore it once
                load(con, parts, columns, rows)
                if _multiset(run(con, query)) != base_rows:  # ties DuckDB breaks anyhow
                    return Verdict(skipped="its result depends on the order of the rows")
        pending = _unmoved(names, lineage, moved)
        if not pending:
            break
    found, why = steps_moved(con, query, tables, pending, rng, literals) if pending else ({}, {})
    _compare(verdict, names, lineage, moved, found, why)
    return verdict


def _answer(lineage: t.Any) -> tuple[dict[str, set[Key]], set[Key], dict[Key, set[str]]]:
    """The engine's answer: direct upstreams by output, row-set upstreams, and the output
    columns (case-folded) each column-scoped upstream steers."""
    direct = {name: {_key(u) for u in ups} for name, ups in lineage.columns.items()}
    row_set = {_key(u) for u in lineage.indirect if u.columns is None}
    scoped: dict[Key, set[str]] = collections.defaultdict(set)
    for upstream in lineage.indirect:
        if upstream.columns is not None:
            scoped[_key(upstream)].update(c.casefold() for c in upstream.columns)
    return direct, row_set, scoped


def _apart(key: Key, names: list[str], lineage: t.Any) -> list[int] | None:
    """The outputs ``key`` has no edge to (None when it decides the rows): perturbing it must
    leave them, together and in number, as they were."""
    direct, row_set, scoped = _answer(lineage)
    if key in row_set:
        return None
    return [
        i
        for i, name in enumerate(names)
        if key not in direct[name]
        and name.casefold() not in scoped.get(key, ())
        and name not in lineage.unresolved
    ]


def _unmoved(
    names: list[str], lineage: t.Any, moved: dict[Key, tuple[set[int], bool, bool]]
) -> set[Key]:
    """Source columns with a reported edge that no perturbation has confirmed yet."""
    direct, row_set, scoped = _answer(lineage)
    pending = set()
    for key, (outputs, rows_moved, _) in moved.items():
        if key in row_set and not rows_moved:
            pending.add(key)
        hit = any(names[i].casefold() in scoped.get(key, ()) for i in outputs)
        if key in scoped and key not in row_set and not hit:
            pending.add(key)
        for index, name in enumerate(names):
            if key in direct[name] and index not in outputs and name not in lineage.unresolved:
                pending.add(key)
    return pending


def _compare(
    verdict: Verdict,
    names: list[str],
    lineage: t.Any,
    moved: dict[Key, tuple[set[int], bool, bool]],
    steps: dict[Key, set[tuple[str, str]]],
    why: dict[Key, str],
) -> None:
    """Each check of the engine's answer against the outputs each source column moved (and,
    for an edge they never showed, the steps of the query it moved)."""
    direct, row_set, scoped = _answer(lineage)

    def judge(check: str, agrees: bool, output: str, key: Key, detail: str) -> None:
        if agrees:
            verdict.agreements[check] += 1
        else:
            source = ".".join((*key[0], key[1]))
            step = "" if check == "unrelated" else _step(steps.get(key, set()))
            reach = "" if step or check == "unrelated" else why.get(key, "")
            verdict.disagreements.append(Finding(check, output, source, detail, step, reach))

    for key, (outputs, rows_moved, repaired) in moved.items():
        if repaired:
            apart = ",".join(names[i] for i in _apart(key, names, lineage) or ())
            judge("unrelated", False, apart, key, "re-paired these outputs or their count")
        if key in row_set:
            judge("row_set", rows_moved, "", key, "no perturbation moved the rows")
        if key in scoped and key not in row_set:
            hit = any(names[i].casefold() in scoped[key] for i in outputs)
            judge("window", hit, ",".join(sorted(scoped[key])), key, "moved none of its columns")
        for index, name in enumerate(names):
            if name in lineage.unresolved:
                continue
            if key in direct[name]:
                judge("direct", index in outputs, name, key, "never moved this output")
            elif key not in row_set and name.casefold() not in scoped.get(key, ()):
                judge("unrelated", index not in outputs, name, key, "moved it with no edge")


def _step(seen: set[tuple[str, str]]) -> str:
    """The step to name for an edge: rows moved before values, inner steps before the
    query's own."""
    if not seen:
        return ""
    _, _, label, kind = min((k != "rows", n.startswith("the query"), n, k) for n, k in seen)
    return f"{kind} of {label}"


def _key(upstream: t.Any) -> Key:
    return _fold(
        upstream.table_parts or tuple(upstream.table.split("."))
    ), upstream.column.casefold()


def _fold(parts: t.Iterable[str]) -> tuple[str, ...]:
    return tuple(part.casefold() for part in parts)


# -- SQL ------------------------------------------------------------------------------------


def _keys(parts: tuple[str, ...], columns: t.Iterable[str]) -> list[Key]:
    return [(_fold(parts), column.casefold()) for column in columns]


def _multiset(rows: Rows) -> collections.Counter[tuple[t.Any, ...]]:
    return collections.Counter(tuple(freeze(v) for v in row) for row in rows)


def _moves_with(result: Rows, base: Rows, apart: list[int], index: int) -> bool:
    """Whether output ``index`` moved against the outputs that did not (a ranking permuted
    within its partition keeps its own values and changes their rows)."""
    return _project(result, [*apart, index]) != _project(base, [*apart, index])


def _project(rows: Rows, indices: list[int]) -> collections.Counter[tuple[t.Any, ...]]:
    return collections.Counter(tuple(freeze(row[i]) for i in indices) for row in rows)


def _column(rows: Rows, index: int) -> collections.Counter[t.Any]:
    return collections.Counter(freeze(row[index]) for row in rows)
