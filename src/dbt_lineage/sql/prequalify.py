"""Preparation between sqlglot's table qualification and its column qualification.

Three small jobs on the tables-qualified tree: remember which joins were USING / NATURAL
(qualify rewrites their keys into ``COALESCE``, and the kind of that key depends on the join
side); pick the schema entries of the tables the query reads; and, when qualification
failed for lack of a schema, infer columns of unknown tables from how the query uses them.
"""

from __future__ import annotations

from sqlglot import exp
from sqlglot.optimizer.scope import traverse_scope

from dbt_lineage.sql.edges import Parts
from dbt_lineage.sql.schema_index import Columns, SchemaIndex
from dbt_lineage.sql.scope_walk import USING_META

_INFERRED_TYPE = "unknown"


def prequalify(expression: exp.Expr, index: SchemaIndex) -> dict[Parts, Columns]:
    """Module entry: mark USING joins and return the known tables of ``expression``."""
    mark_using_joins(expression)
    return known_tables(expression, index)


def mark_using_joins(expression: exp.Expr) -> None:
    """Record on each SELECT the keys of its USING / NATURAL joins: name -> is FULL join.

    The key ``*`` stands for a NATURAL join, whose keys are only known after qualification.
    """
    for join in expression.find_all(exp.Join):
        using = join.args.get("using")
        natural = join.args.get("method") == "NATURAL"
        select = join.parent
        if not (using or natural) or not isinstance(select, exp.Select):
            continue
        full = join.side == "FULL"
        keys: dict[str, bool] = select.meta.setdefault(USING_META, {})
        names = ["*"] if natural else [node.name for node in using]
        for name in names:
            keys[name] = keys.get(name, False) or full


def known_tables(expression: exp.Expr, index: SchemaIndex) -> dict[Parts, Columns]:
    """Schema entries for the base tables of ``expression``, keyed by the parts it wrote."""
    ctes = {cte.alias_or_name for cte in expression.find_all(exp.CTE)}
    entries: dict[Parts, Columns] = {}
    for table in expression.find_all(exp.Table):
        if not table.name or (not table.db and table.name in ctes):
            continue
        parts = tuple(part.name for part in table.parts)
        if parts in entries:
            continue
        found = index.lookup(parts)
        if found is not None:
            entries[parts] = found[1]
    return entries


def split_stars(expression: exp.Expr, entries: dict[Parts, Columns]) -> None:
    """Rewrite ``SELECT *`` over a join that reads an unknown table as ``a.*, b.*, ...``.

    The two mean the same when no USING / NATURAL join merges key columns and no SEMI / ANTI
    join hides a side; sqlglot then expands the known sources and leaves only the unknown
    ones as stars, instead of leaving the whole ``*`` unexpanded.
    """
    for select in expression.find_all(exp.Select):
        stars = [node for node in select.expressions if isinstance(node, exp.Star)]
        joins = select.args.get("joins") or []
        from_ = select.args.get("from_") or select.args.get("from")
        if len(stars) != 1 or any(stars[0].args.values()) or not joins or from_ is None:
            continue
        if any(_merges_or_hides(join) for join in joins):
            continue
        sources = [from_.this, *(join.this for join in joins)]
        aliases = [source.args.get("alias") for source in sources]
        if not all(isinstance(alias, exp.TableAlias) and alias.this for alias in aliases):
            continue
        if not any(_unknown_table(source, entries) for source in sources):
            continue
        columns = [exp.Column(this=exp.Star(), table=alias.this.copy()) for alias in aliases]
        stars[0].replace(columns[0])
        position = select.expressions.index(columns[0])
        select.set(
            "expressions",
            select.expressions[: position + 1] + columns[1:] + select.expressions[position + 1 :],
        )


def _merges_or_hides(join: exp.Join) -> bool:
    kind = (join.text("kind") or "").upper()
    return (
        bool(join.args.get("using"))
        or join.text("method").upper() == "NATURAL"
        or kind
        in (
            "SEMI",
            "ANTI",
        )
    )


def _unknown_table(source: exp.Expr, entries: dict[Parts, Columns]) -> bool:
    if not isinstance(source, exp.Table) or not isinstance(source.this, exp.Identifier):
        return False
    return tuple(part.name for part in source.parts) not in entries


def infer_columns(expression: exp.Expr, entries: dict[Parts, Columns]) -> None:
    """Add to ``entries`` the columns the query reads from tables absent from them.

    A column qualified by an unknown table's alias, or unqualified in a scope that reads
    one table only, belongs to that table. Tables read through a star are left alone, so
    the star stays unexpanded and is reported instead of listing guessed columns.
    """
    inferred: dict[Parts, Columns] = {}
    starred: set[Parts] = set()
    for scope in traverse_scope(expression):
        tables = {
            name: source
            for name, (_, source) in scope.selected_sources.items()
            if isinstance(source, exp.Table)
        }
        single = next(iter(tables.values())) if len(scope.selected_sources) == 1 else None
        for column in scope.columns:
            table = tables.get(column.table) if column.table else single
            if table is None:
                continue
            parts = tuple(part.name for part in table.parts)
            if parts not in entries:
                inferred.setdefault(parts, {})[column.name] = _INFERRED_TYPE
        for star in scope.stars:
            table_name = star.table if isinstance(star, exp.Column) else ""
            for name, table in tables.items():
                if not table_name or table_name == name:
                    starred.add(tuple(part.name for part in table.parts))
    for parts, columns in inferred.items():
        if parts not in starred:
            entries[parts] = columns
