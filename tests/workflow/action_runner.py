"""The dbt-lineage GitHub Action (``action.yml``), run locally: each step's ``run`` script with
the environment GitHub would give it, built from the YAML (the template workflow's job ``env``
and the step's ``env``, with their ``${{ }}`` expressions evaluated), on a git copy of the
template, with real dbt on DuckDB and the real ``dbt-lineage``.

So a test sees exactly what each step can read: put ``GH_TOKEN`` on the job, and the steps
that run dbt get it here too. Only ``gh`` is a stand-in (GitHub's API is not reachable from a
test): a script on PATH that keeps the pull request's comments in a JSON file, records every
call, and answers 403 to writes when told to (a fork's read-only token).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
import typing as t
from pathlib import Path

import yaml
from tests.dbt_projects import DBT, REPO, _env

TEMPLATE = REPO / "dbt_project_template"
ACTION = REPO / "action.yml"
RELAY = REPO / "relay" / "action.yml"
WORKFLOW = TEMPLATE / ".github" / "workflows" / "dbt-lineage-diff.yml"
FORK_WORKFLOW = TEMPLATE / ".github" / "workflows" / "dbt-lineage-fork-comment.yml"
MARKER = "<!-- dbt-lineage-diff -->"
BOT = "github-actions[bot]"
FAKE_TOKEN = "ghs_fakeTokenForTheLocalRunOfTheAction0123"
"""What ``${{ github.token }}`` evaluates to: must appear nowhere but in the comment step."""

GH_STAND_IN = textwrap.dedent(
    """\
    #!{python}
    # gh stand-in: `gh api [--paginate] [--method M] PATH [--input -] [--jq .head.sha]` over
    # JSON files; every call is appended to calls.jsonl (with whether it had the token).
    import json, os, sys
    from pathlib import Path

    state = Path({state!r})
    args = sys.argv[1:]
    method = args[args.index("--method") + 1] if "--method" in args else "GET"
    path = next(a for a in args[1:] if a.startswith("repos/"))
    body = json.load(sys.stdin)["body"] if "--input" in args else None
    token = os.environ.get("GH_TOKEN") == {token!r}
    with (state / "calls.jsonl").open("a") as calls:
        calls.write(json.dumps({{"args": args, "method": method, "path": path, "token": token}}))
        calls.write("\\n")
    if method != "GET" and (state / "forbidden").exists():
        sys.stderr.write("gh: Resource not accessible by integration (HTTP 403)\\n")
        sys.exit(1)
    if method != "GET" and (state / "unavailable").exists():
        sys.stderr.write("gh: Server Error (HTTP 502)\\n")
        sys.exit(1)
    if "/pulls/" in path:
        pull = json.loads((state / "pulls.json").read_text())[path.rsplit("/", 1)[1]]
        print(pull["head"]["sha"] if "--jq" in args else json.dumps(pull))
        sys.exit(0)
    comments = json.loads((state / "comments.json").read_text())
    if method == "GET":
        print(json.dumps(comments))
    elif method == "POST":
        comments.append({{"id": 1000 + len(comments), "body": body, "user": {{"login": {bot!r}}}}})
    elif method == "PATCH":
        target = int(path.rsplit("/", 1)[1])
        [comment] = [c for c in comments if c["id"] == target]
        comment["body"] = body
    (state / "comments.json").write_text(json.dumps(comments))
    """
)

DBT_SHIM = textwrap.dedent(
    """\
    #!/usr/bin/env bash
    # dbt, with each call's arguments and directory recorded
    printf '%s\\t%s\\n' "$PWD" "$*" >> {log!r}
    exec {dbt!r} "$@"
    """
)


def git(repo: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=repo, check=True, capture_output=True, text=True
    ).stdout.strip()


def template_repo(root: Path) -> Path:
    """A git repository of the template at ``root/shop``, one commit (``base``) on main."""
    repo = root / "shop"
    shutil.copytree(
        TEMPLATE, repo, ignore=shutil.ignore_patterns("target", "logs", "dbt_packages", "*.duckdb*")
    )
    # The dbt package from this checkout, as a user's project has it from git.
    (repo / "packages.yml").write_text(f"packages:\n  - local: {REPO}\n")
    (repo / "package-lock.yml").unlink()
    (repo / ".gitignore").write_text("target/\ndbt_packages/\nlogs/\n*.duckdb\n*.duckdb.wal\n")
    git(repo, "init", "-q", "-b", "main")
    git(repo, "config", "user.email", "ci@example.com")
    git(repo, "config", "user.name", "CI")
    commit(repo, "base")
    return repo


def commit(repo: Path, message: str) -> str:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--allow-empty", "-m", message)
    return git(repo, "rev-parse", "HEAD")


def _steps(path: Path) -> dict[str, dict[str, t.Any]]:
    steps = yaml.safe_load(path.read_text())["runs"]["steps"]
    return {step["id"]: step for step in steps if "id" in step and "run" in step}


def action_inputs(path: Path = ACTION, workflow: Path = WORKFLOW) -> dict[str, str]:
    """The action's inputs: its defaults, then what the template's workflow passes."""
    inputs = {
        name: str(spec.get("default", ""))
        for name, spec in yaml.safe_load(path.read_text())["inputs"].items()
    }
    for step in yaml.safe_load(workflow.read_text())["jobs"]["lineage-diff"]["steps"]:
        if str(step.get("uses", "")).split("@")[0].endswith("/dbt-lineage"):
            inputs.update({k: str(v) for k, v in (step.get("with") or {}).items()})
    return inputs


class Action:
    """Runs the action's steps by id in ``repo``; ``runner_temp`` holds the outputs."""

    def __init__(self, repo: Path, runner_temp: Path, gh_dir: Path, base_sha: str) -> None:
        self.repo, self.runner_temp, self.gh_dir = repo, runner_temp, gh_dir
        self.base_sha = base_sha
        self.out = runner_temp / "dbt-lineage-diff"
        self.outputs: list[str] = []
        """Everything every step printed."""
        self.dbt_log = gh_dir / "dbt-calls.tsv"
        shim = gh_dir / "dbt"
        shim.write_text(DBT_SHIM.format(log=str(self.dbt_log), dbt=str(DBT)))
        shim.chmod(0o755)

    def context(self, inputs: t.Mapping[str, str], action: Path) -> dict[str, str]:
        return {
            **{f"inputs.{name}": value for name, value in inputs.items()},
            "github.token": FAKE_TOKEN,
            "github.action_path": str(action.parent),
            "github.action_ref": "v0",
            "github.workspace": str(self.repo),
            "github.event.pull_request.base.sha": self.base_sha,
            "github.event.pull_request.number": "42",
            "github.server_url": "https://github.com",
            "github.repository": "acme/shop",
            "github.run_id": "7",
            "runner.temp": str(self.runner_temp),
        }

    def step(
        self, step_id: str, *, action: Path = ACTION, inputs: t.Mapping[str, str] | None = None
    ) -> subprocess.CompletedProcess[str]:
        """Runs one step as GitHub would: job env, then the step's env, then its script."""
        context = self.context({**action_inputs(), **(inputs or {})}, action)
        job = yaml.safe_load(WORKFLOW.read_text())["jobs"]["lineage-diff"]
        step = _steps(action)[step_id]
        env = _env()
        bin_dir = Path(sys.executable).parent
        env.update(
            PATH=f"{self.gh_dir}{os.pathsep}{bin_dir}{os.pathsep}{env['PATH']}",
            PYTHONPATH=str(REPO / "src"),  # this checkout's dbt_lineage, not an installed one
            DBT=str(self.gh_dir / "dbt"),
            DBT_LINEAGE=str(bin_dir / "dbt-lineage"),
            RUNNER_TEMP=str(self.runner_temp),
            GITHUB_REPOSITORY="acme/shop",
            GITHUB_OUTPUT=str(self.runner_temp / "github_output"),
        )
        env.pop("GH_TOKEN", None)
        env.pop("GITHUB_TOKEN", None)
        for name, value in {**job.get("env", {}), **step.get("env", {})}.items():
            env[name] = evaluate(str(value), context)
        proc = subprocess.run(
            ["bash", "-e", "-c", step["run"]],
            cwd=self.repo,
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        self.outputs.append(proc.stdout + proc.stderr)
        return proc

    def job(
        self, inputs: t.Mapping[str, str] | None = None, *, done: t.Collection[str] = ()
    ) -> dict[str, str]:
        """Runs the action's script steps in order as the runner would, each when its ``if``
        holds; the steps in ``done`` and those that only set up (``uses:``, the install)
        count as succeeded. Returns each step's outcome by id."""
        inputs = {**action_inputs(), **(inputs or {})}
        outcomes: dict[str, str] = {}
        job_ok = True
        for step in yaml.safe_load(ACTION.read_text())["runs"]["steps"]:
            step_id = step.get("id", "")
            if not _holds(step.get("if", "success()"), outcomes, inputs, job_ok):
                outcomes[step_id] = "skipped"
                continue
            if step_id in done or step_id not in _steps(ACTION) or step_id == "keys":
                outcomes[step_id] = "success"
                continue
            passed = self.step(step_id, inputs=inputs).returncode == 0
            outcomes[step_id] = "success" if passed else "failure"
            job_ok = job_ok and (passed or bool(step.get("continue-on-error")))
        return outcomes

    def ok(self, step_id: str, **kwargs: t.Any) -> str:
        proc = self.step(step_id, **kwargs)
        assert proc.returncode == 0, f"step {step_id} failed:\n{proc.stdout}\n{proc.stderr}"
        return proc.stdout

    def comments(self) -> list[dict]:
        return json.loads((self.gh_dir / "comments.json").read_text())

    def calls(self) -> list[dict]:
        path = self.gh_dir / "calls.jsonl"
        lines = path.read_text().splitlines() if path.exists() else []
        return [json.loads(line) for line in lines]

    def dbt_calls(self) -> list[tuple[str, str]]:
        lines = self.dbt_log.read_text().splitlines() if self.dbt_log.exists() else []
        return [t.cast(tuple[str, str], tuple(line.split("\t", 1))) for line in lines]


def gh_stand_in(gh_dir: Path, comments: list[dict]) -> None:
    gh_dir.mkdir(parents=True, exist_ok=True)
    script = GH_STAND_IN.format(python=sys.executable, state=str(gh_dir), token=FAKE_TOKEN, bot=BOT)
    (gh_dir / "gh").write_text(script)
    (gh_dir / "gh").chmod(0o755)
    (gh_dir / "comments.json").write_text(json.dumps(comments))


def _holds(
    condition: str, outcomes: t.Mapping[str, str], inputs: t.Mapping[str, str], job_ok: bool
) -> bool:
    """A step's ``if``, for the few forms the action uses; anything else fails the test."""
    text = condition.strip().removeprefix("${{").removesuffix("}}").strip()
    text = text.replace("!cancelled()", "True").replace("success()", repr(job_ok))
    text = re.sub(r"steps\.(\w+)\.outcome", lambda m: repr(outcomes.get(m[1], "skipped")), text)
    text = re.sub(r"inputs\.([\w-]+)", lambda m: repr(inputs[m[1]]), text)
    text = text.replace("!=", "<>").replace("&&", " and ").replace("||", " or ")
    text = text.replace("!", " not ").replace("<>", "!=")
    return bool(eval(text, {"__builtins__": {}, "True": True, "False": False}))  # noqa: S307


_EXPRESSION = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")


def evaluate(text: str, context: t.Mapping[str, str]) -> str:
    """``text`` with each ``${{ name }}`` replaced; a name the context lacks fails the test
    (the runner must learn what a new expression means before it runs the step)."""

    def value(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in context:
            raise AssertionError(f"the local runner does not know ${{{{ {name} }}}}")
        return context[name]

    return _EXPRESSION.sub(value, text)
