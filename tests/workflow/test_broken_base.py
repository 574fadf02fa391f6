"""A side that does not compile, through the action's steps (``action_runner``): a broken base
is not the pull request's fault (a comment says so and the gate passes: the PR that fixes main
must not fail for it); a broken pull request fails, with a comment that says why.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.workflow.action_runner import MARKER, Action, commit, gh_stand_in, template_repo

pytestmark = pytest.mark.slow

BROKEN = "select * from {{ ref('no_such_model') }}\n"


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """The template with a model that refs a missing model on main (its base commit)."""
    root = tmp_path_factory.mktemp("broken_base")
    repo = template_repo(root)
    (repo / "models" / "broken.sql").write_text(BROKEN)
    base_sha = commit(repo, "main: a model that refs a missing model")
    gh_stand_in(root / "gh", [])
    return repo, base_sha


def test_the_pull_request_that_fixes_a_broken_base_passes(
    repo: tuple[Path, str], tmp_path: Path
) -> None:
    path, base_sha = repo
    (path / "models" / "broken.sql").unlink()
    commit(path, "fix main: remove the broken model")
    flow = Action(path, tmp_path / "runner", path.parent / "gh", base_sha)

    base = flow.step("base")
    assert base.returncode == 0, base.stdout + base.stderr
    assert f"::warning::the base commit {base_sha} does not compile" in base.stdout
    assert "no_such_model" in (flow.out / "base.failed").read_text()
    assert not (flow.out / "base-src").exists(), "the base worktree is removed"
    flow.ok("head")
    flow.ok("diff")
    body = (flow.out / "comment.md").read_text()
    assert body.startswith(MARKER + "\n## dbt-lineage diff: the base does not compile")
    assert "This pull request is not failed for it" in body and "no_such_model" in body
    assert "\x1b[" not in body, "dbt's colour codes are removed"
    assert body.count("```") == 2, "dbt's error in one code block"
    assert "Commented on pull request #42" in flow.ok("comment")
    gate = flow.step("gate")
    assert gate.returncode == 0, gate.stdout + gate.stderr
    assert "the base does not compile" in gate.stdout


def test_a_pull_request_that_does_not_compile_fails_with_a_comment(
    repo: tuple[Path, str], tmp_path: Path
) -> None:
    path, _ = repo
    (path / "models" / "broken.sql").unlink(missing_ok=True)
    good = commit(path, "a base that compiles")
    (path / "models" / "broken_too.sql").write_text(BROKEN)
    commit(path, "a pull request that refs a missing model")
    flow = Action(path, tmp_path / "runner", path.parent / "gh", good)

    flow.ok("base")
    assert flow.step("head").returncode != 0
    assert flow.step("diff").returncode == 1
    body = (flow.out / "comment.md").read_text()
    assert body.startswith(MARKER + "\n## dbt-lineage diff: this pull request does not compile")
    assert "no_such_model" in body
    gate = flow.step("gate")
    assert gate.returncode == 1
    assert "::error::this pull request does not compile" in gate.stdout
