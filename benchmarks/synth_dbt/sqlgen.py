"""Compiled SQL for one synthetic model: a chain of 3 to 6 CTEs over its upstreams.

The SQL is written with placeholders (``__UPSTREAM_0__``...) where the upstream relations go,
so the same text becomes dbt's ``compiled_code`` (quoted relation names) and ``raw_code``
(``ref()`` / ``source()`` calls). Column 0 of every relation is an integer key, kept first by
every step, so that joins always have a key of a comparable type.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from .columns import (
    AGGREGATES,
    FILTERS,
    INTEGERS,
    TEMPORAL,
    TRANSFORMS,
    VARCHAR,
    Col,
    Names,
    affixed,
    masked_for_pii,
    window_templates,
)

MIN_COLUMNS, MAX_COLUMNS = 10, 40
INDENT = "        "


@dataclass
class Upstream:
    """An input of the model as the SQL sees it."""

    placeholder: str
    name: str
    columns: list[Col]


@dataclass
class Relation:
    """A CTE or the final query: its name and output columns, in order."""

    name: str
    columns: list[Col]


@dataclass
class ModelSql:
    """The SQL of one model with placeholders, and its output columns."""

    sql: str
    columns: list[Col]
    ctes: list[str] = field(default_factory=list)


def _select(items: list[str], source: str, clauses: tuple[str, ...] = ()) -> str:
    lines = ["    select", ",\n".join(INDENT + i for i in items), f"    from {source}"]
    lines.extend(f"    {c}" for c in clauses)
    return "\n".join(lines)


def _item(expr: str, name: str) -> str:
    return expr if expr == name or expr.endswith(f".{name}") else f"{expr} as {name}"


class ModelBuilder:
    """Accumulates the CTEs of one model; each step reads the previous relation."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.ctes: list[tuple[str, str]] = []
        self.cte_names = Names()

    def _add(self, base: str, body: str, columns: list[Col]) -> Relation:
        name = self.cte_names.fresh(base)
        self.ctes.append((name, body))
        return Relation(name, columns)

    # Steps ---------------------------------------------------------------------------------

    def import_(self, up: Upstream, base: str, explicit: bool) -> Relation:
        """``select * from <upstream>``, or an explicit subset of its columns."""
        cols = up.columns
        if explicit and len(cols) > MIN_COLUMNS:
            width = self.rng.randint(MIN_COLUMNS, len(cols) - 1)
            keep = self.rng.sample(range(1, len(cols)), width)
            cols = [cols[0]] + [cols[i] for i in sorted(keep)]
            return self._add(base, _select([c.name for c in cols], up.placeholder), cols)
        return self._add(base, f"    select * from {up.placeholder}", list(cols))

    def rename(
        self, rel: Relation, key_name: str | None, base: str = "renamed", p_transform: float = 0.45
    ) -> Relation:
        """An explicit select list: renames, casts, COALESCE, CASE; keeps the key first.

        Each non-key column is transformed with probability ``p_transform``; ``*_id`` columns
        are copied as they are, so they stay join keys.
        """
        rng = self.rng
        names = Names()
        key = rel.columns[0]
        key_out = names.fresh(key_name or key.name)
        items, cols = [_item(key.name, key_out)], [Col(key_out, key.type)]
        others = rel.columns[1:]
        if len(others) > MAX_COLUMNS - 1:
            others = rng.sample(others, MAX_COLUMNS - 1)
        for col in others:
            templates = TRANSFORMS.get(col.type, ())
            if templates and not col.name.endswith("_id") and rng.random() < p_transform:
                expr, ty, affix = masked_for_pii(col, rng.choice(templates))
                out = names.fresh(affixed(col.name, affix))
                items.append(_item(expr.format(c=col.name), out))
                cols.append(Col(out, ty))
            else:
                out = names.fresh(col.name)
                items.append(_item(col.name, out))
                cols.append(Col(out, col.type))
        return self._add(base, _select(items, rel.name), cols)

    def join(
        self, main: Relation, others: list[Relation], base: str = "joined", on_key: bool = False
    ) -> Relation:
        """``m.*`` plus a few columns of each other relation, joined on integer keys.

        With ``on_key`` every join is on the main relation's key (column 0): a join back.
        """
        rng = self.rng
        names = Names(c.name for c in main.columns)
        items, cols = ["m.*"], list(main.columns)
        clauses = []
        main_keys = [c for c in main.columns if c.type in INTEGERS and c.name.endswith("_id")]
        if on_key or not main_keys:
            main_keys = [main.columns[0]]
        for n, other in enumerate(others, 1):
            alias = f"j{n}"
            join_kind = rng.choice(("left join", "left join", "inner join", "full outer join"))
            on = f"m.{rng.choice(main_keys).name} = {alias}.{other.columns[0].name}"
            clauses.append(f"{join_kind} {other.name} as {alias} on {on}")
            rest = other.columns[1:]
            fits = rest and len(cols) + len(rest) <= MAX_COLUMNS + 10
            if fits and not any(c.name in names.taken for c in rest) and rng.random() < 0.3:
                items.append(f"{alias}.* exclude ({other.columns[0].name})")
                names.taken.update(c.name for c in rest)
                cols.extend(rest)
                continue
            for col in rng.sample(rest, min(len(rest), rng.randint(3, 12))):
                out = names.fresh(col.name)
                items.append(_item(f"{alias}.{col.name}", out))
                cols.append(Col(out, col.type))
        return self._add(base, _select(items, f"{main.name} as m", tuple(clauses)), cols)

    def aggregate(self, rel: Relation, width: int, base: str = "aggregated") -> Relation:
        """GROUP BY the key (and maybe a dimension) with ``width`` output columns in all."""
        rng = self.rng
        key = rel.columns[0]
        dims = [c for c in rel.columns[1:] if c.type == VARCHAR or c.type in TEMPORAL]
        keys = [key] + rng.sample(dims, min(len(dims), rng.randint(0, 2)))
        names = Names(c.name for c in keys)
        items, cols = [k.name for k in keys], list(keys)
        n_rows = names.fresh("n_rows")
        items.append(f"count(*) as {n_rows}")
        cols.append(Col(n_rows, "BIGINT"))
        pool = [c for c in rel.columns[1:] if c not in keys]
        while len(cols) < width and pool:
            col = rng.choice(pool)
            templates = AGGREGATES.get(col.type) or (("max({c})", col.type, "max_"),)
            expr, ty, affix = rng.choice(templates)
            out = names.fresh(affixed(col.name, affix))
            items.append(_item(expr.format(c=col.name), out))
            cols.append(Col(out, ty))
        style = rng.random()
        if style < 0.4:
            group = "group by " + ", ".join(k.name for k in keys)
        elif style < 0.7:
            group = "group by " + ", ".join(str(i) for i in range(1, len(keys) + 1))
        else:
            group = "group by all"
        return self._add(base, _select(items, rel.name, (group,)), cols)

    def window(self, rel: Relation, base: str = "windowed") -> Relation:
        """``select *`` plus 1 to 4 window functions partitioned by an integer key."""
        rng = self.rng
        ints = [c for c in rel.columns if c.type in INTEGERS]
        part = rng.choice(ints[1:] or ints)
        times = [c for c in rel.columns if c.type in TEMPORAL]
        order = rng.choice(times) if times else rel.columns[0]
        names = Names(c.name for c in rel.columns)
        items, cols = ["*"], list(rel.columns)
        row_num = names.fresh("row_num")
        items.append(
            f"row_number() over (partition by {part.name} order by {order.name} desc) as {row_num}"
        )
        cols.append(Col(row_num, "BIGINT"))
        for col in rng.sample(rel.columns[1:], min(len(rel.columns) - 1, rng.randint(0, 3))):
            expr, ty, affix = rng.choice(window_templates(col))
            out = names.fresh(affixed(col.name, affix))
            items.append(_item(expr.format(c=col.name, k=part.name, o=order.name), out))
            cols.append(Col(out, ty))
        return self._add(base, _select(items, rel.name), cols)

    def filter(self, rel: Relation, base: str = "filtered") -> Relation:
        """``select * ... where``: a dedupe on ``row_num`` when there is one, else a predicate."""
        names = [c.name for c in rel.columns]
        if "row_num" in names and self.rng.random() < 0.7:
            cond = "row_num = 1"
        else:
            cands = [c for c in rel.columns if c.type in FILTERS]
            col = self.rng.choice(cands)
            cond = self.rng.choice(FILTERS[col.type]).format(c=col.name)
        return self._add(base, f"    select * from {rel.name}\n    where {cond}", rel.columns)

    def final(self, rel: Relation) -> Relation:
        """The ``final`` CTE: ``select *`` when the width fits, else an explicit list."""
        rng = self.rng
        n = len(rel.columns)
        if MIN_COLUMNS <= n <= MAX_COLUMNS and rng.random() < 0.7:
            return self._add("final", f"    select * from {rel.name}", rel.columns)
        names = Names()
        keep = [rel.columns[0]]
        rest = rel.columns[1:]
        low = max(min(MIN_COLUMNS, n), min(MAX_COLUMNS, int(n * 0.7)))
        want = rng.randint(low, min(MAX_COLUMNS, n)) - 1
        keep += [rest[i] for i in sorted(rng.sample(range(len(rest)), want))]
        items = []
        cols = []
        for col in keep:
            out = names.fresh(col.name)
            items.append(_item(col.name, out))
            cols.append(Col(out, col.type))
        while len(cols) < MIN_COLUMNS:
            col = rng.choice(rel.columns)
            templates = TRANSFORMS.get(col.type) or (("{c}", col.type, "copy"),)
            expr, ty, affix = rng.choice(templates)
            out = names.fresh(affixed(col.name, affix or "clean"))
            items.append(f"{expr.format(c=col.name)} as {out}")
            cols.append(Col(out, ty))
        return self._add("final", _select(items, rel.name), cols)

    def render(self, last: Relation) -> ModelSql:
        """The whole statement: ``with ... select * from <last>``."""
        parts = [f"{name} as (\n\n{body}\n\n)" for name, body in self.ctes]
        sql = "with " + ",\n\n".join(parts) + f"\n\nselect * from {last.name}\n"
        return ModelSql(sql, last.columns, [name for name, _ in self.ctes])
