"""Where a node's source file lives: the git repository, commit and path, when there is one."""

from __future__ import annotations

import dataclasses
import re
import subprocess
from pathlib import Path

_SCP_REMOTE = re.compile(r"^[\w.-]+@([\w.-]+):(.+?)(?:\.git)?/?$")
_HTTP_REMOTE = re.compile(r"^https?://(?:[^@/]+@)?([\w.-]+(?::\d+)?)/(.+?)(?:\.git)?/?$")


@dataclasses.dataclass(frozen=True)
class SourceCode:
    """A project's checkout: its directory, repository root, remote URL and commit."""

    project_dir: Path
    root: Path | None = None
    remote: str | None = None
    version: str | None = None

    def location(self, original_file_path: str) -> dict[str, str]:
        """The fields of a ``sourceCodeLocation`` job facet for a file of the project.

        A file in a repository with a GitHub-style remote gets its ``blob`` URL at the
        commit; any other file its ``file://`` URL.
        """
        absolute = (self.project_dir / original_file_path).resolve()
        if self.root is None:
            return {"type": "file", "url": absolute.as_uri(), "path": original_file_path}
        relative = absolute.relative_to(self.root).as_posix()
        fields = {"type": "git", "url": absolute.as_uri(), "path": relative}
        if self.version:
            fields["version"] = self.version
        if self.remote:
            fields["repoUrl"] = self.remote
            web = _web_url(self.remote)
            if web and self.version:
                fields["url"] = f"{web}/blob/{self.version}/{relative}"
        return fields


def source_code(project_dir: str | Path, *, version: str | None = None) -> SourceCode:
    """The checkout ``project_dir`` is in; ``version`` overrides the commit (a recorded
    invocation's ``git_sha``)."""
    project = Path(project_dir).resolve()
    root = _git(project, "rev-parse", "--show-toplevel")
    if root is None:
        return SourceCode(project)
    return SourceCode(
        project,
        root=Path(root).resolve(),
        remote=_git(project, "config", "--get", "remote.origin.url"),
        version=version or _git(project, "rev-parse", "HEAD"),
    )


def _git(directory: Path, *args: str) -> str | None:
    try:
        done = subprocess.run(
            ["git", "-C", str(directory), *args],
            capture_output=True,
            text=True,
            check=False,
            timeout=10,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    value = done.stdout.strip()
    return value if done.returncode == 0 and value else None


def _web_url(remote: str) -> str | None:
    """``https://host/org/repo`` for an SSH or HTTPS remote.

    >>> _web_url("git@github.com:acme/shop.git"), _web_url("https://u@gitlab.com/a/b.git")
    ('https://github.com/acme/shop', 'https://gitlab.com/a/b')
    """
    for pattern in (_SCP_REMOTE, _HTTP_REMOTE):
        match = pattern.match(remote)
        if match:
            return f"https://{match.group(1)}/{match.group(2)}"
    return None
