"""The template's GitHub Actions workflow, run locally: its script's steps on two commits of a
git copy of the template, with real dbt on DuckDB and the real ``dbt-lineage diff``.

Only ``gh`` is a stand-in (GitHub's API is not reachable from a test): a script on PATH that
keeps the pull request's comments in a JSON file and records every call, so that the test
sees whether the step posts a new comment or updates the one it posted before.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import yaml
from tests.dbt_projects import DBT, REPO, _env

pytestmark = pytest.mark.slow

TEMPLATE = REPO / "dbt_project_template"
SCRIPT = Path(".github/scripts/lineage-diff.sh")
WORKFLOW = TEMPLATE / ".github" / "workflows" / "dbt-lineage-diff.yml"
MARKER = "<!-- dbt-lineage-diff -->"

GH_STAND_IN = textwrap.dedent(
    """\
    #!{python}
    # gh stand-in: `gh api [--paginate] [--method M] PATH [--input -]` over a JSON file of
    # comments; every call is appended to calls.jsonl.
    import json, sys
    from pathlib import Path

    state = Path({state!r})
    args = sys.argv[1:]
    method = args[args.index("--method") + 1] if "--method" in args else "GET"
    path = next(a for a in args[1:] if a.startswith("repos/"))
    body = json.load(sys.stdin)["body"] if "--input" in args else None
    with (state / "calls.jsonl").open("a") as calls:
        calls.write(json.dumps({{"args": args, "method": method, "path": path}}) + "\\n")
    comments = json.loads((state / "comments.json").read_text())
    if method == "GET":
        print(json.dumps(comments))
    elif method == "POST":
        comments.append({{"id": 1000 + len(comments), "body": body}})
    elif method == "PATCH":
        target = int(path.rsplit("/", 1)[1])
        [comment] = [c for c in comments if c["id"] == target]
        comment["body"] = body
    (state / "comments.json").write_text(json.dumps(comments))
    """
)


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=repo, check=True, capture_output=True, text=True
    ).stdout.strip()


class Workflow:
    """Runs the workflow script's steps in a git copy of the template."""

    def __init__(self, repo: Path, out: Path, gh_dir: Path) -> None:
        self.repo, self.out, self.gh_dir = repo, out, gh_dir

    def step(self, name: str, **env: str) -> subprocess.CompletedProcess[str]:
        run_env = _env()
        bin_dir = Path(sys.executable).parent
        run_env.update(
            PATH=f"{self.gh_dir}{os.pathsep}{bin_dir}{os.pathsep}{run_env['PATH']}",
            PYTHONPATH=str(REPO / "src"),  # this checkout's dbt_lineage, not an installed one
            DBT=str(DBT),
            DBT_LINEAGE=str(bin_dir / "dbt-lineage"),
            LINEAGE_OUT=str(self.out),
            GITHUB_REPOSITORY="acme/shop",
            LINEAGE_PR_NUMBER="42",
            LINEAGE_REPORT_URL="https://github.com/acme/shop/actions/runs/7",
            **env,
        )
        return subprocess.run(
            ["bash", str(SCRIPT), name],
            cwd=self.repo,
            env=run_env,
            capture_output=True,
            text=True,
            check=False,
        )

    def ok(self, name: str, **env: str) -> str:
        proc = self.step(name, **env)
        assert proc.returncode == 0, f"step {name} failed:\n{proc.stdout}\n{proc.stderr}"
        return proc.stdout

    def comments(self) -> list[dict]:
        return json.loads((self.gh_dir / "comments.json").read_text())

    def calls(self) -> list[dict]:
        lines = (self.gh_dir / "calls.jsonl").read_text().splitlines()
        return [json.loads(line) for line in lines]


@pytest.fixture(scope="module")
def workflow(tmp_path_factory: pytest.TempPathFactory) -> Workflow:
    """Base commit: the template; head commit: ``stg_customers`` without ``country_code``,
    which ``customers`` and ``signups_by_country`` still read. Base and head built."""
    root = tmp_path_factory.mktemp("workflow")
    repo = root / "shop"
    shutil.copytree(
        TEMPLATE, repo, ignore=shutil.ignore_patterns("target", "logs", "dbt_packages", "*.duckdb*")
    )
    # The dbt package from this checkout, as a user's project has it from git.
    (repo / "packages.yml").write_text(f"packages:\n  - local: {REPO}\n")
    (repo / "package-lock.yml").unlink()
    (repo / ".gitignore").write_text("target/\ndbt_packages/\nlogs/\n*.duckdb\n*.duckdb.wal\n")
    _git(repo, "init", "-q", "-b", "main")
    _git(repo, "config", "user.email", "ci@example.com")
    _git(repo, "config", "user.name", "CI")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "base")
    base_sha = _git(repo, "rev-parse", "HEAD")
    model = repo / "models" / "staging" / "stg_customers.sql"
    dropped = ",\n        upper(country_code) as country_code"
    model.write_text(model.read_text().replace(dropped, ""))
    _git(repo, "commit", "-q", "-am", "stg_customers: drop country_code")

    gh_dir = root / "gh"
    gh_dir.mkdir()
    (gh_dir / "gh").write_text(GH_STAND_IN.format(python=sys.executable, state=str(gh_dir)))
    (gh_dir / "gh").chmod(0o755)
    (gh_dir / "comments.json").write_text(json.dumps([{"id": 7, "body": "LGTM"}]))

    flow = Workflow(repo, root / "out", gh_dir)
    flow.ok("base", LINEAGE_BASE_SHA=base_sha)
    flow.ok("head")
    return flow


def test_the_workflow_calls_the_script_steps_in_order() -> None:
    steps = yaml.safe_load(WORKFLOW.read_text())["jobs"]["lineage-diff"]["steps"]
    runs = [s["run"] for s in steps if "run" in s and str(SCRIPT) in s["run"]]
    assert runs == [f"{SCRIPT} {name}" for name in ("base", "head", "diff", "comment", "gate")]
    assert "download" in WORKFLOW.read_text(), "the production manifest option is offered"
    workflow_doc = yaml.safe_load(WORKFLOW.read_text())
    assert workflow_doc["permissions"]["pull-requests"] == "write"
    assert (TEMPLATE / SCRIPT).stat().st_mode & 0o111, "the script is executable"


def test_base_and_head_are_the_two_commits_artifacts(workflow: Workflow) -> None:
    for side in ("base", "head"):
        assert (workflow.out / side / "manifest.json").exists()
        assert (workflow.out / side / "catalog.json").exists()
    base = json.loads((workflow.out / "base" / "manifest.json").read_text())
    head = json.loads((workflow.out / "head" / "manifest.json").read_text())
    node = "model.shop.stg_customers"
    assert "country_code" in base["nodes"][node]["compiled_code"]
    assert "country_code" not in head["nodes"][node]["compiled_code"]
    assert not (workflow.out / "base-src").exists(), "the base worktree is removed"


def test_diff_writes_a_comment_that_blocks_on_the_dropped_column(workflow: Workflow) -> None:
    workflow.ok("diff")
    body = (workflow.out / "comment.md").read_text()
    assert body.startswith(MARKER + "\n")
    assert "block" in body.lower()
    assert "country_code" in body and "stg_customers" in body
    assert "https://github.com/acme/shop/actions/runs/7" in body
    assert len(body) <= 65_536
    assert (workflow.out / "diff.html").read_text().lstrip().lower().startswith("<!doctype html")
    document = json.loads((workflow.out / "diff.json").read_text())
    assert document["verdict"] == "block"
    broken = {(b["node"], b["reference"]["column"]) for b in document["broken_references"]}
    assert ("model.shop.signups_by_country", "country_code") in broken
    assert ("model.shop.customers", "country_code") in broken


def test_one_sticky_comment_posted_then_updated(workflow: Workflow) -> None:
    workflow.ok("diff")
    assert "Commented on pull request #42" in workflow.ok("comment")
    first = workflow.comments()
    assert [c["id"] for c in first] == [7, 1001]
    assert first[1]["body"] == (workflow.out / "comment.md").read_text()

    (workflow.out / "comment.md").write_text(MARKER + "\nsecond push\n")
    assert "Updated comment 1001" in workflow.ok("comment")
    second = workflow.comments()
    assert [c["id"] for c in second] == [7, 1001], "no new comment for the second push"
    assert second[1]["body"] == MARKER + "\nsecond push\n"
    assert second[0]["body"] == "LGTM"

    calls = [(c["method"], c["path"]) for c in workflow.calls()]
    assert calls == [
        ("GET", "repos/acme/shop/issues/42/comments"),
        ("POST", "repos/acme/shop/issues/42/comments"),
        ("GET", "repos/acme/shop/issues/42/comments"),
        ("PATCH", "repos/acme/shop/issues/comments/1001"),
    ]
    assert "--paginate" in workflow.calls()[0]["args"]


def test_gate_fails_on_block_and_passes_when_told_never_to_fail(workflow: Workflow) -> None:
    blocked = workflow.step("gate", LINEAGE_FAIL_ON="block")
    assert blocked.returncode == 1, blocked.stdout + blocked.stderr
    assert "block" in blocked.stdout.lower()
    assert workflow.step("gate", LINEAGE_FAIL_ON="").returncode == 0


def test_a_downloaded_base_manifest_gives_the_same_verdict(
    workflow: Workflow, tmp_path: Path
) -> None:
    flow = Workflow(workflow.repo, tmp_path / "out", workflow.gh_dir)
    shutil.copytree(workflow.out / "head", flow.out / "head")
    url = (workflow.out / "base" / "manifest.json").as_uri()
    flow.ok("download", LINEAGE_BASE_MANIFEST_URL=url)
    assert sorted(p.name for p in (flow.out / "base").iterdir()) == ["manifest.json"]
    flow.ok("diff")
    assert json.loads((flow.out / "diff.json").read_text())["verdict"] == "block"
    missing = flow.step("download", LINEAGE_BASE_MANIFEST_URL=(tmp_path / "nope.json").as_uri())
    assert missing.returncode != 0
    assert "could not download the base manifest" in missing.stderr
