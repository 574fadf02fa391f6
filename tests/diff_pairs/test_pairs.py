"""``dbt-lineage diff`` on each pair of ``pairs.py``: what a reviewer reads in the PR comment.

Each pair checks the verdict, the changed node's class and column changes, what blocks and
what is impacted downstream, then compares the JSON and Markdown outputs with the golden files
in ``golden/`` (regenerate them with ``UPDATE_GOLDEN=1``, then read the diff before committing).

Every pair runs on each dialect we support (``dialects.py``: the same artifacts as that
adapter writes them). The golden files are shared; a dialect whose output differs (type
names, identifier case) has its own in ``golden/<dialect>/``.
"""

from __future__ import annotations

import json
import os
import re
import typing as t
from pathlib import Path

import pytest
from click.testing import CliRunner

from dbt_lineage.cli import main
from tests.diff_pairs.conftest import BuiltPair
from tests.diff_pairs.dialects import DIALECTS, as_dialect
from tests.diff_pairs.pairs import PAIRS

pytestmark = pytest.mark.slow

GOLDEN = Path(__file__).resolve().parent / "golden"
VOLATILE_KEYS = frozenset({"generated_at", "elapsed", "elapsed_seconds", "duration", "timings"})


def _diff(built: BuiltPair, *options: str) -> tuple[int, str]:
    args = ["diff", "--base", str(built.base), "--head", str(built.head), *options]
    result = CliRunner().invoke(main.cli, args)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout


_DOCUMENTS: dict[tuple[str, str], dict[str, t.Any]] = {}


def _document(built: BuiltPair) -> dict[str, t.Any]:
    """The pair's JSON output (computed once per session and dialect)."""
    key = (built.pair.name, built.dialect)
    if key not in _DOCUMENTS:
        code, out = _diff(built, "--format", "json")
        assert code == 0, out
        _DOCUMENTS[key] = json.loads(out)
    return _DOCUMENTS[key]


def _normalise_text(text: str, built: BuiltPair) -> str:
    """Paths of this session's temporary directories and timings, made stable."""
    for side, path in (("<base>", built.base), ("<head>", built.head)):
        text = text.replace(str(path), side)
    text = text.replace(str(built.base.parent.parent), "<tmp>")
    return re.sub(r"\b\d+(\.\d+)? ?(ms|s)\b", "<time>", text)


def _normalise_json(value: t.Any) -> t.Any:
    if isinstance(value, dict):
        return {k: _normalise_json(v) for k, v in value.items() if k not in VOLATILE_KEYS}
    if isinstance(value, list):
        return [_normalise_json(v) for v in value]
    return value


def _golden(name: str, actual: str, dialect: str) -> None:
    """Compares with the dialect's own golden file, or else the shared one (DuckDB's)."""
    shared, own = GOLDEN / name, GOLDEN / dialect / name
    if os.environ.get("UPDATE_GOLDEN"):
        if dialect == "duckdb":
            shared.write_text(actual)
        elif shared.exists() and shared.read_text() == actual:
            own.unlink(missing_ok=True)
        else:
            own.parent.mkdir(exist_ok=True)
            own.write_text(actual)
        return
    path = own if own.exists() else shared
    assert path.exists(), f"no golden file {path}: run with UPDATE_GOLDEN=1 and review it"
    assert actual == path.read_text(), f"{path} differs from the output (UPDATE_GOLDEN=1)"


@pytest.fixture(params=DIALECTS)
def dialect(request: pytest.FixtureRequest) -> str:
    return request.param


@pytest.fixture(params=[pair.name for pair in PAIRS])
def built(
    request: pytest.FixtureRequest, diff_pairs: dict[str, BuiltPair], dialect: str
) -> BuiltPair:
    duckdb = diff_pairs[request.param]
    base, head = as_dialect(duckdb.base, dialect), as_dialect(duckdb.head, dialect)
    return BuiltPair(duckdb.pair, base, head, dialect)


def _facts(built: BuiltPair) -> dict[str, t.Any]:
    """The pair's JSON output as the checks read it: Snowflake folds unquoted names to upper
    case (``ORDER_DATE``), so there names are compared in lower case."""
    document = _document(built)
    if built.dialect == "snowflake":
        return json.loads(json.dumps(document).lower())
    return document


def _folded(reasons: t.Iterable[str]) -> set[str]:
    return {reason.casefold() for reason in reasons}


def test_verdict_and_changed_node(built: BuiltPair) -> None:
    pair, document = built.pair, _facts(built)
    assert document["verdict"] == pair.verdict, pair.summary
    changes = {c["node"]: c for c in document["changes"]}
    if pair.node is None:
        assert changes == {}, "the same project in another schema changes nothing"
        assert document["broken_references"] == [] and document["unknown"] == []
        return
    assert pair.node in changes, f"{pair.node} not among the changes: {sorted(changes)}"
    change = changes[pair.node]
    assert change["change"] == pair.change
    assert change["class"] == pair.node_class, change
    if pair.columns is not None:
        assert change["columns"] == pair.columns
    if pair.only_columns_of is not None:
        assert set(change["columns"].values()) <= pair.only_columns_of, change["columns"]
    if not pair.other_changes:
        assert set(changes) == {pair.node}, "no other node changed"
    # no pair edits a source: a source column known only from how a model reads it
    # does not vanish when the model stops reading it
    assert [n for n in changes if n.startswith("source.")] == []
    for node in pair.same_data:
        assert changes.get(node, {"class": "none"})["class"] == "none", changes[node]
    no_reader = [r for r in change["reasons"] if r.startswith("no downstream reader")]
    assert bool(no_reader) == pair.no_reader, change["reasons"]
    assert _folded(pair.reasons) <= _folded(change["reasons"]), change["reasons"]
    assert not pair.not_changed & set(changes), [
        changes[n] for n in pair.not_changed & set(changes)
    ]
    for node, klass, reasons in pair.other_classes:
        assert node in changes, f"{node} not among the changes: {sorted(changes)}"
        assert changes[node]["class"] == klass, changes[node]
        assert _folded(reasons) <= _folded(changes[node]["reasons"]), changes[node]


def test_what_blocks(built: BuiltPair) -> None:
    pair, document = built.pair, _facts(built)
    found = {
        (b["node"], b["reference"]["column"], b["reference"]["kind"])
        for b in document["broken_references"]
    }
    assert pair.broken <= found, document["broken_references"]
    assert not pair.not_broken & {node for node, _, _ in found}, document["broken_references"]
    columns = {(b["node"], b["column"]) for b in document["broken_references"]}
    assert not pair.not_broken_columns & columns, document["broken_references"]
    if not pair.broken:
        assert document["broken_references"] == []
    if pair.verdict == "unknown":
        assert pair.node in {u["node"] for u in document["unknown"]}
        assert all(u["reason"] for u in document["unknown"])
    reasons = [u["reason"] for u in document["unknown"]]
    reasons += [r for c in document["changes"] for r in c["reasons"]]
    for reason in reasons:
        assert not re.search(r"[\x00-\x1f]", reason), f"control characters in {reason!r}"


def test_what_is_impacted(built: BuiltPair) -> None:
    pair, document = built.pair, _facts(built)
    columns = {(c["node"], c["column"]) for c in document["impacted"]["columns"]}
    assert pair.impacted_columns <= columns, sorted(pair.impacted_columns - columns)
    assert not pair.not_impacted & columns, sorted(pair.not_impacted & columns)
    exposures = {e["node"]: e for e in document["impacted"]["exposures"]}
    assert pair.impacted_exposures <= set(exposures)
    for node in pair.impacted_exposures:
        assert exposures[node]["type"] == "dashboard" and exposures[node]["owner"]
    if pair.verdict == "info":
        assert document["impacted"]["columns"] == [], "additions and metadata impact nothing"
    added = {(c["node"], c["column"]) for c in document["impacted"]["added_columns"]}
    assert pair.added_columns <= added, sorted(pair.added_columns - added)


def test_golden_json(built: BuiltPair) -> None:
    document = _normalise_json(_document(built))
    text = _normalise_text(json.dumps(document, indent=2, sort_keys=True) + "\n", built)
    _golden(f"{built.pair.name}.json", text, built.dialect)


def test_golden_markdown(built: BuiltPair) -> None:
    code, out = _diff(built, "--format", "markdown")
    assert code == 0, out
    assert out.startswith(("#", "**", ">", "<")), "the verdict comes first"
    assert len(out) <= 60_000
    _golden(f"{built.pair.name}.md", _normalise_text(out, built), built.dialect)


def test_fail_on_maps_the_verdict_to_the_exit_code(built: BuiltPair) -> None:
    """``--fail-on V`` fails on V and worse: info < review < unknown < block."""
    order = ("info", "review", "unknown", "block")
    verdict = built.pair.verdict
    for fail_on in ("block", "review", "unknown"):
        code, out = _diff(built, "--format", "text", "--fail-on", fail_on)
        expected = order.index(verdict) >= order.index(fail_on)
        assert code == int(expected), f"--fail-on {fail_on} with verdict {verdict}: {out}"
