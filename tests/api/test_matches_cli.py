"""The Python API answers as the CLI does: for every command with a JSON output (upstream,
downstream, impact, coverage, diff), ``to_dict()`` is the document the command prints, on
the template built with real dbt (DuckDB) and on a synthetic project; from the query index
and from lineage.json alike. ``dbt_lineage.build`` writes what ``dbt-lineage build`` would
(the command keeps it)."""

from __future__ import annotations

import dataclasses
import json
import shutil
import typing as t
from pathlib import Path

import pytest
from click.testing import CliRunner

import dbt_lineage
from dbt_lineage.cli import main

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[2]
BENCHMARKS = REPO / "benchmarks"


@dataclasses.dataclass
class Case:
    """A built project, its lineage built through the API, and names to ask about."""

    project: Path
    built: dbt_lineage.Lineage
    columns: list[str]
    nodes: list[str]
    base: Path
    """A target directory that differs from the project's (the base of a diff)."""


def _cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main.cli, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout


def _cli_json(*args: str) -> dict[str, t.Any]:
    code, stdout = _cli(*args)
    assert code in (0, 1), stdout
    return t.cast(dict[str, t.Any], json.loads(stdout))


def _base(target: Path, into: Path, node_id: str, old: str, new: str) -> Path:
    """A copy of ``target``'s manifest in which ``node_id``'s SQL reads ``new`` for ``old``."""
    into.mkdir(parents=True, exist_ok=True)
    manifest = json.loads((target / "manifest.json").read_text())
    node = manifest["nodes"][node_id]
    for field in ("raw_code", "compiled_code"):
        assert old in node[field], f"{old!r} not in {node_id}'s {field}"
        node[field] = node[field].replace(old, new)
    node["checksum"] = {"name": "sha256", "checksum": "0" * 64}
    (into / "manifest.json").write_text(json.dumps(manifest))
    if (target / "catalog.json").is_file():
        shutil.copy(target / "catalog.json", into / "catalog.json")
    return into


@pytest.fixture(scope="module", params=["template", "synthetic"])
def case(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Case:
    if request.param == "template":
        project = request.getfixturevalue("template_project")
        built = dbt_lineage.build(project, jobs=1)
        base = _base(
            project / "target",
            tmp_path_factory.mktemp("template_base") / "target",
            "model.shop.stg_payments",
            "cast(amount_cents as decimal(12, 2)) / 100 as amount",
            "cast(amount_cents as decimal(12, 2)) as amount",
        )
        return Case(
            project,
            built,
            columns=[
                "stg_payments.amount",
                "shop.stg_orders.order_date",
                "source:ecom.raw_orders.status",
                "customers.lifetime_value",
            ],
            nodes=["stg_orders", "source:ecom.raw_payments"],
            base=base,
        )
    import sys

    sys.path.insert(0, str(BENCHMARKS))
    from synth_dbt import generate_project

    project = tmp_path_factory.mktemp("synthetic")
    generate_project(60, project, seed=0, with_catalog=True)
    built = dbt_lineage.build(project, jobs=1)
    graph = built.graph
    models = sorted(node_id for node_id in graph.nodes if node_id.startswith("model."))
    columns = [f"{node_id}.{next(iter(graph.columns[node_id]))}" for node_id in models[::15]]
    source = next(node_id for node_id in sorted(graph.nodes) if node_id.startswith("source."))
    columns.append(f"{source}.{next(iter(graph.columns[source]))}")
    manifest = json.loads((project / "target" / "manifest.json").read_text())
    edited = next(
        node_id
        for node_id in sorted(manifest["nodes"])
        if "round(amount, 2) as amount" in (manifest["nodes"][node_id].get("compiled_code") or "")
    )
    base = _base(
        project / "target",
        tmp_path_factory.mktemp("synthetic_base") / "target",
        edited,
        "round(amount, 2) as amount",
        "amount",
    )
    return Case(project, built, columns=columns, nodes=[models[0], source], base=base)


def _sides(case: Case) -> list[dbt_lineage.Lineage]:
    """The lineage as built (lineage.json in memory) and as loaded from its index."""
    loaded = dbt_lineage.load(case.project / "target")
    assert loaded.from_index
    return [case.built, loaded]


def test_build_writes_what_the_cli_build_keeps(case: Case) -> None:
    code, stdout = _cli("build", "--project-dir", str(case.project), "--jobs", "1")
    assert code == 0, stdout
    assert "Kept " in stdout  # the API's build recorded the inputs the command would
    assert case.built.path == case.project.absolute() / "target" / "lineage.json"


def test_impact(case: Case) -> None:
    project = ["--project-dir", str(case.project), "--format", "json"]
    for lineage in _sides(case):
        for name in [*case.columns, *case.nodes]:
            expected = _cli_json("impact", name, *project)
            assert lineage.impact(name).to_dict() == expected, name
            expected = _cli_json("impact", name, *project, "--include-indirect", "--depth", "2")
            got = lineage.impact(name, include_indirect=True, depth=2).to_dict()
            assert got == expected, name
        assert expected["columns"], "the last question reaches something"


def test_upstream_and_downstream(case: Case) -> None:
    project = ["--project-dir", str(case.project), "--format", "json"]
    reached = 0
    for lineage in _sides(case):
        for name in case.columns:
            for query in ("upstream", "downstream"):
                walk = getattr(lineage, query)
                expected = _cli_json(query, name, *project)
                assert walk(name).to_dict() == expected, (query, name)
                reached += len(expected["columns"])
                expected = _cli_json(
                    query, name, *project, "--direct-only", "--depth", "1", "--kind", "identity"
                )
                got = walk(name, include_indirect=False, depth=1, kinds=["identity"]).to_dict()
                assert got == expected, (query, name)
            expected = _cli_json("downstream", name, *project, "--include-indirect")
            assert lineage.downstream(name, include_indirect=True).to_dict() == expected
    assert reached


@pytest.mark.parametrize("by", ["layer", "folder", "resource_type", "owner"])
def test_coverage(case: Case, by: str) -> None:
    expected = _cli_json(
        "coverage",
        "--project-dir",
        str(case.project),
        "--format",
        "json",
        "--by",
        by,
        "--min-resolved",
        "90",
        "--min-documented",
        "99.5",
    )
    for lineage in _sides(case):
        result = lineage.coverage(by=by, min_resolved=90, min_documented=99.5)
        assert result.to_dict() == expected
        assert result.total.columns == expected["total"]["columns"] > 0
        assert [item.passed for item in result.thresholds] == [
            item["passed"] for item in expected["thresholds"]
        ]


def test_coverage_since_a_base(case: Case) -> None:
    expected = _cli_json(
        "coverage", "--project-dir", str(case.project), "--format", "json", "--base", str(case.base)
    )
    result = case.built.coverage(base=case.base)
    assert result.lineage_breaks is not None
    assert result.to_dict() == expected


def test_diff(case: Case) -> None:
    target = case.project / "target"
    expected = _cli_json(
        "diff",
        "--base",
        str(case.base),
        "--head",
        str(target),
        "--format",
        "json",
        "--project-dir",
        str(case.project),
    )
    assert expected["changes"], "the base differs from the head"
    for lineage in _sides(case):
        result = lineage.diff(case.base)
        assert result.to_dict() == expected
        assert result.verdict == expected["verdict"]
        assert lineage.diff(case.base, target).to_dict() == expected


def test_a_misspelt_name_fails_as_the_cli_does(case: Case) -> None:
    misspelt = case.columns[0].replace("_", "", 1)
    result = CliRunner().invoke(main.cli, ["impact", misspelt, "--project-dir", str(case.project)])
    assert result.exit_code == 2
    for lineage in _sides(case):
        with pytest.raises(dbt_lineage.SelectionError) as raised:
            lineage.impact(misspelt)
        assert f"Error: {raised.value.one_line()}" in result.output
        assert "did you mean" in str(raised.value)
