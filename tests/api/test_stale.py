"""Stale lineage on a synthetic project (artifacts written by the benchmarks' generator,
lineage built in this process): the API returns the warning and prints nothing, the CLI
prints it on standard error; a manifest dbt rewrote with the same content is current, one
with other content is stale, of the same size or not."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from dbt_lineage.api.locate import load_lineage
from dbt_lineage.cli import main

from .conftest import feeding_column

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = ("manifest.json", "catalog.json", "lineage.json", "lineage.index.sqlite")


@pytest.fixture
def project(built: Path, tmp_path: Path) -> Path:
    """A copy of the built project's target, with the files' times kept."""
    (tmp_path / "target").mkdir()
    for name in ARTIFACTS:
        shutil.copy2(built / "target" / name, tmp_path / "target" / name)
    return tmp_path


def _warnings(project: Path) -> tuple[str, ...]:
    return load_lineage(project, None, None, index=True).warnings


def _rewrite(project: Path, old: bytes, new: bytes, *, first: bool = False) -> None:
    """Rewrite the manifest with the last ``old`` (the ``first``) replaced by ``new``."""
    manifest = project / "target" / "manifest.json"
    data = manifest.read_bytes()
    at = data.index(old) if first else data.rindex(old)
    manifest.write_bytes(data[:at] + new + data[at + len(old) :])


def _recorded(project: Path) -> dict[str, object]:
    with sqlite3.connect(project / "target" / "lineage.index.sqlite") as connection:
        (value,) = connection.execute("SELECT value FROM meta WHERE key = 'manifest'").fetchone()
    connection.close()
    return json.loads(value)


def test_a_manifest_changed_since_the_build_is_returned_not_printed(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _warnings(project) == ()
    _rewrite(project, b"select", b"SELECT")  # other content, of the same size
    (warning,) = _warnings(project)
    lineage, manifest = project / "target" / "lineage.json", project / "target" / "manifest.json"
    assert warning == (
        f"Warning: {lineage} was built from another manifest.json than {manifest} (dbt ran "
        "since): answers may miss or misstate new and changed nodes; run `dbt-lineage build` "
        "(it resolves only what changed)"
    )
    assert capsys.readouterr() == ("", "")


def test_the_cli_prints_the_warning_on_standard_error(project: Path) -> None:
    _rewrite(project, b"select", b"SELECT")
    (warning,) = _warnings(project)
    column = _a_column(project)
    result = CliRunner().invoke(main.cli, ["impact", column, "--project-dir", str(project)])
    assert result.exit_code == 0, result.output
    assert result.stderr == warning + "\n"
    assert result.stdout.strip()


def test_content_of_another_size_is_stale(project: Path) -> None:
    _rewrite(project, b"select", b"select ")
    assert len(_warnings(project)) == 1


def test_the_same_content_with_new_metadata_is_current_and_recorded(project: Path) -> None:
    manifest = project / "target" / "manifest.json"
    assert manifest.read_bytes().startswith(b'{"metadata": {')
    _rewrite(project, b'"invocation_id": "', b'"invocation_id": "a-later-run-', first=True)
    assert _warnings(project) == ()
    status = manifest.stat()
    assert _recorded(project)["file"] == [status.st_size, status.st_mtime_ns]


def test_an_index_without_content_sizes_compares_digests(project: Path) -> None:
    recorded = _recorded(project)
    del recorded["content_size"]
    with sqlite3.connect(project / "target" / "lineage.index.sqlite") as connection:
        connection.execute(
            "UPDATE meta SET value = ? WHERE key = 'manifest'", [json.dumps(recorded)]
        )
    connection.close()
    manifest = project / "target" / "manifest.json"
    manifest.write_bytes(manifest.read_bytes())  # the same bytes, a new time
    assert _warnings(project) == ()
    _rewrite(project, b"select", b"SELECT")
    assert len(_warnings(project)) == 1


def _a_column(project: Path) -> str:
    return feeding_column(load_lineage(project, None, None, index=False).graph)
