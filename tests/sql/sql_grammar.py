"""A grammar of SQL queries for fuzzing ``column_lineage``, with the answer it should give.

Each generated case is a random schema (some tables listed, some not) and one query over it:
CTE chains, ``SELECT *`` and ``t.*``, set operations, joins with ``ON`` and ``USING``,
subqueries in WHERE, SELECT and FROM, window functions, GROUP BY / HAVING / QUALIFY, columns
the schema lacks, quoted identifiers, in one of several dialects. While it writes the SQL the
generator keeps what a correct engine must answer for each output column (:class:`Col`): its
name, and whether it reads a base column (``v``), reads one that a listed table lacks
(``x``), or reads none (``k``, a constant). Where a top-level star runs over columns that the
engine cannot know, the outputs are not predicted (``Case.outputs`` is None).

The choices go through a :class:`Chooser`: :class:`DrawChooser` takes them from hypothesis
(``cases()``: generation and shrinking in the tests), :class:`RandomChooser` from a seeded
``random.Random`` (``benchmarks/fuzz.py``: many inputs quickly).
"""

from __future__ import annotations

import dataclasses
import itertools
import random
import typing as t

from hypothesis import strategies as st

from dbt_lineage.types import UnresolvedReason

DIALECTS = ("duckdb", "postgres", "snowflake", "bigquery", "spark")
_QUALIFY = {"duckdb", "snowflake", "bigquery"}
_LATERAL = {"duckdb", "postgres", "snowflake"}
_VALUES = {"duckdb", "postgres", "snowflake"}
_RECURSIVE = {"duckdb", "postgres", "snowflake"}
_UNNEST = {"duckdb": "[{}]", "postgres": "array[{}]"}
_GROUP_BY_ALL = {"duckdb", "snowflake"}
_EXCLUDE = {"duckdb": "exclude", "snowflake": "exclude", "bigquery": "except"}
_BACKTICKS = {"bigquery", "spark"}
_TABLES = ("orders", "customers", "events", "Order Items", "payments")
_COLUMNS = ("id", "amount", "status", "customer_id", "created_at", "Mixed Col", "note")
_MISSING = "ghost"
"""A column no table has: reading it from a listed table is an unknown column."""


@dataclasses.dataclass(frozen=True)
class Col:
    """An output column as the generator knows it.

    Attributes:
        name: its name (unquoted).
        role: ``v`` reads a base column, ``x`` reads a column a listed table lacks (the
            engine must report it unresolved), ``k`` reads no column (a constant), ``w``
            reads none but a window's keys steer it (a ranking: no direct upstream of its
            own, while a comparison with it, as in ``EXISTS``, may read those keys; also a
            value computed from the rows of a subquery, such as ``count(*)``, which may
            read the keys that decide them).
    """

    name: str
    role: str


@dataclasses.dataclass
class Case:
    """One generated input and what the answer must look like."""

    sql: str
    dialect: str
    schema: dict[str, dict[str, str]]
    outputs: tuple[Col, ...] | None
    """The query's outputs in order; None when a top-level star hides them from the engine."""
    mutated: bool = False
    """The SQL was damaged on purpose: only "raises nothing but SqlError" holds."""
    tables: dict[str, list[str]] = dataclasses.field(default_factory=dict)
    """Every table the query may read, listed or not, to its columns (to execute it)."""


class Chooser(t.Protocol):
    def integer(self, low: int, high: int) -> int: ...


class DrawChooser:
    """Choices drawn from hypothesis (shrinkable)."""

    def __init__(self, draw: t.Callable[[st.SearchStrategy[t.Any]], t.Any]) -> None:
        self._draw = draw

    def integer(self, low: int, high: int) -> int:
        return self._draw(st.integers(low, high))


class RandomChooser:
    """Choices from a seeded ``random.Random``."""

    def __init__(self, rng: random.Random) -> None:
        self._rng = rng

    def integer(self, low: int, high: int) -> int:
        return self._rng.randint(low, high)


@dataclasses.dataclass
class _Rel:
    """A FROM item in scope: its SQL, the qualifier to use, its columns."""

    text: str
    qualifier: str
    cols: list[Col]
    opaque: bool
    """The engine cannot know its columns (an unlisted table, or a star over one)."""
    listed: bool = False
    """A table the schema lists (reading a column it lacks is an unknown column)."""
    tainted: bool = False
    """Which rows it has depends on a column that a listed table lacks (a value read from
    its rows, such as ``EXISTS`` or ``count(*)`` over it, is unresolved)."""


@dataclasses.dataclass
class _Query:
    """A query written: its SQL and outputs, and what the engine can know of them."""

    sql: str
    cols: list[Col]
    opaque: bool
    tainted: bool


_ROLE_RANK = {"k": 0, "w": 1, "v": 2, "x": 3}


def _combine(roles: t.Iterable[str]) -> str:
    return max(roles, key=_ROLE_RANK.__getitem__, default="k")


class _Generator:
    def __init__(self, chooser: Chooser, dialect: str, max_depth: int) -> None:
        self.c = chooser
        self.dialect = dialect
        self.max_depth = max_depth
        self.counter = itertools.count()
        self.tables: dict[str, tuple[list[str], bool]] = {}
        self.ctes: list[_Rel] = []
        self.budget = 4
        """Subqueries left to write (keeps a case small enough to read when it fails)."""

    # -- choices ---------------------------------------------------------------------------

    def chance(self, percent: int) -> bool:
        return self.c.integer(0, 99) < percent

    def pick(self, items: t.Sequence[t.Any]) -> t.Any:
        return items[self.c.integer(0, len(items) - 1)]

    def nest(self, depth: int) -> bool:
        """Whether to write a subquery here (within the depth and the budget)."""
        if depth >= self.max_depth or self.budget <= 0:
            return False
        self.budget -= 1
        return True

    def fresh(self, prefix: str) -> str:
        return f"{prefix}{next(self.counter)}"

    def quote(self, name: str) -> str:
        if name.isidentifier() and name == name.lower() and name not in ("date", "order"):
            return name
        if self.dialect in _BACKTICKS:
            return f"`{name}`"
        return f'"{name}"'

    # -- schema ----------------------------------------------------------------------------

    def schema(self) -> dict[str, dict[str, str]]:
        listed: dict[str, dict[str, str]] = {}
        for table in _TABLES[: self.c.integer(2, len(_TABLES))]:
            count = self.c.integer(1, 5)
            start = self.c.integer(0, len(_COLUMNS) - 1)
            columns = [_COLUMNS[(start + i) % len(_COLUMNS)] for i in range(count)]
            if "id" not in columns and self.chance(70):
                columns.insert(0, "id")
            known = self.chance(65)
            self.tables[table] = (columns, known)
            if known:
                listed[self.quote(table)] = {
                    c: self.pick(("int", "varchar", "double")) for c in columns
                }
        return listed

    # -- FROM items ------------------------------------------------------------------------

    def table_rel(self) -> _Rel:
        name = self.pick(list(self.tables))
        columns, known = self.tables[name]
        alias = self.fresh("t")
        text = f"{self.quote(name)} as {alias}" if self.chance(80) else self.quote(name)
        qualifier = alias if " as " in text else self.quote(name)
        return _Rel(text, qualifier, [Col(c, "v") for c in columns], not known, listed=known)

    def from_item(self, depth: int, used: set[str]) -> _Rel:
        roll = self.c.integer(0, 9)
        if roll < 2 and self.ctes:
            cte = self.pick(self.ctes)
            alias = self.fresh("c")
            return _Rel(
                f"{cte.text} as {alias}", alias, list(cte.cols), cte.opaque, tainted=cte.tainted
            )
        if roll < 4 and self.nest(depth):
            query = self.query(depth + 1)
            alias = self.fresh("s")
            return _Rel(
                f"({query.sql}) as {alias}", alias, query.cols, query.opaque, tainted=query.tainted
            )
        if roll == 4 and self.dialect in _VALUES and self.chance(40):
            alias = self.fresh("v")
            names = [self.fresh("x"), self.fresh("y")]
            text = f"(values (1, 'a'), (2, 'b')) as {alias}({', '.join(names)})"
            return _Rel(text, alias, [Col(name, "k") for name in names], False)
        rel = self.table_rel()
        if rel.qualifier in used:  # the same table twice needs an alias
            alias = self.fresh("t")
            rel = dataclasses.replace(rel, text=f"{rel.text.split(' as ')[0]} as {alias}")
            rel.qualifier = alias
        return rel

    def from_clause(self, depth: int) -> tuple[str, list[_Rel]]:
        first = self.from_item(depth, set())
        rels = [first]
        text = first.text
        for _ in range(self.c.integer(0, 2)):
            if self.dialect in _LATERAL and self.chance(12) and self.nest(depth):
                rel = self.lateral(rels)
                text += f" cross join {rel.text}"
                rels.append(rel)
                continue
            if self.dialect in _UNNEST and self.chance(8):
                value, col = self.ref(self.pick(rels), value=True)
                alias, name = self.fresh("u"), self.fresh("x")
                array = _UNNEST[self.dialect].format(value)
                text += f" cross join unnest({array}) as {alias}({name})"
                rels.append(_Rel(f"unnest({array})", alias, [Col(name, col.role)], False))
                continue
            rel = self.from_item(depth, {r.qualifier for r in rels})
            kind = self.pick(("join", "left join", "inner join", "full join", "cross join"))
            if kind == "cross join":
                text += f" cross join {rel.text}"
            else:
                common = [
                    col.name
                    for col in rel.cols
                    if col.role != "x"
                    and sum(any(o.name == col.name and o.role != "x" for o in r.cols) for r in rels)
                    == 1
                ]
                if common and self.chance(35) and kind != "full join":
                    key = self.pick(common)
                    text += f" {kind} {rel.text} using ({self.quote(key)})"
                else:
                    left = self.pick(rels)
                    condition = f"{self.ref(left)[0]} = {self.ref(rel)[0]}"
                    text += f" {kind} {rel.text} on {condition}"
            rels.append(rel)
        return text, rels

    def lateral(self, rels: list[_Rel]) -> _Rel:
        """``LATERAL (SELECT ... WHERE key = <an earlier FROM item's column>)``."""
        inner = self.table_rel()
        if " as " not in inner.text:
            alias = self.fresh("t")
            inner = dataclasses.replace(inner, text=f"{inner.text} as {alias}", qualifier=alias)
        key, _ = self.ref(inner)
        outer, _ = self.ref(self.pick(rels))
        items, cols = [], []
        for _ in range(self.c.integer(1, 2)):
            value, col = self.ref(inner, value=True)
            name = self.fresh("l")
            items.append(f"{value} as {name}")
            cols.append(Col(name, col.role))
        alias = self.fresh("s")
        sql = f"select {', '.join(items)} from {inner.text} where {key} = {outer}"
        return _Rel(f"lateral ({sql}) as {alias}", alias, cols, False)

    # -- references and expressions --------------------------------------------------------

    def ref(self, rel: _Rel, *, bare: bool = False, value: bool = False) -> tuple[str, Col]:
        """A column of ``rel``: SQL and the column read.

        A ``value`` (a column whose lineage is asked, not a key) is sometimes one that
        ``rel`` lacks: an unknown column of a listed table or of a query (``x``), inferred
        for a table the engine cannot know (``v``).
        """
        usable = rel.cols if value else [col for col in rel.cols if col.role != "x"]
        if value and (not usable or self.chance(6)):
            missing = _MISSING if all(c.name != _MISSING for c in rel.cols) else "phantom"
            col = Col(missing, "v" if rel.opaque else "x")
        elif not usable and rel.opaque:
            col = Col(_MISSING, "v")
        elif not usable:
            return "1", Col("1", "k")
        else:
            col = self.pick(usable)
        if col.role == "x":  # unqualified, an outer query's unlisted table may hold it
            bare = False
        text = self.quote(col.name) if bare else f"{rel.qualifier}.{self.quote(col.name)}"
        return text, col

    def expression(self, rels: list[_Rel], depth: int, bare: bool) -> tuple[str, str]:
        """A scalar expression: SQL and its role."""
        roll = self.c.integer(0, 11)
        if roll == 0:
            return self.pick(("1", "'x'", "null", "current_date", "2.5")), "k"
        a, col_a = self.ref(self.pick(rels), bare=bare, value=True)
        b, col_b = self.ref(self.pick(rels), bare=bare, value=True)
        role = _combine((col_a.role, col_b.role))
        if roll == 1:
            return f"{a} + 1", col_a.role
        if roll == 2:
            return f"coalesce({a}, {b})", role
        if roll == 3:
            return f"case when {a} is null then {b} else {a} end", role
        if roll == 4:
            return f"cast({a} as varchar)", col_a.role
        if roll == 5:
            return f"upper(cast({a} as varchar))", col_a.role
        if roll == 6 and self.nest(depth):
            sql, col = self.scalar_subquery(depth, rels)
            return sql, col
        if roll == 7 and self.nest(depth):
            inner = self.from_item(depth + 1, {r.qualifier for r in rels})
            outer, col = self.ref(self.pick(rels), bare=bare)
            key, inner_col = self.ref(inner)
            role = _combine((col.role, inner_col.role, "x" if inner.tainted else "w"))
            return f"exists (select 1 from {inner.text} where {key} = {outer})", role
        if roll == 8:
            return f"{a} * {b}", role
        return a, col_a.role

    def scalar_subquery(self, depth: int, rels: list[_Rel]) -> tuple[str, str]:
        inner = self.from_item(depth + 1, {r.qualifier for r in rels})
        value, col = self.ref(inner, value=True)
        where = ""
        if self.chance(50):
            outer, _ = self.ref(self.pick(rels))
            key, _ = self.ref(inner)
            where = f" where {key} = {outer}"
        rows = "x" if inner.tainted else "w"  # the clauses that decide its rows count
        if self.chance(30):
            return f"(select count(*) from {inner.text}{where})", rows
        return f"(select max({value}) from {inner.text}{where})", _combine((col.role, rows))

    def predicate(self, rels: list[_Rel], depth: int, bare: bool) -> tuple[str, bool]:
        """A WHERE condition, and whether the rows it keeps depend on an unresolved column
        (a subquery over a tainted source)."""
        a, _ = self.ref(self.pick(rels), bare=bare)
        roll = self.c.integer(0, 6)
        if roll == 0 and self.nest(depth):
            inner = self.from_item(depth + 1, set())
            value, _ = self.ref(inner)
            return f"{a} in (select {value} from {inner.text})", inner.tainted
        if roll == 1 and self.nest(depth):
            inner = self.from_item(depth + 1, {r.qualifier for r in rels})
            key, _ = self.ref(inner)
            negated = "not " if self.chance(30) else ""
            sql = f"{negated}exists (select 1 from {inner.text} where {key} = {a})"
            return sql, inner.tainted
        if roll == 2:
            b, _ = self.ref(self.pick(rels), bare=bare)
            return f"({a} = {b} or {a} is null)", False
        if roll == 3:
            return f"{a} is not null", False
        if roll == 4:
            return f"{a} in (1, 2)", False
        if roll == 5:
            return f"{a} between 1 and 2", False
        return f"{a} > 1", False

    def window(self, rels: list[_Rel], bare: bool) -> tuple[str, str]:
        key, _ = self.ref(self.pick(rels), bare=bare)
        order, _ = self.ref(self.pick(rels), bare=bare)
        over = f"over (partition by {key} order by {order})"
        roll = self.c.integer(0, 3)
        if roll == 0:
            return f"row_number() {over}", "w"
        value, col = self.ref(self.pick(rels), bare=bare, value=True)
        if roll == 1:
            return f"sum({value}) {over}", col.role
        if roll == 2:
            return f"lag({value}) over (order by {order})", col.role
        return f"max({value}) over (partition by {key})", col.role

    # -- queries ---------------------------------------------------------------------------

    def select(self, depth: int, width: int | None = None) -> _Query:
        """One SELECT: SQL, outputs, whether its outputs are hidden from the engine."""
        from_text, rels = self.from_clause(depth)
        bare = len(rels) == 1 and self.chance(50)
        grouped = self.chance(25)
        items: list[str] = []
        cols: list[Col] = []
        opaque = False
        names: set[str] = set()

        def add(text: str, col: Col) -> None:
            key = col.name.casefold()
            if key in names or text == "1":
                col = Col(self.fresh("a"), col.role)
                text = f"{text} as {col.name}"
                key = col.name
            names.add(key)
            items.append(text)
            cols.append(col)

        count = width if width is not None else self.c.integer(1, 4)
        keys: list[str] = []
        while len(cols) < count:
            roll = self.c.integer(0, 9)
            if grouped:
                if roll < 4:
                    text, col = self.ref(self.pick(rels), bare=bare)
                    if text != "1":  # GROUP BY 1 would name the first output
                        keys.append(text)
                    add(text, col)
                else:
                    value, col = self.ref(self.pick(rels), bare=bare, value=True)
                    func = self.pick(("sum", "max", "count", "count distinct", "count star"))
                    if func == "count star":
                        name = self.fresh("n")
                        add(f"count(*) as {name}", Col(name, "k"))
                    elif func == "count distinct":
                        name = self.fresh("a")
                        add(f"count(distinct {value}) as {name}", Col(name, col.role))
                    else:
                        name = self.fresh("a")
                        add(f"{func}({value}) as {name}", Col(name, col.role))
                continue
            if roll == 0 and width is None and not cols and len(rels) == 1:
                star = rels[0]
                if not star.opaque and not star.cols:
                    continue
                kept, written = star.cols, "*" if self.chance(50) else f"{star.qualifier}.*"
                if self.dialect in _EXCLUDE and not star.opaque and len(kept) > 1:
                    if self.chance(30):
                        dropped = self.pick(kept)
                        kept = [col for col in kept if col is not dropped]
                        written = f"* {_EXCLUDE[self.dialect]} ({self.quote(dropped.name)})"
                for col in kept:
                    names.add(col.name.casefold())
                    cols.append(col)
                items.append(written)
                opaque = opaque or star.opaque
                if len(cols) >= count:
                    break
                continue
            if roll == 1 and width is None:
                star = self.pick(rels)
                if any(c.name.casefold() in names for c in star.cols) or not star.cols:
                    continue
                for col in star.cols:
                    names.add(col.name.casefold())
                    cols.append(col)
                items.append(f"{star.qualifier}.*")
                opaque = opaque or star.opaque
                continue
            if roll == 2:
                text, col = self.ref(self.pick(rels), bare=bare, value=True)
                add(text, col)
            elif roll == 3:
                text, role = self.window(rels, bare)
                name = self.fresh("w")
                add(f"{text} as {name}", Col(name, role))
            else:
                text, role = self.expression(rels, depth, bare)
                name = self.fresh("E" if self.chance(15) else "e")
                add(f"{text} as {self.quote(name)}", Col(name, role))
        distinct = not grouped and width is None and self.chance(10)
        select = "select distinct" if distinct else "select"
        sql = f"{select} {', '.join(items)} from {from_text}"
        filtered_by_taint = False
        if self.chance(40):
            condition, filtered_by_taint = self.predicate(rels, depth, bare)
            sql += f" where {condition}"
        # (not in a set operation's branch: sqlglot reads GROUP BY ALL EXCEPT as one clause)
        if grouped and keys and width is None and self.dialect in _GROUP_BY_ALL and self.chance(30):
            sql += " group by all"
        elif grouped and keys:
            sql += f" group by {', '.join(dict.fromkeys(keys))}"
        if grouped and self.chance(40):
            value, _ = self.ref(self.pick(rels), bare=bare)
            sql += f" having count({value}) > 1"
        if not grouped and self.dialect in _QUALIFY and self.chance(15):
            key, _ = self.ref(self.pick(rels), bare=bare)
            order, _ = self.ref(self.pick(rels), bare=bare)
            sql += f" qualify row_number() over (partition by {key} order by {order}) = 1"
        tainted = (
            filtered_by_taint
            or any(rel.tainted for rel in rels)
            or (
                distinct and any(col.role == "x" for col in cols)  # DISTINCT compares whole rows
            )
        )
        return _Query(sql, cols, opaque, tainted)

    def set_operation(self, depth: int) -> _Query:
        """Two or three SELECTs joined by set operators.

        The outputs' roles follow what each operator does to values: INTERSECT binds first
        (its sides hold equal values: both count), UNION takes values from both sides, the
        right side of EXCEPT only removes rows. Every operator but UNION ALL compares whole
        rows, so a column read that is unresolved decides the rows too. BigQuery refuses
        mixed operators without parentheses: one operator there.
        """
        width = self.c.integer(1, 3)
        first = self.select(depth, width)
        sql, cols, opaque, tainted = first.sql, first.cols, first.opaque, first.tainted
        ops = ["union all", "union", "intersect", "except"]
        op = self.pick(ops)
        groups: list[tuple[str, list[list[str]]]] = [("", [[col.role] for col in cols])]
        for _ in range(self.c.integer(1, 2)):
            if self.dialect != "bigquery":
                op = self.pick(ops)
            query = self.select(depth, width)
            branch, other = query.sql, query.cols
            opaque, tainted = opaque or query.opaque, tainted or query.tainted
            written = op + (" distinct" if self.dialect == "bigquery" and op != "union all" else "")
            sql = f"{sql} {written} {branch}"
            if op == "intersect":
                for roles, col in zip(groups[-1][1], other, strict=True):
                    roles.append(col.role)
            else:
                groups.append((op, [[col.role] for col in other]))
        # An INTERSECT of branches compares them whole; so do UNION and EXCEPT, with what
        # came before (its values) and the group after; UNION ALL compares nothing.
        tainted = tainted or any(
            len(group[0]) > 1 and any("x" in roles for roles in group) for _, group in groups
        )
        roles = [_combine(r) for r in groups[0][1]]
        for op, group in groups[1:]:
            if op != "union all" and ("x" in roles or any("x" in r for r in group)):
                tainted = True
            if op != "except":
                roles = [_combine((role, *more)) for role, more in zip(roles, group, strict=True)]
        outputs = [Col(col.name, role) for col, role in zip(cols, roles, strict=True)]
        return _Query(sql, outputs, opaque, tainted)

    def query(self, depth: int) -> _Query:
        query = self.set_operation(depth) if self.chance(20) else self.select(depth)
        cols = query.cols
        if self.chance(15) and cols and cols[0].role != "x":  # the key decides the rows
            query.sql += " order by 1 limit 10"
        return query

    def statement(self) -> _Query:
        ctes = []
        recursive = self.dialect in _RECURSIVE and self.chance(15)
        if recursive:
            ctes.append(self.recursive_cte())
        for _ in range(self.c.integer(0, 2)):
            query = self.query(1)
            name = self.fresh("cte")
            ctes.append(f"{name} as ({query.sql})")
            self.ctes.append(_Rel(name, name, query.cols, query.opaque, tainted=query.tainted))
        query = self.query(0)
        if ctes:
            query.sql = f"with {'recursive ' if recursive else ''}{', '.join(ctes)} {query.sql}"
        return query

    def recursive_cte(self) -> str:
        """A recursive CTE: an anchor over a table, a member that reads the CTE itself."""
        inner = self.table_rel()
        if " as " not in inner.text:
            alias = self.fresh("t")
            inner = dataclasses.replace(inner, text=f"{inner.text} as {alias}", qualifier=alias)
        name = self.fresh("rec")
        value, col = self.ref(inner)
        column = self.fresh("n")
        anchor = f"select {value} as {column} from {inner.text}"
        member = f"select {name}.{column} + 1 from {name} where {name}.{column} < 10"
        self.ctes.append(_Rel(name, name, [Col(column, col.role)], False))
        return f"{name} as ({anchor} union all {member})"


def generate(chooser: Chooser, *, max_depth: int = 2, mutate: bool = True) -> Case:
    """One case from a chooser's choices."""
    dialect = DIALECTS[chooser.integer(0, len(DIALECTS) - 1)]
    generator = _Generator(chooser, dialect, max_depth)
    schema = generator.schema()
    query = generator.statement()
    tables = {name: columns for name, (columns, _) in generator.tables.items()}
    if mutate and generator.chance(5):
        sql = _mutated(generator, query.sql)
        return Case(sql, dialect, schema, None, mutated=True, tables=tables)
    outputs = None if query.opaque else tuple(query.cols)
    return Case(query.sql, dialect, schema, outputs, tables=tables)


def _mutated(generator: _Generator, sql: str) -> str:
    """The SQL damaged: cut short, a token dropped or doubled, garbage put in."""
    cut = generator.c.integer(0, max(0, len(sql) - 1))
    roll = generator.c.integer(0, 3)
    if roll == 0:
        return sql[:cut]
    if roll == 1:
        return sql[:cut] + sql[cut + 1 :]
    if roll == 2:
        return (
            sql[:cut] + generator.pick(("(", ")", ",", "select", "'", '"', ";", "--")) + sql[cut:]
        )
    return sql[:cut] + " " + sql[cut:]


@st.composite
def cases(draw: t.Callable[[st.SearchStrategy[t.Any]], t.Any]) -> Case:
    """Hypothesis strategy: one generated case."""
    return generate(DrawChooser(draw))


def violations(case: Case, lineage: t.Any) -> list[str]:
    """What in ``lineage`` (a ``QueryLineage`` of ``case``) a correct engine would not say."""
    found = []
    reasons = {reason.value for reason in UnresolvedReason}
    for name, reason in lineage.unresolved.items():
        if reason.split(":", 1)[0] not in reasons:
            found.append(f"{name}: unknown reason {reason!r}")
        if "\n" in reason or "\x1b" in reason:
            found.append(f"{name}: reason not one clean line {reason!r}")
    for name, upstreams in lineage.columns.items():
        if any(not u.kind.is_direct or not u.column or not u.table for u in upstreams):
            found.append(f"{name}: a direct upstream that is indirect or unnamed {upstreams}")
    if any(u.kind.is_direct for u in lineage.indirect):
        found.append("a direct kind among the indirect upstreams")
    if case.mutated or case.outputs is None:
        return found
    got = [name.casefold() for name in lineage.columns]
    want = [col.name.casefold() for col in case.outputs]
    if got != want:
        return [*found, f"outputs {got} != {want}"]
    if "*" in lineage.unresolved:
        found.append(f"*: unresolved although every star expands: {lineage.unresolved['*']}")
    for name, col in zip(lineage.columns, case.outputs, strict=True):
        upstreams, reason = lineage.columns[name], lineage.unresolved.get(name)
        if col.role == "v" and (not upstreams or reason is not None):
            found.append(f"{name}: reads a column, got {upstreams} unresolved {reason!r}")
        elif col.role == "x" and (reason is None or not reason.startswith("unknown_column")):
            found.append(f"{name}: reads a column its source lacks, got unresolved {reason!r}")
        elif col.role == "w" and reason is not None:
            found.append(f"{name}: a ranking, got unresolved {reason!r}")
        elif col.role == "k" and (upstreams or reason is not None):
            found.append(f"{name}: a constant, got {upstreams} unresolved {reason!r}")
    return found
