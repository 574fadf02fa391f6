"""The dbt-lineage GitHub Action, run locally (``action_runner``): its steps on two commits of
a git copy of the template, with real dbt on DuckDB and the real ``dbt-lineage diff``; what a
reviewer gets, what the gate decides, and what project code can read.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from tests.workflow.action_runner import (
    ACTION,
    BOT,
    FAKE_TOKEN,
    FORK_WORKFLOW,
    MARKER,
    RELAY,
    REPO,
    WORKFLOW,
    Action,
    commit,
    gh_stand_in,
    template_repo,
)

pytestmark = pytest.mark.slow

SCRIPT = REPO / "action" / "lineage-diff.sh"
PROBE = """\
-- project code that tries to read the workflow's token
select
    '{{ env_var("GH_TOKEN", "no-token") }}' as gh_token,
    '{{ env_var("GITHUB_TOKEN", "no-token") }}' as github_token,
    '{{ env_var("LINEAGE_DOWNLOAD_HEADER", "no-header") }}' as download_header
"""
SEEDED_COMMENTS = [
    {"id": 7, "body": "LGTM", "user": {"login": "alice"}},
    {"id": 8, "body": f"> {MARKER}\n> quoting the bot", "user": {"login": "alice"}},
    {"id": 9, "body": f"{MARKER}\nwritten to look like the bot's", "user": {"login": "mallory"}},
]


@pytest.fixture(scope="module")
def action(tmp_path_factory: pytest.TempPathFactory) -> Action:
    """Base commit: the template with a model that reads ``env_var('GH_TOKEN')``; head:
    ``stg_customers`` without ``country_code``, which ``customers`` and
    ``signups_by_country`` still read. Base and head built by the action's steps."""
    root = tmp_path_factory.mktemp("workflow")
    repo = template_repo(root)
    (repo / "models" / "token_probe.sql").write_text(PROBE)
    base_sha = commit(repo, "a model that reads the token")
    model = repo / "models" / "staging" / "stg_customers.sql"
    dropped = ",\n        upper(country_code) as country_code"
    model.write_text(model.read_text().replace(dropped, ""))
    commit(repo, "stg_customers: drop country_code")
    gh_stand_in(root / "gh", SEEDED_COMMENTS)
    flow = Action(repo, root / "runner", root / "gh", base_sha)
    # a download header given with base-mode build (where it has no use) reaches no dbt
    flow.ok("base", inputs={"base-manifest-header": f"Authorization: Bearer {FAKE_TOKEN}"})
    flow.ok("head")
    return flow


def _uses(path: Path) -> list[str]:
    return re.findall(r"^\s*-?\s*uses:\s*(\S+)(.*)$", path.read_text(), flags=re.MULTILINE)


def test_the_template_uses_the_action_and_the_action_runs_the_script() -> None:
    steps = yaml.safe_load(WORKFLOW.read_text())["jobs"]["lineage-diff"]["steps"]
    checkout, lineage = steps
    assert checkout["with"] == {"fetch-depth": 0, "persist-credentials": False}
    assert lineage["uses"] == "<org>/dbt-lineage@v0"
    assert not any("run" in step for step in steps), "the script lives in the action"
    runs = [s["run"] for s in yaml.safe_load(ACTION.read_text())["runs"]["steps"] if "run" in s]
    called = [m for run in runs for m in re.findall(r"lineage-diff\.sh\" (\w+)", run)]
    assert called == ["base", "download", "head", "diff", "comment", "gate"]
    assert SCRIPT.stat().st_mode & 0o111, "the script is executable"


def test_actions_are_pinned_by_commit_and_runs_hold_no_expression() -> None:
    for path in (ACTION, RELAY, WORKFLOW, FORK_WORKFLOW):
        for target, comment in _uses(path):
            if target.startswith("<org>/dbt-lineage"):
                continue  # the user's own pin, as the comment above it says
            assert re.fullmatch(r"[\w-]+/[\w-]+@[0-9a-f]{40}", target), f"{path}: {target}"
            assert re.search(r"#\s*v\d", comment), f"{path}: {target} names no version"
        document = yaml.safe_load(path.read_text())
        steps = document.get("runs", {}).get("steps", []) + [
            step for job in document.get("jobs", {}).values() for step in job["steps"]
        ]
        for step in steps:
            assert "${{" not in step.get("run", ""), f"{path}: an expression inside run:"


def test_only_the_comment_steps_are_given_a_token() -> None:
    for path in (ACTION, RELAY):
        for step in yaml.safe_load(path.read_text())["runs"]["steps"]:
            has_token = "github.token" in json.dumps(step.get("env", {}))
            assert has_token == (step.get("name") == "Sticky comment"), (path, step.get("name"))
    job = yaml.safe_load(WORKFLOW.read_text())["jobs"]["lineage-diff"]
    assert "token" not in json.dumps(job.get("env", {})).lower()
    assert "pull_request_target" not in yaml.safe_load(WORKFLOW.read_text())[True]


def test_project_code_cannot_read_the_token(action: Action) -> None:
    """A model that reads env_var('GH_TOKEN') sees nothing: the token is in no artifact,
    no output and no file of the run, though the comment step did get it."""
    action.ok("diff")
    action.ok("comment")
    assert any(call["token"] for call in action.calls()), "the comment step had the token"
    compiled = json.loads((action.out / "head" / "manifest.json").read_text())["nodes"]
    probe = compiled["model.shop.token_probe"]["compiled_code"]
    assert "no-token" in probe and "no-header" in probe, "the probe read its env_var defaults"
    assert FAKE_TOKEN not in "\n".join(action.outputs)
    for root in (action.runner_temp, action.repo):
        for path in root.rglob("*"):
            if path.is_file() and ".git" not in path.parts:
                assert FAKE_TOKEN.encode() not in path.read_bytes(), path


def test_one_compile_per_side_and_one_dbt_deps(action: Action) -> None:
    by_dir: dict[str, list[str]] = {}
    for directory, args in action.dbt_calls():
        by_dir.setdefault("base" if "base-src" in directory else "head", []).append(args)
    for side, calls in by_dir.items():
        commands = [c.split(" --")[0] for c in calls if not c.startswith("deps")]
        assert commands == ["docs generate"], f"{side}: {calls}"
    assert sorted(by_dir) == ["base", "head"]
    deps = [side for side, calls in by_dir.items() for c in calls if c.startswith("deps")]
    assert deps == ["base"], "the head reuses the base's dbt packages (the same ones)"


def test_base_and_head_are_the_two_commits_artifacts(action: Action) -> None:
    for side in ("base", "head"):
        assert (action.out / side / "manifest.json").exists()
        assert (action.out / side / "catalog.json").exists()
    base = json.loads((action.out / "base" / "manifest.json").read_text())
    head = json.loads((action.out / "head" / "manifest.json").read_text())
    node = "model.shop.stg_customers"
    assert "country_code" in base["nodes"][node]["compiled_code"]
    assert "country_code" not in head["nodes"][node]["compiled_code"]
    assert not (action.out / "base-src").exists(), "the base worktree is removed"


def test_diff_writes_a_comment_that_blocks_on_the_dropped_column(action: Action) -> None:
    action.ok("diff")
    body = (action.out / "comment.md").read_text()
    assert body.startswith(MARKER + "\n")
    assert "block" in body.lower()
    assert "country_code" in body and "stg_customers" in body
    assert "https://github.com/acme/shop/actions/runs/7" in body
    assert len(body) <= 65_536
    assert (action.out / "diff.html").read_text().lstrip().lower().startswith("<!doctype html")
    document = json.loads((action.out / "diff.json").read_text())
    assert document["verdict"] == "block"
    broken = {(b["node"], b["reference"]["column"]) for b in document["broken_references"]}
    assert ("model.shop.signups_by_country", "country_code") in broken
    assert ("model.shop.customers", "country_code") in broken
    outputs = (action.runner_temp / "github_output").read_text().splitlines()
    assert "verdict=block" in outputs
    assert f"report-file={action.out / 'diff.html'}" in outputs
    assert f"comment-file={action.out / 'comment.md'}" in outputs
    assert (action.out / "pr-number").read_text().strip() == "42"


def test_one_sticky_comment_of_its_own_posted_then_updated(action: Action) -> None:
    """Neither a comment quoting the marker nor one by another login is taken as the bot's."""
    gh_stand_in(action.gh_dir, SEEDED_COMMENTS)
    (action.gh_dir / "calls.jsonl").unlink(missing_ok=True)
    action.ok("diff")
    assert "Commented on pull request #42" in action.ok("comment")
    first = action.comments()
    assert [c["id"] for c in first] == [7, 8, 9, 1003]
    assert first[3]["body"] == (action.out / "comment.md").read_text()
    assert first[3]["user"]["login"] == BOT

    (action.out / "comment.md").write_text(MARKER + "\nsecond push\n")
    assert "Updated comment 1003" in action.ok("comment")
    second = action.comments()
    assert [c["id"] for c in second] == [7, 8, 9, 1003], "no new comment for the second push"
    assert second[3]["body"] == MARKER + "\nsecond push\n"
    assert [c["body"] for c in second[:3]] == [c["body"] for c in SEEDED_COMMENTS]

    calls = [(c["method"], c["path"]) for c in action.calls()]
    assert calls == [
        ("GET", "repos/acme/shop/issues/42/comments"),
        ("POST", "repos/acme/shop/issues/42/comments"),
        ("GET", "repos/acme/shop/issues/42/comments"),
        ("PATCH", "repos/acme/shop/issues/comments/1003"),
    ]
    assert "--paginate" in action.calls()[0]["args"]


def test_gate_fails_on_block_and_passes_when_told_never_to_fail(action: Action) -> None:
    blocked = action.step("gate", inputs={"fail-on": "block"})
    assert blocked.returncode == 1, blocked.stdout + blocked.stderr
    assert "block" in blocked.stdout.lower()
    assert "::error::blocked" in blocked.stdout
    assert action.step("gate", inputs={"fail-on": ""}).returncode == 0


def test_a_fork_gets_403_on_comment_and_the_gate_still_decides(action: Action) -> None:
    """On a fork's pull request the token is read-only: the comment step warns and passes,
    and the gate, which never depends on the comment, still blocks."""
    gh_stand_in(action.gh_dir, SEEDED_COMMENTS)
    (action.gh_dir / "forbidden").touch()
    try:
        action.ok("diff")
        commented = action.step("comment")
        assert commented.returncode == 0, commented.stdout + commented.stderr
        assert "::warning::cannot comment on pull request #42 (HTTP 403" in commented.stdout
        assert action.comments() == SEEDED_COMMENTS
        assert action.step("gate").returncode == 1, "the gate still blocks"
    finally:
        (action.gh_dir / "forbidden").unlink()
    steps = {s.get("id"): s for s in yaml.safe_load(ACTION.read_text())["runs"]["steps"]}
    assert steps["comment"]["continue-on-error"] is True
    gate = next(s for s in steps.values() if s.get("name") == "Gate")
    assert "steps.comment" not in gate["if"] and "!cancelled()" in gate["if"]


def test_the_fork_follow_up_posts_the_artifacts_comment_after_checking_it(
    action: Action, tmp_path: Path
) -> None:
    action.ok("diff")
    artifact = tmp_path / "artifact"
    artifact.mkdir()
    for name in ("comment.md", "pr-number"):
        shutil.copy(action.out / name, artifact / name)
    head_sha = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=action.repo, capture_output=True, text=True, check=True
    ).stdout.strip()
    gh_stand_in(action.gh_dir, SEEDED_COMMENTS)
    (action.gh_dir / "pulls.json").write_text(json.dumps({"42": {"head": {"sha": head_sha}}}))
    relay = {"directory": str(artifact), "head-sha": head_sha}

    stale = action.step("comment", action=RELAY, inputs={**relay, "head-sha": "0" * 40})
    assert stale.returncode == 1 and "not commenting" in stale.stderr
    (artifact / "pr-number").write_text("42; echo pwned\n")
    forged = action.step("comment", action=RELAY, inputs=relay)
    assert forged.returncode == 1 and "not a pull request number" in forged.stderr
    assert action.comments() == SEEDED_COMMENTS

    (artifact / "pr-number").write_text("42\n")
    assert "Commented on pull request #42" in action.ok("comment", action=RELAY, inputs=relay)
    assert action.comments()[-1]["body"] == (action.out / "comment.md").read_text()
    trigger = yaml.safe_load(FORK_WORKFLOW.read_text())[True]
    assert trigger == {"workflow_run": {"workflows": ["dbt-lineage diff"], "types": ["completed"]}}


def test_a_downloaded_base_manifest_gives_the_same_verdict(action: Action, tmp_path: Path) -> None:
    flow = Action(action.repo, tmp_path / "runner", action.gh_dir, action.base_sha)
    shutil.copytree(action.out / "head", flow.out / "head")
    url = (action.out / "base" / "manifest.json").as_uri()
    download = {"base-mode": "download", "base-manifest-url": url}
    flow.ok("base", inputs=download)
    assert sorted(p.name for p in (flow.out / "base").iterdir()) == ["manifest.json"]
    flow.ok("diff")
    assert json.loads((flow.out / "diff.json").read_text())["verdict"] == "block"
    missing = flow.step(
        "base", inputs={**download, "base-manifest-url": (tmp_path / "nope.json").as_uri()}
    )
    assert missing.returncode != 0
    assert "could not download the base manifest" in missing.stderr


def test_zizmor_finds_nothing_in_the_action_and_workflows() -> None:
    """GitHub Actions security linter (template injection, unpinned actions, credentials
    left in the checkout, dangerous triggers, excessive permissions), offline."""
    zizmor = Path(sys.executable).with_name("zizmor")
    paths = [ACTION, RELAY, WORKFLOW, FORK_WORKFLOW]
    proc = subprocess.run(
        [str(zizmor), "--offline", "--persona=pedantic", *map(str, paths)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "No findings" in proc.stdout + proc.stderr


def test_the_documented_fork_follow_up_is_the_templates() -> None:
    page = (REPO / "docs" / "github-action.md").read_text()
    blocks = re.findall(r"```yaml\n(.*?)```", page, flags=re.DOTALL)
    [documented] = [yaml.safe_load(b) for b in blocks if "workflow_run" in b]
    template = yaml.safe_load(FORK_WORKFLOW.read_text())
    for document in (documented, template):
        for step in document["jobs"]["comment"]["steps"]:
            step["uses"] = step["uses"].split("@")[0]
    assert documented == template


def test_the_cache_keys_follow_the_actions_source_and_the_install_list(tmp_path: Path) -> None:
    flow = Action(REPO, tmp_path, tmp_path, "0" * 40)
    flow.ok("keys")
    flow.ok("keys", inputs={"install": "dbt-core==1.11.16 dbt-postgres==1.10.0"})
    first, second = [
        dict(line.split("=", 1) for line in pair)
        for pair in _pairs((tmp_path / "github_output").read_text().splitlines())
    ]
    assert first["source"] == second["source"] and len(first["source"]) == 16
    assert first["pip"] != second["pip"], "another install list, another pip cache"


def _pairs(lines: list[str]) -> list[list[str]]:
    return [lines[i : i + 2] for i in range(0, len(lines), 2)]


def test_a_broken_tool_is_reported_as_broken_not_as_blocked(action: Action, tmp_path: Path) -> None:
    flow = Action(action.repo, tmp_path / "runner", action.gh_dir, action.base_sha)
    shutil.copytree(action.out / "base", flow.out / "base")
    shutil.copytree(action.out / "head", flow.out / "head")
    (flow.out / "head" / "manifest.json").write_text('{"metadata": ')
    assert flow.step("diff").returncode != 0
    assert "## dbt-lineage diff failed" in (flow.out / "comment.md").read_text()
    gate = flow.step("gate")
    assert gate.returncode == 2, gate.stdout + gate.stderr
    assert "the tool broke, this is no verdict" in gate.stdout
    assert "::error::blocked" not in gate.stdout


@pytest.mark.parametrize(
    ("schema", "paths"),
    [
        ("vendor.github-actions", [ACTION, RELAY]),
        ("vendor.github-workflows", [WORKFLOW, FORK_WORKFLOW]),
    ],
)
def test_the_action_and_workflows_follow_githubs_schemas(schema: str, paths: list[Path]) -> None:
    checker = Path(sys.executable).with_name("check-jsonschema")
    proc = subprocess.run(
        [str(checker), "--builtin-schema", schema, *map(str, paths)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_a_comment_that_fails_outright_never_skips_the_gate(action: Action) -> None:
    """The job as the runner sequences it (each step's ``if``, ``continue-on-error``), with
    GitHub's API down: the comment step fails, the gate still runs and blocks."""
    gh_stand_in(action.gh_dir, SEEDED_COMMENTS)
    (action.gh_dir / "unavailable").touch()
    try:
        outcomes = action.job(done={"base", "head"})
    finally:
        (action.gh_dir / "unavailable").unlink()
    assert outcomes["diff"] == "success"
    assert outcomes["comment"] == "failure"
    assert outcomes["gate"] == "failure", "the gate ran and blocked"
    assert "::error::blocked" in action.outputs[-1]
    assert action.job({"fail-on": "", "comment": "false"}, done={"base", "head"}) == {
        **outcomes,
        "comment": "skipped",
        "gate": "success",
    }
