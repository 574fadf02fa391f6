"""Scripted pull requests on a compiled manifest: each kind a reviewer meets, made by editing
the compiled SQL (and what dbt would write beside it) of a model the script picks.

Nothing here names a model of the manifest: each kind walks the models in a seeded random
order and edits the first one its edit fits (a LEFT JOIN to make INNER, a CAST to retype, a
model nobody reads for an unused column...). Every kind returns what it did, in one line.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
import typing as t

import sqlglot
from sqlglot import exp

Manifest = dict[str, t.Any]
KINDS = (
    "rename",
    "logic",
    "filter",
    "join_type",
    "added_column",
    "whitespace",
    "retype",
    "macro",
    "unused_column_removal",
    "noop_other_database",
)


def pull_request(base: str, kind: str, seed: int = 0) -> tuple[Manifest, str]:
    """Module entry: the manifest ``base`` (its JSON text) with a pull request of ``kind``
    applied, and what it changed. Raises LookupError when no model fits the kind."""
    head = json.loads(base)
    if kind == "noop_other_database":
        return head, _other_database(head)
    dialect = _dialect(head)
    readers = _readers(head)
    nodes = head["nodes"]
    order = sorted(k for k, n in nodes.items() if n["resource_type"] == "model")
    random.Random(f"{seed}-{kind}").shuffle(order)
    for node_id in order:
        node = nodes[node_id]
        if not node.get("compiled_code") or node["config"].get("materialized") == "ephemeral":
            continue
        wants_readers = kind not in ("unused_column_removal", "whitespace")
        if wants_readers and not readers.get(node_id):
            continue
        if kind == "unused_column_removal" and readers.get(node_id):
            continue
        if kind == "macro" and not _own_macros(head, node):
            continue
        try:
            tree = sqlglot.parse(node["compiled_code"], read=dialect)[-1]
        except (sqlglot.errors.SqlglotError, RecursionError):
            continue
        if tree is None or not isinstance(tree, exp.Select):
            continue
        done = _EDITS[kind](tree)
        if done is None:
            continue
        pretty = kind == "whitespace"
        node["compiled_code"] = tree.sql(dialect=dialect, pretty=pretty)
        if kind == "macro":
            macro = _own_macros(head, node)[0]
            head["macros"][macro]["macro_sql"] += "\n{# changed by the pull request #}"
            done = f"{done}, through macro {macro} (the model's own code unchanged)"
        else:
            digest = hashlib.sha256(node["compiled_code"].encode()).hexdigest()
            node["checksum"] = {"name": "sha256", "checksum": digest}
        return head, f"{kind}: {node_id}: {done}"
    raise LookupError(f"no model fits a {kind} pull request")


def _dialect(manifest: Manifest) -> str:
    return str(manifest["metadata"].get("adapter_type") or "")


def _readers(manifest: Manifest) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for kind in ("nodes", "exposures"):
        for node_id, node in manifest.get(kind, {}).items():
            if node.get("resource_type") == "test":
                continue
            for parent in node.get("depends_on", {}).get("nodes", []):
                found.setdefault(parent, []).append(node_id)
    return found


def _own_macros(manifest: Manifest, node: dict[str, t.Any]) -> list[str]:
    """The node's macros of the project itself (not dbt's or a package's)."""
    project = manifest["metadata"].get("project_name")
    return [
        m
        for m in node["depends_on"].get("macros", [])
        if m in manifest["macros"] and manifest["macros"][m]["package_name"] == project
    ]


def _aliased(select: exp.Select) -> list[exp.Alias]:
    return [p for p in select.expressions if isinstance(p, exp.Alias)]


def _rename(select: exp.Select) -> str | None:
    for projection in reversed(_aliased(select)):
        old = projection.alias
        projection.set("alias", exp.to_identifier(f"{old}_renamed"))
        return f"column {old} renamed {old}_renamed"
    return None


def _logic(select: exp.Select) -> str | None:
    for projection in reversed(_aliased(select)):
        if isinstance(projection.this, (exp.Star, exp.Literal)):
            continue
        inner = projection.this
        projection.set("this", exp.func("COALESCE", inner.copy(), exp.Null()))
        return f"column {projection.alias} wrapped in COALESCE(..., NULL)"
    return None


def _filter(select: exp.Select) -> str | None:
    if select.args.get("from_") is None and select.args.get("from") is None:
        return None
    select.where(exp.condition("1 = 1"), copy=False)
    return "WHERE 1 = 1 added to its final select"


def _join_type(select: exp.Select) -> str | None:
    for join in select.find_all(exp.Join):
        if (join.side or "").upper() == "LEFT":
            join.set("side", None)
            join.set("kind", "INNER")
            return "a LEFT JOIN made INNER"
    return None


def _added_column(select: exp.Select) -> str | None:
    if any(isinstance(p, exp.Star) for p in select.expressions):
        return None
    select.select(exp.alias_(exp.Literal.number(1), "bench_added"), copy=False)
    return "column bench_added added"


def _whitespace(select: exp.Select) -> str | None:
    return "reformatted (pretty-printed)"


def _retype(select: exp.Select) -> str | None:
    for projection in _aliased(select):
        cast = projection.this
        if isinstance(cast, exp.Cast):
            text = cast.to.sql().upper()
            new = "NUMBER(38, 4)" if text.startswith("VARCHAR") else "VARCHAR"
            cast.set("to", exp.DataType.build(new, dialect="snowflake"))
            return f"column {projection.alias} cast to {new} instead of {text}"
    return None


def _unused(select: exp.Select) -> str | None:
    aliased = _aliased(select)
    if len(select.expressions) < 2 or not aliased:
        return None
    gone = aliased[-1]
    gone.pop()
    return f"column {gone.alias} (nothing reads the model) removed"


_EDITS: dict[str, t.Callable[[exp.Select], str | None]] = {
    "rename": _rename,
    "logic": _logic,
    "filter": _filter,
    "join_type": _join_type,
    "added_column": _added_column,
    "whitespace": _whitespace,
    "retype": _retype,
    "macro": _logic,
    "unused_column_removal": _unused,
}


def _other_database(head: Manifest) -> str:
    """The same project compiled into other databases (a production manifest against a CI
    build): every database the models live in (and no source) gets a ``_CI`` suffix, in
    relation names and in what dbt rendered into compiled SQL (``ref``s, user functions
    qualified by ``target.database``). A name the model's code writes by hand (a string
    literal, a comment, a relation named without ``ref``) stays as written, as it would in a
    real CI build."""
    sources = {str(n.get("database")) for n in head["sources"].values()}
    databases = sorted(
        {
            str(n["database"])
            for n in head["nodes"].values()
            if n["resource_type"] in ("model", "snapshot", "seed") and n.get("database")
        }
        - sources  # the raw data stays where the loaders put it
    )
    moved = "|".join(map(re.escape, databases))
    pattern = re.compile(rf'(?<![\w"])("?)({moved})\1\.([\w$"]+(?:\.[\w$"]+)?)')

    def move(text: str, raw: str) -> str:
        by_hand = {match.group(0) for match in pattern.finditer(raw)}

        def moved_name(match: re.Match[str]) -> str:
            if match.group(0) in by_hand:
                return match.group(0)  # written by hand, not rendered by dbt
            quote, database, rest = match.groups()
            return f"{quote}{database}_CI{quote}.{rest}"

        return pattern.sub(moved_name, text)

    for node in head["nodes"].values():
        if node.get("database") in databases:
            node["database"] = f"{node['database']}_CI"
        if node.get("relation_name"):
            node["relation_name"] = move(node["relation_name"], "")
        if node.get("compiled_code"):
            node["compiled_code"] = move(node["compiled_code"], node.get("raw_code") or "")
    return f"noop_other_database: every model moved from {', '.join(databases)} to *_CI"
