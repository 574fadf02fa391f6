"""Column-level lineage of one SQL query: the public single-query API.

Parse once; take the query the statement computes (:mod:`statements`); normalise its
identifiers the dialect's way; build its scopes once; then resolve every output column in
one memoised pass over the scopes (:mod:`scope_walk`), matching names to the schema's stored
names by the dialect's rules (:mod:`names`). What cannot be resolved is reported in
``QueryLineage.unresolved`` with a reason; only SQL that does not parse (or an unknown
dialect) raises. SQL nested deeper than the parser or the walk follows (``MAX_DEPTH``) is
``unsupported_sql: nested too deep``, never a crash.
"""

from __future__ import annotations

import dataclasses
import logging
import typing as t

import sqlglot
from sqlglot import exp
from sqlglot.dialects.dialect import Dialect
from sqlglot.errors import ParseError, SqlglotError, TokenError
from sqlglot.optimizer.scope import Scope, build_scope

from dbt_lineage.errors import SqlError
from dbt_lineage.sql.edges import IDENTITY, Edges, dotted
from dbt_lineage.sql.names import fold_identifiers, names
from dbt_lineage.sql.nesting import MAX_PARSE_DEPTH, nesting
from dbt_lineage.sql.one_line import one_line
from dbt_lineage.sql.output_names import output_names
from dbt_lineage.sql.pivot_statement import pivot_statement
from dbt_lineage.sql.render import Renderer
from dbt_lineage.sql.schema_index import schema_index
from dbt_lineage.sql.scope_walk import Walker, scope_walk
from dbt_lineage.sql.star_sources import star_sources
from dbt_lineage.sql.statements import statements
from dbt_lineage.sql.walk_base import NESTED_TOO_DEEP, NestedTooDeep
from dbt_lineage.types import EdgeKind, UnresolvedReason

# sqlglot logs what it cannot read (a scope it cannot traverse) as warnings, which Python's
# last-resort handler would print on the user's terminal; the reason is reported instead.
logging.getLogger("sqlglot").addHandler(logging.NullHandler())

_GENERIC = Dialect()
"""sqlglot's dialect-neutral SQL, for messages (``sql()`` without one makes it per call)."""


@dataclasses.dataclass(frozen=True)
class Upstream:
    """One upstream column of an output column (direct) or of the query's rows (indirect).

    Attributes:
        table: the source table as a dotted, normalised name (``shop.main.orders``).
        column: the column's name as the schema stores it (as written in the SQL, folded
            the dialect's way, for a table the schema does not list).
        kind: the ``EdgeKind``: direct (identity, transform, aggregate) or an indirect
            subtype (join, filter, group_by, window, sort, distinct).
        expression: SQL text of the expression or clause that produced the edge.
        table_parts: the table's normalised name parts (catalog, db, name) as far as known.
        columns: for an indirect upstream, the output columns it steers (the columns a
            window computes), or None when it steers the whole row set.
    """

    table: str
    column: str
    kind: EdgeKind
    expression: str = ""
    table_parts: tuple[str, ...] = ()
    columns: tuple[str, ...] | None = None


@dataclasses.dataclass
class QueryLineage:
    """The column lineage of one query.

    Attributes:
        columns: every output column, in output order, to its direct upstreams.
        indirect: indirect upstreams, one per (table, column, kind): ``columns`` None for
            those that decide which rows appear, else the output columns they steer.
        unresolved: output column to reason (an ``UnresolvedReason`` value, ``: detail``
            allowed) for each column whose lineage is incomplete; ``*`` when a star could
            not be expanded.
        inferred_schema: columns read from tables the schema does not list, or lists
            incompletely (``partial``).
        output_types: output column to type when known, else ``""``.
        star_sources: tables whose unknown columns a top-level ``SELECT *`` passes through
            unchanged.
        star_through: the tables a column asked of the query that it does not list comes
            from, every one of them (a UNION's branches); empty when it could come from
            any one of several (a join), or from none (:mod:`star_sources`).
        unnamed: output columns the SQL does not name (an expression without an alias) and
            whose name here is a placeholder (``_col_N``).
        notes: what the caller should know beyond the columns: other statements left out,
            problems in the clauses that decide the rows.
    """

    columns: dict[str, list[Upstream]]
    indirect: list[Upstream]
    unresolved: dict[str, str]
    inferred_schema: dict[tuple[str, ...], dict[str, str]]
    output_types: dict[str, str]
    star_sources: list[tuple[str, ...]] = dataclasses.field(default_factory=list)
    star_through: list[tuple[str, ...]] = dataclasses.field(default_factory=list)
    unnamed: tuple[str, ...] = ()
    notes: list[str] = dataclasses.field(default_factory=list)


def column_lineage(
    sql: str | exp.Expr,
    *,
    dialect: str,
    schema: t.Mapping[str, t.Any] | None = None,
    tables_over_ctes: t.Collection[str] = (),
    partial: t.Collection[str] = (),
    lenient: t.Collection[str] = (),
) -> QueryLineage:
    """Resolve every output column of ``sql`` to the base-table columns it comes from.

    Args:
        sql: one SQL statement (a query, CREATE ... AS, INSERT ... SELECT, UPDATE, MERGE),
            or an already parsed sqlglot expression (not modified).
        dialect: the sqlglot dialect name (``duckdb``, ``postgres``, ``snowflake``...).
        schema: ``{"[db.][schema.]table": {column: type}}`` with table names as written in
            SQL and column names as the warehouse stores them, any mix of depths; or a
            nested ``{catalog: {db: {table: {column: type}}}}``.
        tables_over_ctes: names of top-level CTEs to drop, so that the query reads the table
            of that name in ``schema`` instead (dbt inlines an ephemeral model as a CTE; its
            readers' lineage should run through the model).
        partial: keys of ``schema`` whose column lists may be only some of the columns (a
            star over them is not expanded; a column the SQL reads that they lack is
            inferred, in ``inferred_schema``, not unknown).
        lenient: keys of ``schema`` whose column lists may be out of date (a catalog older
            than the SQL): their stars expand, a column they lack is inferred.

    Returns:
        The lineage: direct upstreams per output column with kinds, indirect upstreams
        with subtypes and scopes, unresolved columns with reasons, inferred columns.

    Raises:
        SqlError: when the SQL does not parse, or the dialect is unknown.

    >>> lineage = column_lineage(
    ...     "select o.id, sum(o.amount) as total from orders o where o.status = 'paid' "
    ...     "group by o.id", dialect="duckdb",
    ...     schema={"orders": {"id": "int", "amount": "double", "status": "varchar"}})
    >>> [(u.table, u.column, u.kind.value) for u in lineage.columns["total"]]
    [('orders', 'amount', 'aggregate')]
    >>> sorted((u.column, u.kind.value, u.columns) for u in lineage.indirect)
    [('id', 'group_by', None), ('status', 'filter', None)]
    """
    _check_dialect(dialect)
    index = schema_index(schema, dialect, partial, lenient)
    reader = index.names.sqlglot
    try:
        if isinstance(sql, str) and nesting(sql):
            raise RecursionError(f"nested deeper than {MAX_PARSE_DEPTH}")
        expression, notes = _fresh(sql, reader)
    except RecursionError:
        detail = f"{NESTED_TOO_DEEP}: deeper than the SQL parser follows"
        reason = f"{UnresolvedReason.UNSUPPORTED_SQL.value}: {detail}"
        return QueryLineage({}, [], {"*": reason}, {}, {})
    if _may_pivot(sql) and expression.find(exp.Pivot) is not None:
        expression = pivot_statement(expression, dialect)
    statement = statements(expression)
    if isinstance(expression, exp.Pivot):
        reason = UnresolvedReason.STAR_UNKNOWN_COLUMNS.value
        detail = "PIVOT without an IN list takes its columns from the data"
        return QueryLineage({}, [], {"*": f"{reason}: {detail}"}, {}, {}, notes=notes)
    if statement.query is None:
        reason = f"{UnresolvedReason.UNSUPPORTED_STATEMENT.value}: {statement.problem}"
        return QueryLineage({}, [], {"*": reason}, {}, {}, notes=notes)
    query = statement.query
    if tables_over_ctes:
        _drop_ctes(query, tables_over_ctes)
    originals = _original_names(query)
    try:
        fold_identifiers(query, reader, sql if isinstance(sql, str) else None)
        root = build_scope(query)
    except SqlglotError as error:
        return _unsupported(query, f"cannot read its scopes: {one_line(error)}", notes)
    except RecursionError:
        return _unsupported(query, f"{NESTED_TOO_DEEP}: deeper than sqlglot's scopes follow", notes)
    if root is None or not isinstance(root.expression, exp.Query):
        return _unsupported(query, f"not a query: {query.key}", notes)
    try:
        walker = scope_walk(root, index)
        return _assemble(walker, root, dialect, statement.targets, originals, notes)
    except NestedTooDeep as error:
        return _unsupported(query, str(error), notes)


def _may_pivot(sql: str | exp.Expr) -> bool:
    """Whether the SQL may hold a PIVOT (searching its text is far cheaper than its tree)."""
    return not isinstance(sql, str) or "pivot" in sql.lower()


def _check_dialect(dialect: str) -> None:
    try:
        names(dialect)
    except ValueError as error:
        raise SqlError(f"unknown SQL dialect '{dialect}': {one_line(error)}") from error


def _fresh(sql: str | exp.Expr, dialect: Dialect) -> tuple[exp.Expr, list[str]]:
    """A tree of our own: a copy of an expression, or the SQL text parsed (the cheaper)."""
    if isinstance(sql, exp.Expr):
        return sql.copy(), []
    try:
        statements_ = [s for s in sqlglot.parse(sql, dialect=dialect) if s is not None]
    except (ParseError, TokenError) as error:
        raise SqlError(f"SQL does not parse: {one_line(error)}") from error
    if not statements_:
        raise SqlError("SQL does not parse: no statement found")
    notes = []
    if len(statements_) > 1:
        notes.append(
            f"{len(statements_)} statements: lineage is that of the last one; the others "
            "(such as SET or CREATE statements before the query) are not read"
        )
    return statements_[-1], notes


def _drop_ctes(expression: exp.Expr, names: t.Collection[str]) -> None:
    with_ = expression.args.get("with_")
    if not isinstance(with_, exp.With):
        return
    folded = {name.casefold() for name in names}
    kept = [cte for cte in with_.expressions if cte.alias.casefold() not in folded]
    if not kept:
        with_.pop()
    elif len(kept) != len(with_.expressions):
        with_.set("expressions", kept)


def _original_names(query: exp.Expr) -> dict[int, str]:
    """The root projections' names as written, before identifiers are normalised."""
    first = query
    while isinstance(first, exp.SetOperation):
        first = first.this
    if isinstance(first, exp.Subquery):
        first = first.unnest()
    if not isinstance(first, exp.Select):
        return {}
    originals = {}
    for projection in first.expressions:
        if isinstance(projection, (exp.Alias, exp.Column, exp.Dot)) and projection.alias_or_name:
            originals[id(projection)] = projection.alias_or_name
    return originals


def _assemble(
    walker: Walker,
    root: Scope,
    dialect: str,
    targets: list[str] | None,
    originals: dict[int, str],
    notes: list[str],
) -> QueryLineage:
    render = Renderer(dialect)
    inner_names = list(dict.fromkeys(walker.output_names(root)))
    resolved = {name: walker.resolve_output(root, name) for name in inner_names}
    named = output_names(walker, root, dialect, resolved, originals)
    columns: dict[str, list[Upstream]] = {}
    unresolved: dict[str, str] = {}
    output_types: dict[str, str] = {}
    scoped: dict[t.Any, tuple[exp.Expr | None, list[str]]] = {}
    everything = Edges()
    casts = _output_types(walker, root, render)
    for position, inner in enumerate(inner_names):
        edges = resolved[inner]
        name = named.names[position]
        if targets is not None and position < len(targets):
            name = targets[position]
        columns[name] = [
            Upstream(dotted(parts), column, EdgeKind.by_rank(rank), render(node), parts)
            for (parts, column), (rank, node) in edges.direct.items()
        ]
        if edges.problems:
            unresolved[name] = "; ".join(one_line(problem) for problem in edges.problems)
        output_types[name] = _output_type(walker, casts.get(inner), edges)
        for ikey, node in edges.scoped.items():
            scoped.setdefault(ikey, (node, []))[1].append(name)
        everything.merge_side(edges)
    rows = walker.scope_rows(root)
    everything.merge_side(rows)
    notes = notes + [f"rows: {one_line(problem)}" for problem in rows.problems]
    notes += list(walker.notes)
    star = _unexpanded_star(walker, root)
    if star is not None:
        unresolved["*"] = f"{UnresolvedReason.STAR_UNKNOWN_COLUMNS.value}: {star}"
    indirect = [
        Upstream(dotted(parts), column, kind, render(node), parts)
        for ((parts, column), kind), node in everything.indirect.items()
    ]
    for ((parts, column), kind), (node, steered) in scoped.items():
        if ((parts, column), kind) not in everything.indirect:
            indirect.append(
                Upstream(dotted(parts), column, kind, render(node), parts, tuple(steered))
            )
    stars = star_sources(walker, root)
    inferred = {parts: dict.fromkeys(cols, "") for parts, cols in walker.inferred.items()}
    unnamed = tuple(columns_name for columns_name in named.unnamed if columns_name in columns)
    return QueryLineage(
        columns,
        indirect,
        unresolved,
        inferred,
        output_types,
        star_sources=stars.reached,
        star_through=stars.through,
        unnamed=unnamed,
        notes=notes,
    )


def _output_types(walker: Walker, root: Scope, render: Renderer) -> dict[str, str]:
    """The type each root output is CAST to, by name."""
    first = root
    while isinstance(first.expression, exp.SetOperation) and first.set_operation_scopes:
        first = first.set_operation_scopes[0]
    if not isinstance(first.expression, exp.Select):
        return {}
    return {
        output.name: render(output.body.to)
        for output in walker.shape(first).by_name.values()
        if isinstance(output.body, exp.Cast)
    }


def _output_type(walker: Walker, cast: str | None, edges: Edges) -> str:
    if cast is not None:
        return cast
    if len(edges.direct) == 1:
        ((parts, column), (rank, _)) = next(iter(edges.direct.items()))
        table = walker.known.get(parts)
        if rank == IDENTITY and table is not None:
            return table.columns.get(column, "")
    return ""


def _unexpanded_star(walker: Walker, root: Scope) -> str | None:
    for branch in walker.value_branches(root):
        if isinstance(branch.expression, exp.Select):
            stars = walker.shape(branch).stars
            if stars:
                text = one_line(stars[0].node.sql(dialect=_GENERIC, comments=False))
                return f"{text} over a source whose columns are unknown"
    return None


def _unsupported(expression: exp.Expr, detail: str, notes: list[str]) -> QueryLineage:
    reason = f"{UnresolvedReason.UNSUPPORTED_SQL.value}: {detail}"
    names = (
        [sel.alias_or_name for sel in expression.selects]
        if isinstance(expression, exp.Query)
        else []
    )
    names = [name if name and name != "*" else "*" for name in names] or ["*"]
    return QueryLineage(
        columns={name: [] for name in names if name != "*"},
        indirect=[],
        unresolved=dict.fromkeys(names, reason),
        inferred_schema={},
        output_types={name: "" for name in names if name != "*"},
        notes=notes,
    )


__all__ = ["QueryLineage", "Upstream", "column_lineage"]
