"""The queries the execution oracle judges, and its tally by construct.

Two sources: the fuzz grammar (``tests/sql/sql_grammar.py``, input ``seed`` drawn from
``random.Random(seed)``, undamaged) and the data-file cases of ``tests/sql/cases``. Each
becomes an :class:`Input`: the SQL, its dialect, every table it may read with its columns
(the grammar knows the tables it did not list; for a case, the schema plus what the engine
inferred), the engine's answer, and the constructs the SQL uses, for the tally.
"""

from __future__ import annotations

import collections
import dataclasses
import random
import typing as t
from pathlib import Path

import sqlglot
import yaml
from sqlglot import exp
from tests.sql.sql_grammar import RandomChooser, generate

from dbt_lineage.errors import SqlError
from dbt_lineage.sql.column_lineage import column_lineage

from .oracle import Verdict, oracle
from .oracle_steps import step_class

Tables = dict[tuple[str, ...], dict[str, str]]


@dataclasses.dataclass
class Input:
    """One query to execute, with the engine's answer."""

    name: str
    sql: str
    dialect: str
    tables: Tables
    lineage: t.Any
    constructs: set[str]


def grammar_input(seed: int) -> Input | None:
    """The grammar's input ``seed`` (None when the engine refuses it as not parsing)."""
    case = generate(RandomChooser(random.Random(seed)), mutate=False)
    try:
        lineage = column_lineage(case.sql, dialect=case.dialect, schema=case.schema)
    except SqlError:
        return None
    tables: Tables = {(name,): dict.fromkeys(columns, "") for name, columns in case.tables.items()}
    _add_inferred(tables, lineage)
    return Input(
        f"seed {seed}", case.sql, case.dialect, tables, lineage, constructs(case.sql, case.dialect)
    )


def case_inputs(directory: Path) -> list[Input]:
    """Every data-file case of ``directory`` the engine answers (statements included: the
    oracle leaves out those that are not queries)."""
    found = []
    for path in sorted(directory.glob("*.yml")):
        spec = yaml.safe_load(path.read_text())
        schema = spec.get("schema") or {}
        dialects = spec.get("dialects") or [spec["dialect"]]  # a case may run on several
        for dialect in dialects:
            try:
                lineage = column_lineage(spec["sql"], dialect=dialect, schema=schema)
            except SqlError:
                continue
            tables: Tables = {}
            for key, columns in _flat(schema):
                parts = tuple(part.name for part in exp.to_table(key, dialect=dialect).parts)
                tables[parts] = {name: str(type_) for name, type_ in columns.items()}
            _add_inferred(tables, lineage)
            name = path.stem if len(dialects) == 1 else f"{path.stem}-{dialect}"
            kinds = constructs(spec["sql"], dialect) | {f"case:{name}"}
            found.append(Input(name, spec["sql"], dialect, tables, lineage, kinds))
    return found


def _flat(schema: t.Mapping[str, t.Any], prefix: str = "") -> t.Iterator[tuple[str, dict]]:
    """``(dotted table name, columns)`` of a flat or nested schema mapping."""
    for key, value in schema.items():
        name = f"{prefix}.{key}" if prefix else key
        if value and all(isinstance(v, dict) for v in value.values()):
            yield from _flat(value, name)
        else:
            yield name, value or {}


def _add_inferred(tables: Tables, lineage: t.Any) -> None:
    """Columns the engine inferred (read from tables the schema does not list) exist too."""
    for parts, columns in lineage.inferred_schema.items():
        folded = tuple(part.casefold() for part in parts)
        match = next(
            (k for k in tables if tuple(p.casefold() for p in k)[-len(folded) :] == folded), None
        )
        table = tables.setdefault(match or tuple(parts), {})
        known = {name.casefold() for name in table}
        table.update({name: "" for name in columns if name.casefold() not in known})


_NODES: dict[type, str] = {
    exp.With: "cte", exp.Window: "window", exp.Qualify: "qualify", exp.Group: "group_by",
    exp.Having: "having", exp.Distinct: "distinct", exp.Limit: "order_limit",
    exp.Exists: "exists", exp.Lateral: "lateral", exp.Unnest: "unnest", exp.Values: "values",
    exp.Case: "case", exp.Coalesce: "coalesce", exp.Pivot: "pivot", exp.Intersect: "intersect",
    exp.Except: "except", exp.AggFunc: "aggregate", exp.Cast: "cast",
}  # fmt: skip


def constructs(sql: str, dialect: str) -> set[str]:
    """The constructs ``sql`` uses, by name (joins by side, set operations, subqueries by
    place, clauses, stars, windows...)."""
    try:
        tree = sqlglot.parse_one(sql, dialect=dialect)
    except sqlglot.errors.SqlglotError:
        return {"unparsed"}
    found = set()
    for node in tree.walk():
        found.update(name for kind, name in _NODES.items() if isinstance(node, kind))
        if isinstance(node, exp.With) and node.args.get("recursive"):
            found.add("recursive_cte")
        elif isinstance(node, exp.Union):
            found.add("union_all" if not node.args.get("distinct") else "union")
        elif isinstance(node, exp.Join):
            side = node.side or node.kind or "inner"
            found.add(f"{side.lower()}_join")
            found.update(["using"] if node.args.get("using") else [])
        elif isinstance(node, exp.Star) and not isinstance(node.parent, exp.Count):
            found.add("star")
        elif isinstance(node, exp.In) and node.args.get("query"):
            found.add("in_subquery")
        elif isinstance(node, exp.Subquery):
            place = (
                "scalar_subquery"
                if isinstance(node.parent, exp.Expression)
                and not isinstance(node.parent, (exp.From, exp.Join))
                else "derived_table"
            )
            found.add(place)
    return found


def judge(item: Input, seed: int = 0) -> Verdict:
    """The oracle's verdict on one input."""
    return oracle(item.sql, item.dialect, item.tables, item.lineage, seed=seed)


def judge_seeds(item: Input, seeds: t.Sequence[int]) -> Verdict:
    """The verdict over several random data sets: an edge is confirmed when it moved under
    some seed, an output that moved with no edge under any seed is a disagreement."""
    verdicts = [judge(item, seed) for seed in seeds]
    first = verdicts[0]
    if first.skipped:
        return first
    hard = {f for v in verdicts for f in v.disagreements if f.check in ("unrelated", "outputs")}
    # an edge unconfirmed under every seed (named by the first seed's step or reason)
    unconfirmed = set.intersection(
        *({(f.check, f.output, f.source) for f in v.disagreements} for v in verdicts)
    )
    soft = {
        f
        for f in first.disagreements
        if f.check not in ("unrelated", "outputs") and (f.check, f.output, f.source) in unconfirmed
    }
    merged = Verdict(agreements=first.agreements, executions=sum(v.executions for v in verdicts))
    merged.disagreements = sorted(hard | soft, key=lambda f: (f.check, f.output, f.source))
    return merged


def judged_grammar(seed: int) -> tuple[Input, Verdict] | None:
    """The grammar's input ``seed`` and the oracle's verdict (a worker process's task)."""
    item = grammar_input(seed)
    if item is None:
        return None
    verdict = judge(item, seed=seed)
    # The engine's answer stays in the worker: the compiled engine's frozen classes do not
    # unpickle (mypyc's __setstate__ meets the frozen __setattr__), and the tally needs none.
    return dataclasses.replace(item, lineage=None), verdict


@dataclasses.dataclass
class Tally:
    """Verdicts added up: overall, by check and by construct."""

    inputs: int = 0
    executed: int = 0
    executions: int = 0
    skipped: collections.Counter[str] = dataclasses.field(default_factory=collections.Counter)
    agreements: collections.Counter[str] = dataclasses.field(default_factory=collections.Counter)
    disagreements: collections.Counter[str] = dataclasses.field(default_factory=collections.Counter)
    by_construct: dict[str, collections.Counter[str]] = dataclasses.field(
        default_factory=lambda: collections.defaultdict(collections.Counter)
    )
    explained: collections.Counter[str] = dataclasses.field(default_factory=collections.Counter)
    """Disagreements of an edge the result never showed, by the kind of step of the query
    (run alone) where its source moved the rows or the values."""
    examples: list[tuple[str, str, t.Any]] = dataclasses.field(default_factory=list)

    def add(self, item: Input, verdict: Verdict) -> None:
        self.inputs += 1
        self.executions += verdict.executions
        if verdict.skipped:
            self.skipped[verdict.skipped] += 1
            return
        self.executed += 1
        self.agreements.update(verdict.agreements)
        self.disagreements.update(finding.check for finding in verdict.disagreements)
        self.explained.update(
            f"{f.check}: {step_class(f.step)}" for f in verdict.disagreements if f.step
        )
        for construct in item.constructs:
            counts = self.by_construct[construct]
            counts["queries"] += 1
            counts["agreements"] += sum(verdict.agreements.values())
            counts.update(f"disagree:{finding.check}" for finding in verdict.disagreements)
        self.examples += [(item.name, item.sql, f) for f in verdict.disagreements]

    @property
    def unshown(self) -> list[tuple[str, str, t.Any]]:
        """Edges neither the result nor any step of the query showed."""
        soft = ("direct", "row_set", "window")
        return [e for e in self.examples if e[2].check in soft and not e[2].step]

    def lines(self, show: int = 3) -> list[str]:
        """The tally as printed lines."""
        out = [
            f"inputs: {self.inputs}, executed: {self.executed}, DuckDB runs: {self.executions}",
            f"left out: {sum(self.skipped.values())}",
            *(f"  {reason}: {count}" for reason, count in self.skipped.most_common()),
            f"agreements: {sum(self.agreements.values())} {dict(sorted(self.agreements.items()))}",
            f"disagreements: {sum(self.disagreements.values())} "
            f"{dict(sorted(self.disagreements.items()))}",
            f"of which an inner step showed the edge (the step run alone, by kind): "
            f"{sum(self.explained.values())}",
            *(f"  {kind}: {count}" for kind, count in sorted(self.explained.items())),
            f"edges shown by no step either: {len(self.unshown)} "
            f"{dict(collections.Counter(f.check for _, _, f in self.unshown))}",
            *(
                f"  {reach or 'not classified (listed below)'}: {count}"
                for reach, count in collections.Counter(f.reach for _, _, f in self.unshown).items()
            ),
            "by construct (queries, agreements, disagreements by check):",
        ]
        for construct, counts in sorted(self.by_construct.items()):
            if construct.startswith("case:") and not any(k.startswith("disagree") for k in counts):
                continue
            against = {k.split(":", 1)[1]: v for k, v in counts.items() if ":" in k}
            out.append(
                f"  {construct:<22} {counts['queries']:>6} {counts['agreements']:>8} "
                f"{sum(against.values()):>5} {dict(sorted(against.items())) if against else ''}"
            )
        for check in sorted(self.disagreements):
            picked = [e for e in self.examples if e[2].check == check and not e[2].step]
            picked = sorted(picked, key=lambda e: bool(e[2].reach))[:show]
            for name, sql, finding in picked:
                out.append(f"  {check} {name}: {finding.output} <- {finding.source}: "
                           f"{finding.detail}; {' '.join(sql.split())[:300]}")  # fmt: skip
        return out
