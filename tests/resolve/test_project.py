"""Project resolution on real dbt projects: stored names, inference without a catalog, a
stale catalog, a node that times out or meets a bug, selected builds."""

from __future__ import annotations

import json
import shutil
import typing as t
from pathlib import Path

import pytest
from click.testing import CliRunner
from tests.dbt_projects import REPO, copy_project, dbt

from dbt_lineage.cli import main

pytestmark = pytest.mark.slow


def _build(project: Path, *args: str) -> t.Any:
    result = CliRunner().invoke(main.cli, ["build", "--project-dir", str(project), *args])
    assert "Traceback" not in result.output
    return result


def _lineage(project: Path, name: str = "lineage.json") -> dict[str, t.Any]:
    return json.loads((project / "target" / name).read_text())


def _columns(document: dict[str, t.Any], node_id: str) -> dict[str, dict[str, t.Any]]:
    return document["nodes"][node_id]["columns"]


def _direct(document: dict[str, t.Any], node_id: str, column: str) -> set[tuple[str, str, str]]:
    entries = document["edges"]["direct"].get(node_id, {}).get(column, [])
    return {(e["node"], e["column"], e["kind"]) for e in entries}


def test_postgres_mixed_case_names_resolve_as_stored(postgres_mixed_case_project: Path) -> None:
    result = _build(postgres_mixed_case_project)
    assert result.exit_code == 0, result.output
    assert "10/10 resolved (100.0%)" in result.output
    document = _lineage(postgres_mixed_case_project)
    source = "source.postgres_mixed_case.billing.payments"
    facts = "model.postgres_mixed_case.payment_facts"
    assert list(_columns(document, source)) == ["Amount", "amount", "userId"]
    assert list(_columns(document, facts)) == ["a", "b", "u", "Total"]
    assert _direct(document, facts, "a") == {(source, "Amount", "identity")}
    assert _direct(document, facts, "b") == {(source, "amount", "identity")}
    assert _direct(document, facts, "u") == {(source, "userId", "identity")}
    assert _direct(document, facts, "Total") == {
        (source, "Amount", "transform"),
        (source, "amount", "transform"),
    }


def test_without_a_catalog_star_chains_infer_their_columns(no_catalog_project: Path) -> None:
    result = _build(no_catalog_project)
    assert result.exit_code == 0, result.output
    document = _lineage(no_catalog_project)
    events = "source.no_catalog.raw.events"
    stg, intermediate = "model.no_catalog.stg_events", "model.no_catalog.int_events"
    source_columns = _columns(document, events)
    assert set(source_columns) >= {"event_type", "occurred_at", "user_id", "session_id"}
    assert all(column.get("inferred") for column in source_columns.values())
    assert _direct(document, intermediate, "kind") == {(stg, "event_type", "identity")}
    assert _direct(document, intermediate, "user_id") == {(stg, "user_id", "identity")}
    assert _direct(document, stg, "user_id") == {(events, "user_id", "identity")}
    assert _columns(document, stg)["session_id"].get("inferred"), "declared in YAML only"
    assert _direct(document, stg, "session_id") == {(events, "session_id", "identity")}
    daily = "model.no_catalog.events_daily"
    assert _direct(document, daily, "users") == {(intermediate, "user_id", "aggregate")}
    plan = _columns(document, "model.no_catalog.joined_activity")["plan"]
    assert plan["reason"].startswith("ambiguous_star"), "two sources could hold it"
    assert "plan" not in _columns(document, events), "never guessed"
    kinds = "model.no_catalog.event_kinds"
    assert _direct(document, kinds, "payload_kind") == {(events, "payload", "transform")}
    # A star over a UNION: a column read through it comes from every branch, as the
    # single-query engine reads it (not "either branch": ambiguous_star).
    archived, union = "source.no_catalog.raw.archived_events", "model.no_catalog.all_events"
    for name in ("user_id", "session_id"):
        assert _direct(document, union, name) == {
            (events, name, "identity"),
            (archived, name, "identity"),
        }
        assert _columns(document, archived)[name].get("inferred")
    sessions = "model.no_catalog.sessions_by_user"
    assert _direct(document, sessions, "sessions") == {(union, "session_id", "aggregate")}
    reasons = {d["reason"] for d in document["diagnostics"] if d["node_id"] in (union, sessions)}
    assert reasons == {"star_unknown_columns"}, "its other columns stay unknown, nothing else"


def test_a_stale_catalog_is_inferred_and_said(template_project: Path, tmp_path: Path) -> None:
    project = copy_project(template_project, tmp_path)
    shutil.copytree(template_project / "target", project / "target", dirs_exist_ok=True)
    orders = project / "models" / "staging" / "stg_orders.sql"
    orders.write_text(
        orders.read_text().replace("select", "select user_id as buyer_id, coupon_code,", 1)
    )
    (project / "models" / "marts" / "buyers.sql").write_text(
        "select buyer_id, coupon_code from {{ ref('stg_orders') }}\n"
    )
    dbt(project, "compile")  # a new manifest; the catalog stays as it was
    result = _build(project, "--no-cache")
    assert result.exit_code == 0, result.output
    assert "catalog.json lacks 3 column(s)" in result.output  # 2 of stg_orders, 1 source
    assert "dbt docs generate" in result.output
    document = _lineage(project)
    stg, raw = "model.shop.stg_orders", "source.shop.ecom.raw_orders"
    assert _direct(document, stg, "buyer_id") == {(raw, "user_id", "identity")}
    assert _columns(document, raw)["coupon_code"].get("inferred"), "the catalog lacks it"
    assert _direct(document, "model.shop.buyers", "buyer_id") == {(stg, "buyer_id", "identity")}
    assert all("reason" not in c for c in _columns(document, "model.shop.buyers").values())


def test_a_pathological_model_times_out_and_the_rest_resolves(tmp_path: Path) -> None:
    project = copy_project(REPO / "fixtures" / "broken", tmp_path)
    (project / "models" / "huge_sum.sql").write_text(
        "select {% for i in range(400) %}{% for j in range(400) %}m.kills + {% endfor %}"
        "{% endfor %}0 as total\n"
        "from {{ ref('stg_matches') }} as m\n"
    )
    dbt(project, "compile")
    result = _build(project, "--no-cache", "--node-timeout", "0.5", "--jobs", "2")
    assert result.exit_code == 0, result.output
    document = _lineage(project)
    timeouts = [d for d in document["diagnostics"] if d["reason"] == "timeout"]
    assert [d["node_id"] for d in timeouts] == ["model.broken.huge_sum"]
    assert "--node-timeout" in timeouts[0]["message"]
    leaderboard = _columns(document, "model.broken.player_leaderboard")
    assert all("reason" not in column for column in leaderboard.values())


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("fault", ["raise", "segv"])
def test_a_node_that_fails_or_kills_its_process_costs_only_itself(
    broken_project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fault: str, jobs: str
) -> None:
    # A bug (an exception) and a crash (SIGSEGV in the process resolving the node, as a
    # stack overflow in compiled code gives) both become the node's internal_error, with
    # one job as with several; every other node is written as a clean build writes it.
    project = copy_project(broken_project, tmp_path)
    shutil.copytree(broken_project / "target", project / "target", dirs_exist_ok=True)
    assert _build(project, "--no-cache", "-j", jobs).exit_code == 0
    clean = _lineage(project)
    target = "model.broken.player_kd_ratio"
    monkeypatch.setenv("DBT_LINEAGE_INJECT_FAULT", f"{fault}:{target}")
    result = CliRunner().invoke(
        main.cli, ["--debug", "build", "--project-dir", str(project), "--no-cache", "-j", jobs]
    )
    assert result.exit_code == 0, result.output
    assert f"internal error while resolving {target}" in result.output
    document = _lineage(project)
    (failure,) = [d for d in document["diagnostics"] if d["reason"] == "internal_error"]
    assert failure["node_id"] == target
    if fault == "segv":
        assert "its worker process died (exit code -11)" in failure["message"]
    else:
        assert f"Traceback of the internal error in {target}" in result.output
    others = set(clean["nodes"]) - {target}
    assert others and others < set(document["nodes"])
    for node_id in others:
        assert document["nodes"][node_id] == clean["nodes"][node_id], node_id
        for kind in ("direct", "indirect"):
            edges = document["edges"][kind]
            assert edges.get(node_id) == clean["edges"][kind].get(node_id), node_id
    assert target not in document["edges"]["direct"]


def test_a_selected_build_updates_lineage_json_in_place(
    template_project: Path, tmp_path: Path
) -> None:
    project = copy_project(template_project, tmp_path)
    shutil.copytree(template_project / "target", project / "target", dirs_exist_ok=True)
    assert _build(project).exit_code == 0
    full = _lineage(project)
    cache = project / "target" / "dbt_lineage_cache.json.gz"
    before = cache.stat().st_size
    result = _build(project, "-s", "orders")
    assert result.exit_code == 0, result.output
    after = _lineage(project)
    assert set(after["nodes"]) == set(full["nodes"]), "the other nodes are kept"
    assert after["nodes"]["model.shop.customers"] == full["nodes"]["model.shop.customers"]
    assert (
        after["metadata"]["selected"][:1] and "model.shop.orders" in after["metadata"]["selected"]
    )
    assert cache.stat().st_size >= before * 0.9, "a selected build does not prune the cache"
    subset = _build(project, "-s", "stg_orders", "--output", str(project / "target" / "sub.json"))
    assert subset.exit_code == 0, subset.output
    assert "model.shop.customers" not in _lineage(project, "sub.json")["nodes"]
    assert set(_lineage(project)["nodes"]) == set(full["nodes"])


def test_a_node_that_is_not_built_says_so(template_project: Path, tmp_path: Path) -> None:
    project = copy_project(template_project, tmp_path)
    shutil.copytree(template_project / "target", project / "target", dirs_exist_ok=True)
    (project / "target" / "lineage.json").unlink(missing_ok=True)
    assert _build(project, "-s", "stg_orders").exit_code == 0
    result = CliRunner().invoke(main.cli, ["impact", "customers", "--project-dir", str(project)])
    assert result.exit_code == 2
    assert "not built" in result.output and "dbt-lineage build" in result.output


def test_a_partial_manifest_keeps_earlier_lineage_of_unchanged_code(
    template_project: Path, tmp_path: Path
) -> None:
    project = copy_project(template_project, tmp_path)
    shutil.copytree(template_project / "target", project / "target", dirs_exist_ok=True)
    shutil.copy(template_project / "shop.duckdb", project / "shop.duckdb")
    assert _build(project).exit_code == 0
    full = _lineage(project)
    orders_sql = project / "models" / "marts" / "orders.sql"
    orders_sql.write_text(orders_sql.read_text() + "\n-- changed after the last compile\n")
    dbt(project, "test", "--select", "stg_orders")  # writes a manifest without models' SQL
    manifest = json.loads((project / "target" / "manifest.json").read_text())
    assert not manifest["nodes"]["model.shop.customers"].get("compiled_code")
    result = _build(project)
    assert result.exit_code == 0, result.output
    assert "the manifest looks partial" in result.output and "dbt compile" in result.output
    after = _lineage(project)
    customers = "model.shop.customers"
    assert after["edges"]["direct"][customers] == full["edges"]["direct"][customers]
    notes = {d["node_id"]: d for d in after["diagnostics"] if d["reason"] == "note"}
    assert "earlier build" in notes[customers]["message"]
    orders = _columns(after, "model.shop.orders")
    assert all(c["reason"].startswith("no_compiled_sql") for c in orders.values()), (
        "its code changed since it was compiled: nothing is reused"
    )


def test_a_width_mismatch_reaches_lineage_json(template_project: Path, tmp_path: Path) -> None:
    # With a catalog, both branches' widths are known: six customer columns over five order
    # columns cannot run; the sixth has no edge, and the node says why.
    project = copy_project(template_project, tmp_path)
    shutil.copytree(template_project / "target", project / "target", dirs_exist_ok=True)
    shutil.copy(template_project / "shop.duckdb", project / "shop.duckdb")
    marts = project / "models" / "marts"
    (marts / "people_and_orders.sql").write_text(
        "select * from {{ ref('stg_customers') }}\n"
        "union all\n"
        "select * from {{ ref('stg_orders') }}\n"
    )
    dbt(project, "compile")
    result = _build(project, "--no-cache")
    assert result.exit_code == 0, result.output
    document = _lineage(project)
    union, stg = "model.shop.people_and_orders", "model.shop.stg_orders"
    width = [
        d
        for d in document["diagnostics"]
        if d["node_id"] == union and d["reason"] == "set_operation_width_mismatch"
    ]
    assert any("UNION branches of 6 and 5 columns" in d["message"] for d in width), width
    assert any(d.get("columns") == ["country_code"] for d in width), width
    columns = _columns(document, union)
    assert columns["country_code"]["reason"].startswith("set_operation_width_mismatch")
    assert not _direct(document, union, "country_code"), "no edge past the narrowest branch"
    assert (stg, "order_id", "identity") in _direct(document, union, "customer_id")
