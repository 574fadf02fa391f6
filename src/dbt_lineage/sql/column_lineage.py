"""Column-level lineage of one SQL query: the public single-query API.

Parse once, qualify once (sqlglot's ``qualify`` with the caller's schema, stars expanded),
build scopes once, then resolve every output column in one memoised pass over the scopes
(:mod:`dbt_lineage.sql.scope_walk`). What cannot be resolved is reported in
``QueryLineage.unresolved`` with a reason; only SQL that does not parse raises.
"""

from __future__ import annotations

import dataclasses
import typing as t

import sqlglot
from sqlglot import exp
from sqlglot.dialects.dialect import Dialect
from sqlglot.errors import ParseError, SqlglotError, TokenError
from sqlglot.optimizer.qualify import qualify
from sqlglot.optimizer.qualify_columns import qualify_columns
from sqlglot.optimizer.scope import Scope, build_scope

from dbt_lineage.errors import SqlError
from dbt_lineage.sql import prequalify
from dbt_lineage.sql.edges import Edges, dotted
from dbt_lineage.sql.pivot_statement import pivot_statement
from dbt_lineage.sql.schema_index import SchemaIndex, mapping_schema, schema_index
from dbt_lineage.sql.scope_walk import Walker
from dbt_lineage.types import EdgeKind, UnresolvedReason

# What sqlglot's qualify may raise on SQL it parsed but cannot qualify. Its own errors, and
# the plain ones its internals raise on constructs they do not expect.
_QUALIFY_ERRORS = (SqlglotError, AttributeError, KeyError, IndexError, TypeError, ValueError)


@dataclasses.dataclass(frozen=True)
class Upstream:
    """One upstream column of an output column (direct) or of the query's rows (indirect).

    Attributes:
        table: the source table as a dotted, normalised name (``shop.main.orders``).
        column: the normalised column name.
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
        inferred_schema: columns inferred for tables absent from the schema.
        output_types: output column to type when known, else ``""``.
    """

    columns: dict[str, list[Upstream]]
    indirect: list[Upstream]
    unresolved: dict[str, str]
    inferred_schema: dict[tuple[str, ...], dict[str, str]]
    output_types: dict[str, str]


def column_lineage(
    sql: str | exp.Expr,
    *,
    dialect: str,
    schema: t.Mapping[str, t.Any] | None = None,
    tables_over_ctes: t.Collection[str] = (),
) -> QueryLineage:
    """Resolve every output column of ``sql`` to the base-table columns it comes from.

    Args:
        sql: one SQL query, or an already parsed sqlglot expression (not modified).
        dialect: the sqlglot dialect name (``duckdb``, ``postgres``, ``snowflake``...).
        schema: ``{"[db.][schema.]table": {column: type}}`` with names as written in the
            SQL, any mix of depths; or a nested ``{catalog: {db: {table: {column: type}}}}``.
        tables_over_ctes: names of top-level CTEs to drop, so that the query reads the table
            of that name in ``schema`` instead (dbt inlines an ephemeral model as a CTE; its
            readers' lineage should run through the model).

    Returns:
        The lineage: direct upstreams per output column with kinds, indirect upstreams
        with subtypes, unresolved columns with reasons, inferred columns of unknown tables.

    Raises:
        SqlError: when the SQL does not parse.

    >>> lineage = column_lineage(
    ...     "select o.id, sum(o.amount) as total from orders o where o.status = 'paid' "
    ...     "group by o.id", dialect="duckdb",
    ...     schema={"orders": {"id": "int", "amount": "double", "status": "varchar"}})
    >>> [(u.table, u.column, u.kind.value) for u in lineage.columns["total"]]
    [('orders', 'amount', 'aggregate')]
    >>> sorted((u.column, u.kind.value, u.columns) for u in lineage.indirect)
    [('id', 'group_by', None), ('status', 'filter', None)]
    """
    index = schema_index(schema, dialect)
    expression = _fresh(sql, dialect, tables_over_ctes)
    problem = ""
    try:
        qualified = _qualify(expression, index, dialect, infer=False)
    except _QUALIFY_ERRORS as error:
        try:
            qualified = _qualify(_fresh(sql, dialect, tables_over_ctes), index, dialect, infer=True)
        except _QUALIFY_ERRORS:
            return _unsupported(
                _fresh(sql, dialect, tables_over_ctes), f"cannot qualify: {_one_line(error)}"
            )
    try:
        root = build_scope(qualified)
    except _QUALIFY_ERRORS as error:
        root, problem = None, _one_line(error)
    if isinstance(qualified, exp.Pivot):
        reason = UnresolvedReason.STAR_UNKNOWN_COLUMNS.value
        detail = "PIVOT without an IN list takes its columns from the data"
        return QueryLineage({}, [], {"*": f"{reason}: {detail}"}, {}, {})
    if root is None or not isinstance(root.expression, exp.Query):
        return _unsupported(qualified, problem or f"not a query: {qualified.key}")
    try:
        return _assemble(Walker(root, index), root, dialect)
    except (*_QUALIFY_ERRORS, RecursionError) as error:
        # A construct the walk does not expect: report every column, keep the caller going.
        return _unsupported(qualified, f"cannot resolve: {type(error).__name__}: {error}")


def _fresh(sql: str | exp.Expr, dialect: str, tables_over_ctes: t.Collection[str]) -> exp.Expr:
    """A tree of our own: a copy of an expression, or the SQL text parsed (the cheaper)."""
    if isinstance(sql, exp.Expr):
        expression = sql.copy()
    else:
        try:
            statements = [s for s in sqlglot.parse(sql, dialect=dialect) if s is not None]
        except (ParseError, TokenError) as error:
            raise SqlError(f"SQL does not parse: {_one_line(error)}") from error
        if not statements:
            raise SqlError("SQL does not parse: no statement found")
        expression = statements[-1]
    if tables_over_ctes:
        _drop_ctes(expression, tables_over_ctes)
    return pivot_statement(expression, dialect)


def _drop_ctes(expression: exp.Expr, names: t.Collection[str]) -> None:
    with_ = expression.args.get("with_")
    if not isinstance(with_, exp.With):
        return
    kept = [cte for cte in with_.expressions if cte.alias not in names]
    if not kept:
        with_.pop()
    elif len(kept) != len(with_.expressions):
        with_.set("expressions", kept)


def _qualify(expression: exp.Expr, index: SchemaIndex, dialect: str, infer: bool) -> exp.Expr:
    expression = qualify(
        expression,
        dialect=dialect,
        qualify_columns=False,
        quote_identifiers=False,
        validate_qualify_columns=False,
        identify=False,
    )
    prequalify.mark_using_joins(expression)
    entries = prequalify.known_tables(expression, index)
    prequalify.split_stars(expression, entries)
    if infer:
        prequalify.infer_columns(expression, entries)
    return qualify_columns(
        expression,
        mapping_schema(entries, dialect, plain_types=infer),
        expand_stars=True,
        allow_partial_qualification=True,
        dialect=dialect,
    )


def _assemble(walker: Walker, root: Scope, dialect: str) -> QueryLineage:
    rendered: dict[int, str] = {}
    generator = Dialect.get_or_raise(dialect).generator()

    def render(node: exp.Expr | None) -> str:
        if node is None:
            return ""
        text = rendered.get(id(node))
        if text is None:
            # copy=False: the tree is ours and no longer walked; copying costs more than
            # generating.
            text = rendered[id(node)] = generator.generate(node, copy=False)
        return text

    columns: dict[str, list[Upstream]] = {}
    unresolved: dict[str, str] = {}
    output_types: dict[str, str] = {}
    everything = Edges()
    scoped: dict[t.Any, tuple[exp.Expr | None, list[str]]] = {}
    for name in walker.output_names(root):
        edges = walker.resolve_output(root, name)
        columns[name] = [
            Upstream(dotted(parts), column, EdgeKind.by_rank(rank + 1), render(node), parts)
            for (parts, column), (rank, node) in edges.direct.items()
        ]
        if edges.problems:
            unresolved[name] = "; ".join(edges.problems)
        output_types[name] = _output_type(walker, root, name, edges, dialect)
        for ikey, node in edges.scoped.items():
            scoped.setdefault(ikey, (node, []))[1].append(name)
        everything.merge_side(edges)
    rows = walker.scope_rows(root)
    everything.merge_side(rows)
    for name in columns:
        if rows.problems and name not in unresolved:
            unresolved[name] = "; ".join(rows.problems)
    star = _unexpanded_star(walker, root)
    if star:
        unresolved["*"] = f"{UnresolvedReason.STAR_UNKNOWN_COLUMNS.value}: {star}"
    indirect = [
        Upstream(dotted(parts), column, EdgeKind(kind), render(node), parts)
        for ((parts, column), kind), node in everything.indirect.items()
    ]
    for ((parts, column), kind), (node, names) in scoped.items():
        if ((parts, column), kind) not in everything.indirect:
            indirect.append(
                Upstream(dotted(parts), column, EdgeKind(kind), render(node), parts, tuple(names))
            )
    inferred = {parts: dict.fromkeys(cols, "") for parts, cols in walker.inferred.items()}
    return QueryLineage(columns, indirect, unresolved, inferred, output_types)


def _output_type(walker: Walker, root: Scope, name: str, edges: Edges, dialect: str) -> str:
    if isinstance(root.expression, exp.Select):
        for projection in root.expression.selects:
            if projection.alias_or_name == name:
                body = projection.unalias()
                if isinstance(body, exp.Cast):
                    return body.to.sql(dialect=dialect)
                break
    if len(edges.direct) == 1:
        ((parts, column), (rank, _)) = next(iter(edges.direct.items()))
        if rank == 0:
            return walker.known.get(parts, {}).get(column, "")
    return ""


def _unexpanded_star(walker: Walker, root: Scope) -> str:
    scope = root
    while isinstance(scope.expression, exp.SetOperation):
        scope = scope.set_operation_scopes[0]
    if not isinstance(scope.expression, exp.Select):
        return ""
    stars = walker.projections(scope)[1]
    if stars:
        return f"{stars[0].sql()} over a source whose columns are unknown"
    return ""


def _unsupported(expression: exp.Expr, detail: str) -> QueryLineage:
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
    )


def _one_line(error: BaseException) -> str:
    return " ".join(str(error).split())


__all__ = ["QueryLineage", "Upstream", "column_lineage"]
