"""The query a statement computes, with the names its output columns take.

A query is itself. ``CREATE TABLE/VIEW x AS [(]query[)]`` computes its query (a column list
names the outputs). ``INSERT INTO t (a, b) query`` writes the query's outputs into ``a`` and
``b`` by position. ``UPDATE t SET a = e FROM ... WHERE ...`` computes ``SELECT e AS a FROM
t, ... WHERE ...``; ``MERGE INTO t USING s ON c WHEN ... THEN UPDATE SET / INSERT`` computes,
per target column, the union of what each WHEN clause writes into it, over ``s JOIN t ON c``.
Anything else is not a statement with column lineage.
"""

from __future__ import annotations

import typing as t

from sqlglot import exp


class Statement(t.NamedTuple):
    """A statement's query (None when the statement computes none) and its output names."""

    query: exp.Query | None
    targets: list[str] | None = None
    """Output names imposed by the statement (INSERT/CREATE column lists), by position."""
    problem: str = ""


def statements(expression: exp.Expr) -> Statement:
    """Module entry: the query ``expression`` computes.

    >>> import sqlglot
    >>> statements(sqlglot.parse_one("insert into t (a, b) select x, y from s")).targets
    ['a', 'b']
    >>> statements(sqlglot.parse_one("update t set a = s.x from s")).query.sql()
    'SELECT s.x AS a FROM t, s'
    """
    if isinstance(expression, exp.Subquery):
        expression = expression.unnest()
    if isinstance(expression, exp.Query):
        return Statement(expression)
    if isinstance(expression, exp.Create):
        return _create(expression)
    if isinstance(expression, exp.Insert):
        found = _insert(expression)
    elif isinstance(expression, exp.Update):
        found = _update(expression)
    elif isinstance(expression, exp.Merge):
        found = _merge(expression)
    else:
        return Statement(None, problem=f"a {expression.key.upper()} statement computes no columns")
    return _with_statement_ctes(expression, found)


def _with_statement_ctes(expression: exp.Expr, found: Statement) -> Statement:
    """The statement's own WITH (``WITH c AS (...) INSERT/UPDATE/MERGE ...``) put in front of
    the query's, so that the query reads ``c`` as the CTE it is, not as a table."""
    with_ = expression.args.get("with_")
    if not isinstance(with_, exp.With) or found.query is None:
        return found
    query = found.query
    inner = query.args.get("with_")
    ctes = [cte.copy() for cte in with_.expressions]
    if isinstance(inner, exp.With):
        ctes += inner.expressions
    recursive = bool(with_.args.get("recursive")) or bool(
        isinstance(inner, exp.With) and inner.args.get("recursive")
    )
    query.set("with_", exp.With(expressions=ctes, recursive=recursive or None))
    return found


def _create(create: exp.Create) -> Statement:
    query = create.expression
    if isinstance(query, exp.Subquery):
        query = query.unnest()
    if not isinstance(query, exp.Query):
        return Statement(None, problem="a CREATE statement without AS SELECT computes no columns")
    schema = create.this
    targets = _schema_columns(schema) if isinstance(schema, exp.Schema) else None
    return Statement(query, targets or None)


def _insert(insert: exp.Insert) -> Statement:
    query = insert.expression
    if isinstance(query, exp.Subquery):
        query = query.unnest()
    if isinstance(query, exp.Values):
        query = exp.select("*").from_(query.as_("_values"))
    if not isinstance(query, exp.Query):
        return Statement(None, problem="an INSERT without a query computes no columns")
    target = insert.this
    targets = _schema_columns(target) if isinstance(target, exp.Schema) else None
    return Statement(query, targets or None)


def _update(update: exp.Update) -> Statement:
    target = update.this
    select = exp.Select()
    for assignment in update.expressions:
        if isinstance(assignment, exp.EQ) and isinstance(assignment.this, exp.Column):
            select = select.select(
                _named(assignment.expression.copy(), assignment.this.name), copy=False
            )
    if not select.expressions:
        return Statement(None, problem="an UPDATE without SET column = value computes nothing")
    from_ = update.args.get("from_")
    sources: list[exp.Expr] = []
    read = _read_names(update)
    if target.alias_or_name not in read:
        sources.append(target.copy())
    joins = list(update.args.get("joins") or [])
    if from_ is not None:
        source = from_.this.copy()
        # T-SQL's parser hangs the FROM clause's joins on its first table.
        joins = list(source.args.get("joins") or []) + joins
        source.set("joins", None)
        sources.append(source)
    select = select.from_(sources[0], copy=False)
    for source in sources[1:]:
        select = select.join(source, copy=False)
    for join in joins:
        select = select.join(join.copy(), copy=False)
    where = update.args.get("where")
    if where is not None:
        select = select.where(where.this.copy(), copy=False)
    return Statement(select)


def _read_names(update: exp.Update) -> set[str]:
    from_ = update.args.get("from_")
    names = {from_.this.alias_or_name} if from_ is not None else set()
    return names | {join.this.alias_or_name for join in update.args.get("joins") or []}


def _merge(merge: exp.Merge) -> Statement:
    target, using, on = merge.this, merge.args.get("using"), merge.args.get("on")
    whens = merge.args.get("whens")
    branches: list[tuple[exp.Expr | None, dict[str, exp.Expr]]] = []
    for when in whens.expressions if whens is not None else []:
        then = when.args.get("then")
        written: dict[str, exp.Expr] = {}
        if isinstance(then, exp.Update):
            for assignment in then.expressions:
                if isinstance(assignment, exp.EQ) and isinstance(assignment.this, exp.Column):
                    written[assignment.this.name] = assignment.expression
        elif isinstance(then, exp.Insert) and isinstance(then.this, exp.Tuple):
            values = then.expression.expressions if isinstance(then.expression, exp.Tuple) else []
            for column, value in zip(then.this.expressions, values, strict=False):
                written[column.name] = value
        if written:
            branches.append((when.args.get("condition"), written))
    names = list(dict.fromkeys(name for _, written in branches for name in written))
    if not names or using is None:
        return Statement(None, problem="a MERGE that writes no columns computes nothing")
    selects = []
    for condition, written in branches:
        select = exp.select(
            *[_named(written[n].copy() if n in written else exp.null(), n) for n in names]
        ).from_(using.copy())
        on_copy = on.copy() if on is not None else None
        select = select.join(target.copy(), on=on_copy, join_type="left")
        if condition is not None:
            select = select.where(condition.copy())
        selects.append(select)
    query: exp.Query = selects[0]
    for select in selects[1:]:
        query = exp.union(query, select, distinct=False)
    return Statement(query)


def _schema_columns(schema: exp.Schema) -> list[str]:
    return [
        column.name
        for column in schema.expressions
        if isinstance(column, (exp.ColumnDef, exp.Identifier, exp.Column))
    ]


def _named(value: exp.Expr, name: str) -> exp.Alias:
    """``value AS name`` (``exp.alias_`` would name a subquery's table instead)."""
    return exp.Alias(this=value, alias=exp.to_identifier(name))
