"""Each output column's expression inlined down to the relations it reads, and the clauses
that decide which rows a query returns.

Comparing two versions of a model column by column needs more than the last step of each
column: ``select * from final`` says nothing until ``final``'s own expression is read. Here
every column reference is replaced by the expression that defines it in its CTE or
subquery, down to ``"<relation id>".column``, so two columns are the same exactly when their
inlined texts are. ``untyped`` is the same text with every type in a CAST blanked, to tell
a changed CAST from a changed computation.

``rows`` holds what decides the row set, by kind of clause (WHERE, JOIN, GROUP BY, HAVING,
QUALIFY, DISTINCT, LIMIT, UNION branches, FROM), each with the columns it reads inlined, so a
changed filter on a column defined three CTEs up still shows.
"""

from __future__ import annotations

import dataclasses
import functools
import re
import typing as t

from sqlglot import exp
from sqlglot.optimizer.scope import Scope

from dbt_lineage.errors import SqlError
from dbt_lineage.sql.names import names
from dbt_lineage.sql.normal_form import NormalTree
from dbt_lineage.sql.qualified_scope import qualified_scope
from dbt_lineage.sql.select_names import select_names
from dbt_lineage.sql.walk_base import MAX_DEPTH, NESTED_TOO_DEEP


class ColumnForm:
    """One output column's inlined expression, with and without its CAST types (the latter
    made only when asked: it is needed only where two expressions differ)."""

    __slots__ = ("expression", "_untyped")

    def __init__(self, expression: str, untyped: str | t.Callable[[], str]) -> None:
        self.expression = expression
        self._untyped = untyped

    @property
    def untyped(self) -> str:
        if callable(self._untyped):
            self._untyped = self._untyped()
        return self._untyped

    def __repr__(self) -> str:
        return f"ColumnForm({self.expression!r})"


@dataclasses.dataclass(frozen=True)
class InlinedColumns:
    """What decides a query's rows, and each output column's inlined expression by name."""

    rows: dict[str, str]
    """Clause kind (``ROW_CLAUSES``) -> its text in every scope, columns inlined."""
    columns: dict[str, ColumnForm]


ROW_CLAUSES = (
    "where", "join", "group_by", "having", "qualify", "distinct", "limit", "union", "from"
)  # fmt: skip
"""The kinds of clause that decide which rows a query returns."""


def inlined_columns(
    tree: NormalTree, schema: t.Mapping[str, t.Mapping[str, str]]
) -> InlinedColumns:
    """Inline ``tree``'s output columns and fingerprint its row set.

    Args:
        tree: from ``normal_form`` (relations named by unique id).
        schema: unique id -> {column: type} of the relations it reads (stars expand to these).

    >>> from dbt_lineage.sql.normal_form import normal_form
    >>> ids = {("orders",): "model.p.orders"}.get
    >>> sql = "with f as (select id, amount * 2 as a from orders) select a as total from f"
    >>> schema = {"model.p.orders": {"id": "int", "amount": "int"}}
    >>> found = inlined_columns(normal_form(sql, "duckdb", ids), schema)
    >>> found.columns["total"].expression
    '("model.p.orders".amount * 2)'

    Raises:
        SqlError: the query's scopes cannot be read (not a query; an unsupported construct;
            CTEs or subqueries nested deeper than ``MAX_DEPTH``).
    """
    glot = names(tree.dialect).sqlglot
    root = qualified_scope(tree, schema)
    inliner = _Inliner(glot)
    columns = {
        name: ColumnForm(
            inliner.column(root, name, True),
            functools.partial(inliner.column, root, name, False),
        )
        for name in select_names(root.expression)
    }
    return InlinedColumns(_rows(root, inliner), columns)


_SIMPLE = re.compile(r'^("[^"]*"\.)?[\w$]+$')
"""A bare column reference: passed through a CTE it needs no parentheses, so that a CTE
that only passes columns on changes nothing."""


class _Inliner:
    """Inlines column references scope by scope, each (scope, column) once."""

    def __init__(self, glot: t.Any) -> None:
        self.generator = glot.generator(comments=False)
        self.done: dict[tuple[int, str, bool], str] = {}
        self.busy: set[tuple[int, str, bool]] = set()
        self.depth = 0
        """Columns now being inlined one inside another: bounded by ``MAX_DEPTH``."""

    def column(self, scope: Scope, name: str, typed: bool) -> str:
        key = (id(scope), name, typed)
        if key in self.done:
            return self.done[key]
        if key in self.busy:
            return f"<recursive {name}>"  # a recursive CTE reading itself
        self.busy.add(key)
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise SqlError(f"cannot read its columns: {NESTED_TOO_DEEP} (CTEs or subqueries)")
        if scope.set_operation_scopes:
            outputs = select_names(scope.expression)
            index = outputs.index(name) if name in outputs else -1
            parts = [self._at(branch, index, typed) for branch in scope.set_operation_scopes]
            text = f"{type(scope.expression).__name__.upper()}({', '.join(parts)})"
        else:
            text = self._projection(scope, name, typed)
        self.busy.discard(key)
        self.depth -= 1
        self.done[key] = text
        return text

    def _at(self, scope: Scope, index: int, typed: bool) -> str:
        named = select_names(scope.expression)
        if scope.set_operation_scopes:
            return self.column(scope, named[index] if 0 <= index < len(named) else "", typed)
        if not 0 <= index < len(named):
            return "<missing>"
        return self.column(scope, named[index], typed)

    def _projection(self, scope: Scope, name: str, typed: bool) -> str:
        select = scope.expression
        if not isinstance(select, exp.Select):
            return f"<{select.key}>.{name}"
        for projection in select.expressions:
            if projection.alias_or_name == name:
                return self.render(scope, projection.unalias(), typed)
        return f"<missing {name}>"

    def render(self, scope: Scope, expression: exp.Expr, typed: bool) -> str:
        """``expression``'s SQL with its column references inlined (and, untyped, its types
        blanked). The references are swapped for their text in place and put back after:
        copying every expression would cost more than generating it."""
        if isinstance(expression, exp.Column):
            text = self._reference(scope, expression, typed)
            return text if text is not None else self._sql(expression)
        if not typed and isinstance(expression, exp.DataType):
            return "?"
        swapped: list[tuple[exp.Expr, exp.Expr]] = []
        try:
            for column in list(expression.find_all(exp.Column)):
                text = self._reference(scope, column, typed)
                if text is not None:
                    swapped.append((column, column.replace(exp.var(text))))
            if not typed:
                for data_type in list(expression.find_all(exp.DataType)):
                    swapped.append((data_type, data_type.replace(_blank_type())))
            return self._sql(expression)
        finally:
            for original, stand_in in reversed(swapped):
                stand_in.replace(original)

    def _reference(self, scope: Scope, column: exp.Column, typed: bool) -> str | None:
        """The inlined text of one column reference, or None when its source is unknown."""
        source = scope.sources.get(column.table)
        if not column.table and len(scope.selected_sources) == 1:
            source = next(iter(scope.selected_sources.values()))[1]
        if isinstance(source, Scope):
            inner = self.column(source, column.name, typed)
            return inner if _SIMPLE.match(inner) or _wrapped(inner) else f"({inner})"
        if isinstance(source, exp.Table):
            return f'"{source.name}".{column.name}'
        return None

    def _sql(self, expression: exp.Expr) -> str:
        try:
            # copy=False: the tree is ours, and render() puts back what it swapped.
            return self.generator.generate(expression, copy=False)
        except RecursionError:
            return f"<{expression.key} nested too deep>"


def _blank_type() -> exp.DataType:
    """A type that prints as ``?``: a DataType still, as every dialect's CAST wants one
    (a Var there fails Snowflake's, Redshift's and Databricks' generators)."""
    return exp.DataType(this=exp.DataType.Type.USERDEFINED, kind="?")


def _wrapped(text: str) -> bool:
    """Whether ``text`` is one parenthesised whole, as ``(a + b)`` (not ``(a) + (b)``)."""
    if not text.startswith("(") or not text.endswith(")"):
        return False
    depth = 0
    for index, char in enumerate(text):
        depth += char == "("
        depth -= char == ")"
        if depth == 0:
            return index == len(text) - 1
    return False


def _rows(root: Scope, inliner: _Inliner) -> dict[str, str]:
    """What decides the row set, by clause kind, with the columns it reads inlined."""
    found: dict[str, list[str]] = {kind: [] for kind in ROW_CLAUSES}
    for scope in root.traverse():
        query = scope.expression
        if isinstance(query, exp.SetOperation):
            distinct = "DISTINCT" if query.args.get("distinct") else "ALL"
            found["union"].append(f"{type(query).__name__.upper()} {distinct}")
            continue
        if not isinstance(query, exp.Select):
            continue
        for kind, key in (("where", "where"), ("group_by", "group"), ("having", "having")):
            if (clause := query.args.get(key)) is not None:
                found[kind].append(inliner.render(scope, clause, True))
        if (clause := query.args.get("qualify")) is not None:
            found["qualify"].append(inliner.render(scope, clause, True))
        for join in query.args.get("joins") or ():
            found["join"].append(inliner.render(scope, join, True))
        if query.args.get("distinct") is not None:
            found["distinct"].append(
                ", ".join(inliner.render(scope, p.unalias(), True) for p in query.expressions)
            )
        if (limit := query.args.get("limit")) is not None:
            order = query.args.get("order")
            ordered = inliner.render(scope, order, True) if order is not None else ""
            found["limit"].append(f"{inliner.render(scope, limit, True)} {ordered}")
        if (source := query.args.get("from_") or query.args.get("from")) is not None:
            found["from"].append(inliner.render(scope, source, True))
    return {kind: "\n".join(texts) for kind, texts in found.items()}
