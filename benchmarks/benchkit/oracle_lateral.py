"""A correlated subquery as a step: run beside the rows of the query that holds it.

A subquery that reads a column of the ``SELECT`` around it (``exists (select 1 from t where
t.k = o.id)``, ``cross join lateral (select ... where t.k = o.id)``) cannot run alone, so the
steps of :mod:`.oracle_steps` left it out, and an edge named only there was neither shown nor
named. DuckDB runs a subquery in ``FROM`` that reads the items left of it (an implicit
lateral join), so the step is the outer ``SELECT``'s ``FROM`` and joins (those left of the
subquery when it is one of them) joined with the subquery, each outer row with the values
and the base-table row ids the subquery finds for it (so that a column the subquery only
passes on, to a branch of the outer query that no data set takes, is shown by the values it
gave there)::

    SELECT __c.<its values>, <outer row ids>, __c.<its row ids> FROM <outer FROM and joins>
    CROSS JOIN (SELECT <its values>, <its row ids> FROM ... WHERE t.k = o.id) AS __c

Only a subquery that reads its own base tables, does not group and is not ``DISTINCT`` is run
so (its row ids stand for its rows); the others stay out, as before.

>>> import sqlglot
>>> tree = sqlglot.parse_one(
...     "select o.id from o where exists (select 1 from t where t.k = o.id)", dialect="duckdb"
... )
>>> inner = list(tree.find_all(sqlglot.exp.Select))[1]
>>> outer, beside = correlated_step(inner, ["t"], set())[0].sql("duckdb").split(" CROSS JOIN ")
>>> outer
'SELECT __c.__v0, "o".rowid AS __o0, __c.__rid0 FROM o'
>>> beside
'(SELECT 1 AS __v0, "t".rowid AS __rid0 FROM t WHERE t.k = o.id) AS __c'
"""

from __future__ import annotations

from sqlglot import exp

from .oracle_sql import grouped, is_base, items, rowid


def correlated_step(
    select: exp.Select, tables: list[str], ctes: set[str]
) -> tuple[exp.Select, int] | None:
    """``select`` (whose own base tables are ``tables``) run beside the rows of the
    ``SELECT`` around it, and how many row-id columns end its rows; None when it reads no
    column of that ``SELECT`` (it runs alone) or cannot be run so (see the module)."""
    outer = _outer(select)
    if outer is None or not tables or select.args.get("distinct") or grouped(select):
        return None
    own = {item.alias_or_name.casefold() for item in items(select)}
    outer_items = items(outer)
    named = {
        column.table.casefold()
        for column in select.find_all(exp.Column)
        if column.find_ancestor(exp.Select) is select and column.table
    }
    if not (named - own) & {item.alias_or_name.casefold() for item in outer_items}:
        return None
    joins = list(outer.args.get("joins") or [])
    holder = next((n for n in _ancestors(select, outer) if n.parent is outer), None)
    at = next((i for i, join in enumerate(joins) if join is holder), None)
    joins = joins if at is None else joins[:at]  # a lateral join: beside the items left of it
    from_ = outer.args.get("from_")
    if from_ is None or holder is from_:
        return None
    left = [from_.this, *(j.this for j in joins if j.args.get("kind") not in ("SEMI", "ANTI"))]
    bases = [i.alias_or_name for i in left if is_base(i, ctes)]
    inner = select.copy()
    # its values (a star's are left out) before the row ids, which end the step's rows
    values = [p.unalias().copy() for p in select.expressions if not p.is_star]
    inner.set(
        "expressions",
        [
            *(exp.alias_(value, f"__v{i}") for i, value in enumerate(values)),
            *(rowid(name, f"__rid{i}") for i, name in enumerate(tables)),
        ],
    )
    tree = exp.select(
        *(exp.column(f"__v{i}", table="__c") for i in range(len(values))),
        *(rowid(name, f"__o{i}") for i, name in enumerate(bases)),
        *(exp.column(f"__rid{i}", table="__c") for i in range(len(tables))),
    )
    tree.set("from_", from_.copy())
    beside = exp.Join(this=exp.Subquery(this=inner, alias=exp.TableAlias(this="__c")))
    beside.set("kind", "CROSS")
    tree.set("joins", [*(j.copy() for j in joins), beside])
    return tree, len(bases) + len(tables)


def _outer(select: exp.Select) -> exp.Select | None:
    node = select.parent
    while node is not None and not isinstance(node, exp.Select):
        if isinstance(node, (exp.CTE, exp.SetOperation)):
            return None
        node = node.parent
    return node


def _ancestors(node: exp.Expr, stop: exp.Expr) -> list[exp.Expr]:
    found = []
    while node.parent is not None and node is not stop:
        found.append(node)
        node = node.parent
    return found
