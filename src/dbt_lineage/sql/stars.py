"""Stars in a SELECT list: expanded over sources whose columns are known, kept otherwise.

``*`` expands over every source in FROM / JOIN order (a USING or NATURAL key once: in place
in DuckDB, first elsewhere), ``t.*`` over one; ILIKE, EXCLUDE / EXCEPT, REPLACE and RENAME
apply. A
star over a source whose columns are unknown stays a star: a name asked of it passes through
to the one source that may hold it, or is ``ambiguous_star`` when several may.
"""

from __future__ import annotations

import re
import typing as t

from sqlglot import exp
from sqlglot.optimizer.scope import Scope

from dbt_lineage.sql.edges import Edges
from dbt_lineage.sql.references import References
from dbt_lineage.sql.walk_base import Output, Source, Star, WalkerBase, label, names_element
from dbt_lineage.types import UnresolvedReason

_UNKNOWN = UnresolvedReason.UNKNOWN_COLUMN.value
_new = tuple.__new__
_AMBIGUOUS_STAR = UnresolvedReason.AMBIGUOUS_STAR.value


class Stars(References):
    """The star part of the walk."""

    def expand_star(
        self, scope: Scope, star: exp.Expr, outputs: list[Output], stars: list[Star]
    ) -> None:
        if isinstance(star, exp.Star):
            node, sources = star, [source for _, source in self.ordered_sources(scope)]
            using = self.using_keys(scope)
        elif isinstance(star, exp.Column) and isinstance(star.this, exp.Star):
            node, source = star.this, scope.sources.get(star.table)
            if source is None and not self.find_pivot(scope, star.table):
                self._struct_star(scope, star, outputs, stars)
                return
            element = _element_array(source)
            if element is not None:  # BigQuery item.* of unnest(o.items) as item
                self._struct_star(scope, star, outputs, stars, element)
                return
            sources = [source] if source is not None else []
            using = []
        else:  # expr.*: a struct value's fields, unknown here
            stars.append(Star(star, scope))
            return
        excluded = _Keys(self, [col.name for col in node.args.get("except_") or []])
        pattern = star_pattern(node)
        checked = bool(using) or bool(excluded) or pattern is not None
        replaced = {item.alias: item.this for item in node.args.get("replace") or []}
        renamed = {item.this.name: item.alias for item in node.args.get("rename") or []}
        keys: list[Output] = []
        for key_name, sides, full in using:
            holders = tuple(s for s in sides if self.holds(s, key_name) is not False)
            stored = self._stored_in(holders, key_name)
            keys.append(
                Output(
                    stored,
                    None,
                    source=holders[0] if holders else None,
                    source_name=stored,
                    using=holders,
                    full=full,
                )
            )
        taken = _Keys(self, [key for key, _, _ in using])
        in_place = self.names.dialect == "duckdb"  # DuckDB keeps a USING key where it stands
        if not in_place:
            outputs.extend(keys)
        for number, source in enumerate(sources):
            names = self.source_names(source)
            if names is None:
                if isinstance(source, Scope) and not source.is_udtf:
                    # A scope whose own star is over unknown columns still lists its named
                    # outputs: those come through by name, the star covers the rest.
                    known = [n for n in self.output_names(source) if n not in excluded]
                    outputs.extend(Output(n, None, source=source, source_name=n) for n in known)
                stars.append(Star(star, source))
                continue
            if not (checked or replaced or renamed):
                # Made as plain tuples: a star over a wide table makes hundreds of outputs,
                # and a named tuple's keyword arguments cost more than the rest of the walk
                # spends on most of them.
                outputs.extend(
                    [_new(Output, (name, None, -1, source, name, (), False)) for name in names]
                )
                continue
            for name in names:
                if name in taken:
                    if in_place and number == 0:
                        outputs.extend(k for k in keys if k.name.casefold() == name.casefold())
                    continue
                if name in excluded or (pattern is not None and not pattern.fullmatch(name)):
                    continue
                body = _lookup(self, replaced, name)
                output_name = _lookup(self, renamed, name) or name
                if body is not None:
                    outputs.append(Output(output_name, body))
                else:
                    outputs.append(Output(output_name, None, source=source, source_name=name))

    def _struct_star(
        self,
        scope: Scope,
        star: exp.Column,
        outputs: list[Output],
        stars: list[Star],
        array: exp.Column | None = None,
    ) -> None:
        """``a.b.*`` where ``a.b`` is no source: the fields of struct column ``b`` (BigQuery,
        DuckDB), each read as ``a.b.field``; or, for the element of ``array`` unnested as
        ``a``, the fields of its elements. A star over unknown fields when the type is
        unknown (reported, never dropped)."""
        path = [part.name for part in star.parts[:-1]]
        typed = [part.name for part in array.parts] if array is not None else path
        fields = self.struct_star(scope, typed) if len(path) < 4 else None
        if fields is None:
            stars.append(Star(star, scope))
            return
        excluded = _Keys(self, [col.name for col in star.this.args.get("except_") or []])
        for field in fields:
            if field not in excluded:
                parts = [exp.to_identifier(name) for name in reversed([*path, field])]
                keys = ("this", "table", "db", "catalog")
                outputs.append(Output(field, exp.Column(**dict(zip(keys, parts, strict=False)))))

    def _stored_in(self, sources: tuple[Source, ...], name: str) -> str:
        for source in sources:
            names = self.source_names(source)
            if names:
                stored, _ = self.names.index(names).match(name)
                if stored is not None:
                    return stored
        return name

    def using_keys(self, scope: Scope) -> list[tuple[str, list[Source], bool]]:
        """USING / NATURAL join keys of a SELECT: (name, the sources joined, FULL join)."""
        keys: list[tuple[str, list[Source], bool]] = []
        select = scope.expression
        from_ = select.args.get("from_")
        if from_ is None:
            return keys
        sides: list[Source] = []
        first = scope.sources.get(from_.this.alias_or_name)
        if first is not None:
            sides.append(first)
        for join in select.args.get("joins") or []:
            source = scope.sources.get(join.this.alias_or_name)
            using = join.args.get("using")
            natural = join.text("method").upper() == "NATURAL"
            if source is not None and (using or natural):
                if natural:
                    left = {n for s in sides for n in self.source_names(s) or ()}
                    names = [n for n in self.source_names(source) or [] if n in left]
                else:
                    names = [node.name for node in using]
                seen = {key for key, _, _ in keys}
                full = join.side == "FULL"
                keys.extend((n, [*sides, source], full) for n in names if n not in seen)
            if source is not None:
                sides.append(source)
        return keys

    def through_stars(self, scope: Scope, stars: list[Star], name: str) -> Edges:
        """A name no projection lists, asked of a SELECT with stars over unknown columns."""
        sources = [
            star.source
            for star in stars
            if (not isinstance(star.source, Scope) or star.source is not scope)
            and _admits(star.node, name)
        ]
        definite = [s for s in sources if self.holds(s, name) is True]
        possible = definite or [s for s in sources if self.holds(s, name) is None]
        if len(possible) == 1:
            return self.resolve_in_source(possible[0], name, None)
        if possible:
            labels = ", ".join(label(source) for source in possible)
            return Edges.problem(f"{_AMBIGUOUS_STAR}: column {name} could come from {labels}")
        where = label(scope)
        return Edges.problem(f"{_UNKNOWN}: column {name} not found in {where}")


def _element_array(source: Source | None) -> exp.Column | None:
    """The array column an UNNEST source's alias names the elements of (BigQuery)."""
    if not isinstance(source, Scope) or not isinstance(source.expression, exp.Unnest):
        return None
    unnest = source.expression
    arrays = unnest.expressions
    if not names_element(unnest) or len(arrays) != 1 or not isinstance(arrays[0], exp.Column):
        return None
    return arrays[0]


def star_pattern(star: exp.Expr) -> re.Pattern[str] | None:
    """The names a star keeps by its ILIKE pattern (Snowflake, DuckDB), or None for all.

    >>> star_pattern(exp.Star(ilike=exp.Literal.string("%e_ail%"))).pattern
    '(?is).*e.ail.*'
    """
    ilike = star.args.get("ilike") if isinstance(star, exp.Star) else None
    if not isinstance(ilike, exp.Literal):
        return None
    parts = (".*" if c == "%" else "." if c == "_" else re.escape(c) for c in ilike.this)
    return re.compile("(?is)" + "".join(parts))


def _admits(node: exp.Expr, name: str) -> bool:
    star = node.this if isinstance(node, exp.Column) else node
    pattern = star_pattern(star)
    return pattern is None or pattern.fullmatch(name) is not None


class _Keys:
    """Identifiers (EXCLUDE, USING...) that stored names are checked against."""

    def __init__(self, walker: WalkerBase, identifiers: list[str]) -> None:
        self.exact = set(identifiers)
        self.folded = {name.casefold() for name in identifiers}
        self.key = walker.names.key

    def __bool__(self) -> bool:
        return bool(self.exact)

    def __contains__(self, stored: str) -> bool:
        return self.key(stored) in self.exact or stored.casefold() in self.folded


def _lookup(walker: WalkerBase, by_identifier: dict[str, t.Any], stored: str) -> t.Any:
    """The value an identifier-keyed mapping holds for a stored name."""
    if not by_identifier:
        return None
    found = by_identifier.get(walker.names.key(stored))
    if found is None:
        folded = [v for k, v in by_identifier.items() if k.casefold() == stored.casefold()]
        found = folded[0] if len(folded) == 1 else None
    return found
