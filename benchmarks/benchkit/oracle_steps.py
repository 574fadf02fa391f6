"""The steps of a query, run alone: where an edge the final rows cannot show does its work.

An edge that no perturbation moves in the query's result is either wrong or folded away by
a later step (a join key under a GROUP BY that merges the rows it multiplied, a filter
inside an ``EXISTS`` that stays true, a ranking whose order key no output reveals). To tell
the two apart without anyone's expectation, each ``SELECT`` of the query is run alone, with
the CTEs it can see, and with the DuckDB ``rowid`` of each base table it reads appended to
its columns (gathered into a sorted list per group when it groups). A row id names a source
row whatever its values, so:

- the step's **rows** moved when the multiset of its row-id tuples changed (a join key, a
  filter, a group key, a limit's sort key that chose other rows);
- its **values** moved when the multiset of its whole rows (values pinned to row ids)
  changed.

A grouping, ``DISTINCT`` or ``QUALIFY`` step also runs as its rows before that clause (the
``FROM``, joins and ``WHERE`` alone), a ``DISTINCT`` one that does not group as its values
before it too (a ranking's order key decides which row gets which number, that ``DISTINCT``
folds away), and each join with a condition as a step of its own (:mod:`.oracle_joins`: the
pairs its condition held for), and each window's partitions (:mod:`.oracle_windows`). A step
that reads the columns of an outer query (correlated) runs beside its rows
(:mod:`.oracle_lateral`). What each step reads is :mod:`.oracle_reads`'s. Each column is
perturbed with new values in the rows' order and reversed (an order key flips one of them),
NULL, and a fresh draw.

>>> [s.label for s in steps("with c as (select k from t where v > 1) select count(*) from c")]
['the query', 'CTE c']
"""

from __future__ import annotations

import collections
import dataclasses
import re
import typing as t

import duckdb
import sqlglot
from sqlglot import exp

from .oracle_data import PROFILES, create, moved, perturbed_rows, random_table, witness
from .oracle_joins import gates, probes, reach
from .oracle_lateral import correlated_step
from .oracle_reads import probe_reads
from .oracle_reads import reads as read
from .oracle_sql import grouped, is_base, items, rowid
from .oracle_windows import partition_probes

Key = tuple[tuple[str, ...], str]


@dataclasses.dataclass(frozen=True)
class Step:
    """One ``SELECT`` of a query, as a query of its own.

    Attributes:
        label: where it is in the query (``CTE c``, ``derived table s``, ``an EXISTS
            subquery``...).
        sql: the DuckDB SQL that runs it alone.
        rids: how many row-id columns end its rows (0: it reads no base table directly).
        live_from: the step whose row ids tell which tables gave it a row, when its own do
            not (a grouping's, a window probe's: its rows before the fold); empty: its own.
    """

    label: str
    sql: str
    rids: int
    reads: frozenset[tuple[str, str, bool, frozenset[frozenset[str]]]] = frozenset()
    """The columns its own clauses name: (base table, column, whether every mention is a
    CASE or COALESCE branch after the first, the join probes each mention needs to have had
    rows to read a value: :func:`.oracle_joins.gates`), case-folded."""
    rid_names: tuple[str, ...] = ()
    """The base table (case-folded) of each row id that ends its rows, where each is one
    row's: a table whose row id is NULL in every row (the side of an outer join that paired
    none, kept by a later filter) gave the step no value."""
    live_from: str = ""


def steps(query: str) -> list[Step]:
    """The steps of ``query`` (DuckDB SQL), outermost first (none when sqlglot cannot read
    the SQL it wrote)."""
    try:
        tree = sqlglot.parse_one(query, dialect="duckdb")
    except sqlglot.errors.SqlglotError:
        return []
    ctes = {cte.alias_or_name.casefold() for cte in tree.find_all(exp.CTE)}
    unused = _unused_ctes(tree)
    found: list[Step] = []
    labels: collections.Counter[str] = collections.Counter()
    placed = _placed(tree, unused)
    bodies = {id(select): place for select, place in placed}
    defined = collections.Counter(cte.alias_or_name.casefold() for cte in tree.find_all(exp.CTE))
    once = {  # the body of each CTE the query defines once
        cte.alias_or_name.casefold(): cte.this
        for cte in tree.find_all(exp.CTE)
        if defined[cte.alias_or_name.casefold()] == 1
    }
    for select, place in placed:
        joins = probes(select, place, ctes)
        gated = gates(select, joins)
        for alias, body in _bodies(select, once, bodies).items():
            gated.setdefault(alias, set()).add(body)
        tables = _base_tables(select, ctes)
        groups = grouped(select)
        parts = partition_probes(select, place, tables, bool(groups))
        windows = {(part.window, part.ordered): part.label for part in parts}
        whole = select.copy()
        rids = [] if select.args.get("distinct") else _rids(tables, groups)
        whole.set("expressions", [*whole.expressions, *rids])
        sql, count, beside = _beside(whole, select, len(rids), ctes)
        folds = groups or select.args.get("distinct") or select.args.get("qualify")
        # the joins and filters of a folding step are named by the step before its fold (that
        # of one that reads no base table too, beside the rows whose columns it reads)
        split = bool(folds) and (bool(tables) or beside)
        rest = ("expressions", "group", "having", "qualify", "order") if split else ()
        label = f"{place}, before its {'grouping' if groups else 'DISTINCT or QUALIFY'}"
        # what a grouping reads, it reads from the rows before it
        after = {label} if groups and split else set()
        named = () if beside else _rid_names(select, tables)
        # the rows before a fold tell which tables gave a row to a step whose row ids do not
        source = label if (groups or not rids) and tables else ""
        reads = read(select, ctes, rest, gated, after=after, windows=windows, beside=beside)
        found.append(Step(place, sql, count, reads, named, source))
        if split:
            before = exp.select(*_rids(tables, False)) if tables else exp.select("1")
            for arg in ("from_", "joins", "laterals", "where"):
                value = select.args.get(arg)
                if value:
                    before.set(
                        arg, [v.copy() for v in value] if isinstance(value, list) else value.copy()
                    )
            sql, count, _ = _beside(before, select, len(tables), ctes)
            reads = read(select, ctes, ("joins", "where"), gated, beside=beside)
            found.append(Step(label, sql, count, reads, named))
        if select.args.get("distinct") and tables and not groups:
            # its values and the rows QUALIFY keeps, before DISTINCT folds them (a ranking's
            # order key), and before the ORDER BY and LIMIT that apply after it
            kept = select.copy()
            for arg in ("distinct", "order", "limit", "offset"):
                kept.set(arg, None)
            kept.set("expressions", [*kept.expressions, *_rids(tables, False)])
            sql, count, _ = _beside(kept, select, len(tables), ctes)
            reads = read(select, ctes, ("expressions", "qualify"), gated, windows=windows)
            found.append(Step(f"{place}, before its DISTINCT", sql, count, reads))
        for probe in joins:
            labels[probe.label] += 1
            label = probe.label + (f" #{labels[probe.label]}" if labels[probe.label] > 1 else "")
            sql = with_ctes(probe.tree, select).sql(dialect="duckdb")
            found.append(Step(label, sql, probe.rids, probe_reads(select, ctes, probe)))
        for part in parts:
            keys = frozenset().union(*(read(select, ctes, (), gated, k) for k in part.keys))
            sql = with_ctes(part.tree, select).sql("duckdb")
            # the rows it groups: those before the fold, or the step's own
            found.append(Step(part.label, sql, 1, keys, named, label if folds else place))
    return found


def steps_moved(
    con: duckdb.DuckDBPyConnection,
    query: str,
    tables: t.Mapping[tuple[str, ...], t.Mapping[str, str]],
    keys: set[Key],
    rng: t.Any,
    literals: dict[str, list[t.Any]],
) -> tuple[dict[Key, set[tuple[str, str]]], dict[Key, str]]:
    """For each source column of ``keys``, the steps of ``query`` its perturbations moved
    (``(label, "rows" or "values")``), over up to three random data sets of ``tables``; and
    for each that moved none, why no data reached it, where the steps tell (:func:`reach`)."""
    found = steps(query)
    hits: dict[Key, set[tuple[str, str]]] = {key: set() for key in keys}
    had_rows: set[str] = set()
    ran: set[str] = set()
    live: dict[str, set[str]] = {}  # by step: the tables whose row id some row had
    for profile in (PROFILES[0], PROFILES[2], PROFILES[1]):
        todo = {key for key, seen in hits.items() if not any(k == "rows" for _, k in seen)}
        if not todo:
            break
        data = {
            parts: random_table(rng, columns, literals, profile)
            for parts, columns in tables.items()
        }
        for parts, (columns, rows, _) in data.items():
            create(con, parts, columns, tables[parts], rows)
        base = witness(con, found)
        had_rows |= {label for label, (_, rows) in base.items() if rows}
        ran |= set(base)
        for step in found:
            if step.rid_names and not step.live_from and step.label in base:
                ids = base[step.label][0]
                live.setdefault(step.label, set()).update(
                    name
                    for key in ids
                    for name, rid in zip(step.rid_names, key, strict=False)
                    if rid is not None
                )
        for parts, (columns, rows, domains) in data.items():
            for index, column in enumerate(columns):
                key = (tuple(p.casefold() for p in parts), column.casefold())
                if key not in todo:
                    continue
                for variant in (1, 3, 2, 0):  # new values, reversed (an order flips), NULL, a draw
                    changed = perturbed_rows(rng, rows, index, domains[index], variant)
                    # created anew: a row id counts on after a delete
                    create(con, parts, columns, tables[parts], changed)
                    hits[key] |= moved(base, witness(con, found))
            create(con, parts, columns, tables[parts], rows)
    names = {key: {c.casefold() for c in columns} for key, columns in tables.items()}
    unshown = [key for key, seen in hits.items() if not seen]
    had_rows |= {step.label for step in found} - ran  # refused: not known to have had none
    return hits, {key: reach(key, found, had_rows, names, live) for key in unshown}


def _placed(tree: exp.Expr, unused: set[str]) -> list[tuple[exp.Select, str]]:
    """Each ``SELECT`` of ``tree`` (but those of CTEs no part of the query reads), outermost
    first, with its step's label: its place, numbered from the second at the same place."""
    placed = []
    labels: collections.Counter[str] = collections.Counter()
    for select in tree.find_all(exp.Select, bfs=True):
        if any(cte in unused for cte in _enclosing_ctes(select)):
            continue  # a CTE the query never reads moves nothing
        place = _place(select, tree)
        labels[place] += 1
        placed.append((select, f"{place} #{labels[place]}" if labels[place] > 1 else place))
    return placed


def _bodies(
    select: exp.Select, once: dict[str, exp.Expr], bodies: dict[int, str]
) -> dict[str, str]:
    """For each alias of ``select``'s FROM and joins that is a CTE or a derived table made of
    one ``SELECT``, that ``SELECT``'s step (``bodies``: labels by node): when it had no rows on
    any data set, each column of the alias is NULL in every row of ``select``, or it has none.
    ``once``: the body of each CTE the query defines once (one defined twice is left out,
    as is one that holds ``select``)."""
    inside = set(_enclosing_ctes(select))
    found = {}
    for item in items(select):
        body = item.this if isinstance(item, exp.Subquery) else None
        name = item.name.casefold() if isinstance(item, exp.Table) and not item.db else ""
        if name in once and name not in inside:
            body = once[name]
        if isinstance(body, exp.Select) and id(body) in bodies and item.alias_or_name:
            found[item.alias_or_name.casefold()] = bodies[id(body)]
    return found


def _unused_ctes(tree: exp.Expr) -> set[str]:
    """The CTEs no part of the query reads (a CTE read only by unused ones included)."""
    bodies = {cte.alias_or_name.casefold(): cte for cte in tree.find_all(exp.CTE)}
    unused: set[str] = set()
    while True:
        readers = collections.Counter()
        for table in tree.find_all(exp.Table):
            name = table.name.casefold()
            if name in bodies and not table.db:
                inside = _enclosing_ctes(table)
                if not (set(inside) & unused) and name not in inside:
                    readers[name] += 1
        found = {name for name in bodies if not readers[name]}
        if found == unused:
            return unused
        unused = found


def _enclosing_ctes(node: exp.Expr) -> list[str]:
    """The names of the CTEs whose bodies hold ``node``."""
    names = []
    while node is not None:
        if isinstance(node, exp.CTE):
            names.append(node.alias_or_name.casefold())
        node = node.parent
    return names


def step_class(step: str) -> str:
    """A step as its kind, without names: ``rows of CTE c`` is ``rows of a CTE``.

    >>> step_class("values of derived table s5 (a set-operation branch) #2")
    'values of a derived table (a set-operation branch)'
    """
    kind = re.sub(r" #\d+", "", step)
    kind = re.sub(r"the join (on|using) .* in ", "a join in ", kind)
    kind = re.sub(r"the partitions of .* in ", "the partitions of a window in ", kind)
    kind = re.sub(r"the orderings by \S+ of .* in ", "the orderings of a window in ", kind)
    return re.sub(r"\b(CTE|derived table) \S+", lambda m: f"a {m.group(1)}", kind)


def _place(select: exp.Select, root: exp.Expr) -> str:
    """Where ``select`` is: the query, a CTE, a derived table or a subquery by its role."""
    node: exp.Expr | None = select
    branch = ""
    while node is not None and node is not root:
        parent = node.parent
        if isinstance(parent, exp.SetOperation) and not branch:
            branch = " (a set-operation branch)"
        if isinstance(node, exp.CTE):
            return f"CTE {node.alias_or_name}{branch}"
        if isinstance(node, exp.Subquery) and not isinstance(parent, exp.SetOperation):
            if isinstance(parent, (exp.From, exp.Join, exp.Lateral)):
                alias = node.alias_or_name or isinstance(parent, exp.Lateral) and parent.alias
                return f"derived table {alias or '?'}{branch}"
            role = {exp.Exists: "an EXISTS subquery", exp.In: "an IN subquery"}
            return next((v for k, v in role.items() if isinstance(parent, k)), "a scalar subquery")
        if isinstance(node, exp.Exists):
            return "an EXISTS subquery"
        if isinstance(parent, exp.In) and node is parent.args.get("query"):
            return "an IN subquery"
        node = parent
    return f"the query{branch}"


def _beside(
    step: exp.Select, select: exp.Select, rids: int, ctes: set[str]
) -> tuple[str, int, bool]:
    """The SQL of ``step`` (made of ``select``, its last ``rids`` columns row ids), how many
    row-id columns end its rows, and whether it runs beside the rows of the ``SELECT`` around
    ``select`` (:mod:`.oracle_lateral`: ``select`` reads that one's columns)."""
    beside = correlated_step(step, select, rids, ctes)
    if beside is None:
        return with_ctes(step, select).sql(dialect="duckdb"), rids, False
    return with_ctes(beside[0], select).sql(dialect="duckdb"), beside[1], True


def _base_tables(select: exp.Select, ctes: set[str]) -> list[str]:
    """The names (aliases) of the base tables ``select``'s own FROM and joins read."""
    return [item.alias_or_name for item in items(select) if is_base(item, ctes)]


def _rid_names(select: exp.Select, aliases: list[str]) -> tuple[str, ...]:
    """The base table of each of ``aliases`` (:func:`_base_tables`), case-folded."""
    named = {i.alias_or_name: i.name.casefold() for i in items(select) if isinstance(i, exp.Table)}
    return tuple(named[alias] for alias in aliases)


def _rids(tables: list[str], grouped: bool) -> list[exp.Expr]:
    if not grouped:
        return [rowid(name, f"__rid{i}") for i, name in enumerate(tables)]
    out: list[exp.Expr] = []
    for i, name in enumerate(tables):
        rid = exp.column("rowid", table=exp.to_identifier(name, quoted=True))
        ordered = exp.Order(this=rid, expressions=[exp.Ordered(this=rid.copy())])
        out.append(exp.alias_(exp.ArrayAgg(this=ordered), f"__rid{i}"))
    return out


def with_ctes(step: exp.Select, original: exp.Select) -> exp.Expr:
    """``step`` with the CTEs ``original`` can see (those of every enclosing WITH)."""
    ctes: list[exp.Expr] = []
    recursive = False
    node: exp.Expr | None = original  # its own WITH too: a step made anew has none
    while node is not None:
        with_ = node.args.get("with_") if isinstance(node, exp.Query) else None
        if isinstance(with_, exp.With):
            ctes = [cte.copy() for cte in with_.expressions] + ctes
            recursive = recursive or bool(with_.args.get("recursive"))
        node = node.parent
    if ctes and not step.args.get("with_"):
        step.set("with_", exp.With(expressions=ctes, recursive=recursive))
    return step
