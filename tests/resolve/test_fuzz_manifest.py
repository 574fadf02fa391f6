"""``dbt-lineage build`` on damaged manifests: never a traceback, lineage.json when readable.

Each example starts from a real compiled manifest (``fixtures/snowflake_compiled``, written by
``dbt compile``) and damages it a few ways: fields missing or of the wrong type, no compiled
SQL, garbage, huge or deeply nested SQL, cyclic or dangling ``depends_on``, unknown node
kinds and adapters. A manifest the loader accepts must give exit 0 and a lineage.json; one
it refuses, exit 1 and one ``Error:`` line that names the manifest. ``derandomize`` makes the
sample the same on every run.
"""

from __future__ import annotations

import copy
import json
import typing as t
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.dbt_projects import FIXTURES

from dbt_lineage.cli import main

_DROPPED = ("macros", "docs", "disabled", "parent_map", "child_map", "semantic_models")


@pytest.fixture(scope="module")
def base() -> dict[str, t.Any]:
    """The compiled manifest, without the parts lineage never reads (faster to write)."""
    path = FIXTURES / "snowflake_compiled" / "target" / "manifest.json"
    manifest = json.loads(path.read_text())
    for key in _DROPPED:
        manifest.pop(key, None)
    return manifest


_NODE_FIELDS = (
    "compiled_code",
    "depends_on",
    "resource_type",
    "unique_id",
    "name",
    "columns",
    "config",
    "database",
    "schema",
    "alias",
    "relation_name",
    "original_file_path",
    "package_name",
    "checksum",
)
_WRONG_VALUES: tuple[t.Any, ...] = (None, 0, -1, 3.5, True, "", "x", [], ["a"], {}, {"a": 1})
_SQL = (
    "",
    "   ",
    "select",
    "select * from",
    "this is not sql at all",
    "select 1 as a; select 2 as b",
    "select a from t where (((",
    "with a as (select * from t) select x from a where x in (select y from u)",
    "select 1 as a\x00",
    "select '\u00e9\U0001f600' as \"\u00fcber\"",
    "{{ ref('missing') }}",
    "select " + ", ".join(f"c{i}" for i in range(3000)) + " from t",
    "select " + "(" * 600 + "1" + ")" * 600 + " as deep",
    "select " + " + ".join(["a"] * 5000) + " as long_sum from t",
    " union all ".join(f"select c{i} as c from t{i}" for i in range(400)),
    "update t set a = 1",
    "drop table t",
    "create table x as (select 1 as a)",
)


@st.composite
def _mutation(draw: st.DrawFn) -> tuple[t.Any, ...]:
    kind = draw(
        st.sampled_from(
            (
                "drop_field",
                "wrong_type",
                "sql",
                "cycle",
                "dangling",
                "kind",
                "adapter",
                "columns",
                "rekey",
                "drop_node",
            )
        )
    )
    return (
        kind,
        draw(st.integers(0, 50)),
        draw(st.integers(0, 50)),
        draw(st.sampled_from(_NODE_FIELDS)),
        draw(st.sampled_from(_WRONG_VALUES)),
        draw(st.sampled_from(_SQL)),
    )


def _mutate(manifest: dict[str, t.Any], mutation: tuple[t.Any, ...]) -> None:
    kind, first, second, field, wrong, sql = mutation
    nodes = manifest.get("nodes") or {}
    ids = sorted(nodes)
    if not ids:
        return
    node = nodes[ids[first % len(ids)]]
    other_id = ids[second % len(ids)]
    if not isinstance(node, dict):
        return
    if kind == "drop_field":
        node.pop(field, None)
    elif kind == "wrong_type":
        node[field] = wrong
    elif kind == "sql":
        node["compiled_code"] = sql
    elif kind == "cycle":
        node.setdefault("depends_on", {}).setdefault("nodes", []).append(other_id)
        other = nodes[other_id]
        if isinstance(other, dict):
            depends = other.setdefault("depends_on", {"nodes": []})
            if isinstance(depends, dict):
                depends.setdefault("nodes", []).append(node.get("unique_id"))
    elif kind == "dangling":
        depends = node.setdefault("depends_on", {"nodes": []})
        if isinstance(depends, dict) and isinstance(depends.get("nodes"), list):
            depends["nodes"].append("model.elsewhere.not_there")
    elif kind == "kind":
        node["resource_type"] = ("banana", "analysis", "operation", "function", "test")[first % 5]
    elif kind == "adapter":
        manifest["metadata"]["adapter_type"] = (None, "", "oracle", "duckdb", 7)[first % 5]
    elif kind == "columns":
        node["columns"] = {
            "": {"name": ""},
            "Quoted Name": {"name": "Quoted Name", "data_type": wrong},
            "x": {"name": "y"},
        }
    elif kind == "rekey":
        nodes[f"model.rekeyed.{first}"] = nodes.pop(ids[first % len(ids)])
    else:
        del nodes[ids[first % len(ids)]]


_MANIFEST_WIDE = (
    "no_nodes",
    "nodes_not_a_dict",
    "not_json",
    "version",
    "empty_file",
    "metadata_missing",
    "none",
)


def _damage_file(manifest: dict[str, t.Any], how: str) -> str:
    """The manifest's text damaged as a whole (or left whole for ``none``)."""
    if how == "no_nodes":
        manifest.pop("nodes")
    elif how == "nodes_not_a_dict":
        manifest["nodes"] = ["model.a"]
    elif how == "version":
        manifest["metadata"]["dbt_schema_version"] = "https://schemas.getdbt.com/dbt/manifest/v99"
    elif how == "metadata_missing":
        manifest.pop("metadata")
    text = json.dumps(manifest)
    if how == "not_json":
        return text[: len(text) // 2]
    if how == "empty_file":
        return ""
    return text


_FUZZ = settings(
    max_examples=80,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


@_FUZZ
@given(
    mutations=st.lists(_mutation(), min_size=1, max_size=4),
    whole=st.sampled_from(_MANIFEST_WIDE + ("none",) * 6),
)
def test_damaged_manifest_never_aborts_the_build(
    base: dict[str, t.Any],
    tmp_path_factory: pytest.TempPathFactory,
    mutations: list[tuple[t.Any, ...]],
    whole: str,
) -> None:
    project = tmp_path_factory.mktemp("fuzzed")
    (project / "target").mkdir()
    manifest = copy.deepcopy(base)
    for mutation in mutations:
        _mutate(manifest, mutation)
    (project / "target" / "manifest.json").write_text(_damage_file(manifest, whole))
    output = project / "lineage.json"
    result = CliRunner().invoke(
        main.cli,
        ["build", "--project-dir", str(project), "--no-cache", "-j", "1", "--output", str(output)],
    )
    assert "Traceback" not in result.output, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert "please report it" not in result.output, result.output
    if result.exit_code == 0:
        document = json.loads(output.read_text())
        assert set(document["nodes"]) <= {
            *manifest.get("nodes", {}),
            *manifest.get("sources", {}),
        }
        return
    assert result.exit_code == 2, result.output
    assert whole != "none" or not output.exists(), "a readable manifest must build"
    [line] = result.output.splitlines()
    assert line.startswith("Error: ") and "manifest" in line, line


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_cyclic_depends_on_builds_every_node_once(
    base: dict[str, t.Any], tmp_path: Path, jobs: str
) -> None:
    """Two models that depend on each other (found by the fuzzer: the build never ended)."""
    manifest = copy.deepcopy(base)
    nodes = manifest["nodes"]
    first, second = sorted(nodes)[:2]
    nodes[first]["depends_on"]["nodes"].append(second)
    nodes[second]["depends_on"]["nodes"].append(first)
    (tmp_path / "target").mkdir()
    (tmp_path / "target" / "manifest.json").write_text(json.dumps(manifest))
    result = CliRunner().invoke(
        main.cli, ["build", "--project-dir", str(tmp_path), "--no-cache", "-j", jobs]
    )
    assert result.exit_code == 0, result.output
    assert f"({len(nodes)} node(s) resolved, 0 from cache)" in result.output
    document = json.loads((tmp_path / "target" / "lineage.json").read_text())
    assert {first, second} <= set(document["nodes"])
