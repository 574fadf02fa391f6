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

A subquery that groups runs so too, its row ids gathered per group (a correlated
``count(*)`` gives one row beside each outer row), and so do its rows before its grouping,
where its ``WHERE`` does its work: a column named only there, beside outer rows no data set
had (a branch whose ``HAVING`` never holds), is then named as read from no row. A subquery that
reads no base table of its own (a derived table) is stood for by the outer row ids and its
values.

>>> import sqlglot
>>> tree = sqlglot.parse_one(
...     "select o.id from o where exists (select 1 from t where t.k = o.id)", dialect="duckdb"
... )
>>> inner = list(tree.find_all(sqlglot.exp.Select))[1]
>>> step = inner.copy().select(rowid("t", "__rid0"))
>>> outer, beside = correlated_step(step, inner, 1, set())[0].sql("duckdb").split(" CROSS JOIN ")
>>> outer
'SELECT __c.__v0, "o".rowid AS __o0, __c.__rid0 FROM o'
>>> beside
'(SELECT 1 AS __v0, "t".rowid AS __rid0 FROM t WHERE t.k = o.id) AS __c'
"""

from __future__ import annotations

from sqlglot import exp

from .oracle_sql import is_base, items, rowid


def correlated_step(
    step: exp.Select, select: exp.Select, rids: int, ctes: set[str]
) -> tuple[exp.Select, int] | None:
    """``step`` (a query made of ``select``: ``select`` with its row ids, or its rows before
    its grouping), whose last ``rids`` columns are row ids, run beside the rows of the
    ``SELECT`` around ``select``, and how many row-id columns end its rows; None when
    ``select`` reads no column of that ``SELECT`` (it runs alone) or cannot be run so (see
    the module)."""
    outer = _outer(select)
    if outer is None:
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
    inner = step.copy()
    # its values (a star's are left out) before the row ids, which end the step's rows
    cut = len(step.expressions) - rids
    values = [p.unalias().copy() for p in step.expressions[:cut] if not p.is_star]
    ids = [p.unalias().copy() for p in step.expressions[cut:]]
    inner.set(
        "expressions",
        [
            *(exp.alias_(value, f"__v{i}") for i, value in enumerate(values)),
            *(exp.alias_(rid, f"__rid{i}") for i, rid in enumerate(ids)),
        ],
    )
    tree = exp.select(
        *(exp.column(f"__v{i}", table="__c") for i in range(len(values))),
        *(rowid(name, f"__o{i}") for i, name in enumerate(bases)),
        *(exp.column(f"__rid{i}", table="__c") for i in range(len(ids))),
    )
    tree.set("from_", from_.copy())
    beside = exp.Join(this=exp.Subquery(this=inner, alias=exp.TableAlias(this="__c")))
    beside.set("kind", "CROSS")
    tree.set("joins", [*(j.copy() for j in joins), beside])
    return tree, len(bases) + len(ids)


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
