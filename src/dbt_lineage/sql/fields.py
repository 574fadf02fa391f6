"""Values read in special ways: struct fields, JSON paths, whole rows.

``col.field`` on a struct built in a CTE reads only the field's columns; on a table whose
catalog lists the nested field (BigQuery ``widget.asset.id``), that field itself; otherwise
its root column, as a transform. ``a.b.c`` where ``a`` is no source is such a path too.
``to_json(t)`` reads every column of ``t``.
"""

from __future__ import annotations

from sqlglot import exp
from sqlglot.errors import SqlglotError
from sqlglot.optimizer.scope import Scope

from dbt_lineage.sql.edges import TRANSFORM, Edges
from dbt_lineage.sql.expr_walk import DIRECT, expr_walk
from dbt_lineage.sql.row_clauses import RowClauses
from dbt_lineage.sql.walk_base import Source, find_source
from dbt_lineage.types import EdgeKind, UnresolvedReason

_UNKNOWN = UnresolvedReason.UNKNOWN_COLUMN.value


class Fields(RowClauses):
    """The struct, path and whole-row part of the walk."""

    def field_ref(self, scope: Scope, column: exp.Expr, field: str, position: int) -> Edges:
        """``column.field``: where a CTE or subquery built ``column`` as a struct literal,
        only the field's expression is read, not the whole struct; where the catalog lists
        the nested field, that field is read."""
        table = column.text("table")
        source = find_source(scope, table) if table else self.owner(scope, column.name).source
        if isinstance(source, Scope):
            refined = self._literal_field(source, column.name, field)
            if refined is not None:
                return refined
        nested = self._nested_field(scope, column, field)
        if nested is not None:
            return nested
        return self.resolve_ref(scope, column, position=position)

    def _literal_field(self, source: Scope, name: str, field: str) -> Edges | None:
        if not isinstance(source.expression, exp.Select):
            return None
        shape = self.shape(source)
        stored, _ = shape.name_index.match(name)
        output = shape.by_name.get(stored) if stored is not None else None
        body = output.body if output is not None else None
        value = _struct_field(body, field) if isinstance(body, exp.Struct) else None
        if value is None:
            return None
        edges = Edges()
        for occurrence in expr_walk(value, self.scope_of):
            if isinstance(occurrence.node, exp.Query):
                found = self.subquery_value(occurrence.node)
            else:
                found = self.resolve_ref(source, occurrence.node)
            if occurrence.role == DIRECT:
                edges.absorb(found, max(occurrence.rank, TRANSFORM), value)
            else:
                edges.absorb_scoped(found, EdgeKind.WINDOW, value)
        return edges

    def _nested_field(self, scope: Scope, column: exp.Expr, field: str) -> Edges | None:
        """``col.field`` on a base table whose catalog lists the nested field ``col.field``."""
        table = column.text("table")
        source = find_source(scope, table) if table else self.owner(scope, column.name).source
        if not isinstance(source, exp.Table) or not isinstance(source.this, exp.Identifier):
            return None
        parts, known = self.table_info(source)
        if known is None:
            return None
        stored, _ = known.index.match(f"{column.name}.{field}")
        return Edges.base((parts, stored), column) if stored is not None else None

    def struct_path(self, scope: Scope, column: exp.Column, position: int) -> Edges:
        """``a.b[.c]`` where ``a`` is no source: fields of struct column ``a`` (or of column
        ``b`` of source ``a`` when the reference has more parts), read as a transform unless
        the catalog lists the field itself."""
        path = [part.name for part in column.parts]
        owner: Source | None = None
        if len(path) > 2:
            owner = find_source(scope, path[0])
            if owner is not None:
                path = path[1:]
        if owner is None:
            found = self.owner(scope, path[0])
            if found.problem:
                return Edges.problem(found.problem)
            owner = found.source
            if owner is None:
                owner = self.single_lacking(scope)
        if owner is None:
            return Edges.problem(f"{_UNKNOWN}: {column.sql()} names no source in scope")
        if isinstance(owner, Scope) and len(path) > 1:
            refined = self._literal_field(owner, path[0], path[1])
            if refined is not None:
                return refined
        if isinstance(owner, exp.Table) and isinstance(owner.this, exp.Identifier):
            parts, known = self.table_info(owner)
            if known is not None:
                for size in range(len(path), 1, -1):
                    stored, _ = known.index.match(".".join(path[:size]))
                    if stored is not None:
                        edges = Edges.base((parts, stored), column)
                        return edges if size == len(path) else edges.raised(TRANSFORM)
        return self.resolve_in_source(owner, path[0], column).raised(TRANSFORM)

    def struct_star(self, scope: Scope, path: list[str]) -> list[str] | None:
        """The fields of struct ``a.b[.c]`` (path ``[a, b, c]``, ``a`` a source or a column)
        for ``a.b.c.*``, from the catalog's type of the column or its listed nested fields;
        None when unknown."""
        source = find_source(scope, path[0]) if len(path) > 1 else None
        if source is not None:
            path = path[1:]
        else:
            source = self.owner(scope, path[0]).source
        if not isinstance(source, exp.Table) or not isinstance(source.this, exp.Identifier):
            return None
        known = self.table_info(source)[1]
        stored = known.index.match(path[0])[0] if known is not None else None
        if known is None or stored is None:
            return None
        prefix = ".".join([stored, *path[1:]]).casefold() + "."
        listed = [
            name[len(prefix) :]
            for name in known.columns
            if name.casefold().startswith(prefix) and "." not in name[len(prefix) :]
        ]
        return listed or _type_fields(known.columns[stored], path[1:], self.names.dialect)

    def whole_row(self, scope: Scope, name: str) -> Edges:
        """A table's whole row used as one value (``to_json(t)``): every column of it."""
        source = find_source(scope, name)
        names = self.source_names(source) if source is not None else None
        if source is None or not names:
            reason = UnresolvedReason.STAR_UNKNOWN_COLUMNS.value
            return Edges.problem(f"{reason}: row {name} used as a value, columns unknown")
        edges = Edges()
        for column in names:
            edges.absorb(self.resolve_in_source(source, column, None), TRANSFORM, None)
        return edges


def _struct_field(struct: exp.Struct, field: str) -> exp.Expr | None:
    for wanted in dict.fromkeys((field, field.casefold())):
        for item in struct.expressions:
            if isinstance(item, exp.PropertyEQ) and item.this.name == wanted:
                return item.expression
            if isinstance(item, exp.Alias) and item.alias == wanted:
                return item.this
            if isinstance(item, exp.Column) and item.name == wanted:
                return item
    return None


def _type_fields(text: str, path: list[str], dialect: str) -> list[str] | None:
    """The field names of the struct at ``path`` inside a column of type ``text``."""
    try:
        kind = exp.DataType.build(text, dialect=dialect)
    except (SqlglotError, ValueError):
        return None
    for step in [*path, None]:
        if kind.this == exp.DataType.Type.ARRAY and kind.expressions:
            kind = kind.expressions[0]  # the fields of an array's elements (unnested)
        if kind.this != exp.DataType.Type.STRUCT:
            return None
        fields = [f for f in kind.expressions if isinstance(f, exp.ColumnDef)]
        if step is None:
            return [f.name for f in fields] or None
        found = [f for f in fields if f.name.casefold() == step.casefold()]
        if len(found) != 1 or not isinstance(found[0].args.get("kind"), exp.DataType):
            return None
        kind = found[0].args["kind"]
    return None
