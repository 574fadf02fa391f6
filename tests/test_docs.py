"""The documentation site: each command's page lists its options as ``--help`` prints them,
every page is in the navigation, and ``mkdocs build --strict`` passes (no broken link or
anchor, no page left out of the navigation).

``UPDATE_DOCS=1 .venv/bin/python -m pytest tests/test_docs.py`` writes the current
``--help`` text into the pages: read the diff before committing.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from dbt_lineage.cli.commands import COMMANDS
from dbt_lineage.cli.main import cli

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
HELP_WIDTH = 100
_HELP_BLOCK = re.compile(
    r"(<!-- dbt-lineage (?P<command>[a-z-]+) --help -->\n```text\n)(?P<text>.*?)(```)", re.S
)


def help_text(command: str) -> str:
    """What ``dbt-lineage COMMAND --help`` prints, at a fixed width."""
    result = CliRunner().invoke(
        cli, [command, "--help"], terminal_width=HELP_WIDTH, prog_name="dbt-lineage"
    )
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_command_page_lists_the_options_help_prints(command: str) -> None:
    page = DOCS / "commands" / f"{command}.md"
    assert page.exists(), f"no page for `dbt-lineage {command}`: write {page.relative_to(ROOT)}"
    text = page.read_text()
    blocks = [m for m in _HELP_BLOCK.finditer(text) if m["command"] == command]
    assert len(blocks) == 1, f"{page.name} needs one `<!-- dbt-lineage {command} --help -->` block"
    wanted = help_text(command)
    if os.environ.get("UPDATE_DOCS") and blocks[0]["text"] != wanted:
        block = blocks[0]
        page.write_text(text[: block.start("text")] + wanted + text[block.end("text") :])
        return
    assert blocks[0]["text"] == wanted, (
        f"{page.name} lists other options than `dbt-lineage {command} --help` prints: "
        "rerun with UPDATE_DOCS=1 and read the diff"
    )
    for option in re.findall(r"^\s+(?:-\w, )?(--[a-z][a-z-]*)", wanted, flags=re.M):
        assert text.count(option) >= 1


def _nav_pages(entries: list) -> list[str]:
    pages = []
    for entry in entries:
        value = next(iter(entry.values())) if isinstance(entry, dict) else entry
        pages += _nav_pages(value) if isinstance(value, list) else [value]
    return pages


def test_every_page_is_in_the_navigation_and_every_entry_exists() -> None:
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text())
    in_nav = _nav_pages(config["nav"])
    on_disk = sorted(str(path.relative_to(DOCS)) for path in DOCS.rglob("*.md"))
    assert sorted(in_nav) == on_disk


def test_the_python_examples_print_what_they_promise() -> None:
    """Every ``python`` block of the docs whose lines ``# `` say what it prints prints that."""
    checked = 0
    for page in sorted(DOCS.rglob("*.md")):
        for block in re.findall(r"```python\n(.*?)```", page.read_text(), flags=re.S):
            expected = [line[2:] for line in block.splitlines() if line.startswith("# ")]
            if not expected:
                continue
            output = io.StringIO()
            with contextlib.redirect_stdout(output):
                exec(compile(block, str(page), "exec"), {})
            assert output.getvalue().splitlines() == expected, page.name
            checked += 1
    assert checked >= 2


def test_mkdocs_build_strict(tmp_path: Path) -> None:
    mkdocs = shutil.which("mkdocs", path=str(Path(sys.executable).parent))
    assert mkdocs, "mkdocs is not installed: pip install -e '.[dev]'"
    result = subprocess.run(
        [mkdocs, "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr[-4000:]
    assert (tmp_path / "site" / "commands" / "diff" / "index.html").exists()
