"""Every command that takes ``--output`` writes to ``-``, to a FIFO with a reader, and to
``/dev/stdout``: the whole document, in place, never reading or replacing the stream.

The commands run as a user runs them (the installed ``dbt-lineage`` in a subprocess), with a
time limit: the bug this guards against was a hang (the old output opened for reading).
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
import threading
import typing as t
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

CLI = str(Path(sys.executable).with_name("dbt-lineage"))
LIMIT = 240  # seconds: far more than any of these takes; a hang fails instead of waiting


@pytest.fixture(scope="module")
def shop(template_project: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A private copy of the built template (with its warehouse and hook tables)."""
    copy = tmp_path_factory.mktemp("streams") / "shop"
    shutil.copytree(template_project, copy, symlinks=True)
    return copy


def _commands(shop: Path) -> dict[str, tuple[list[str], t.Callable[[bytes], None]]]:
    """Each command with --output, and a check of the document it writes."""
    target = str(shop / "target")
    return {
        "build": (["build", "--no-cache"], _lineage_json),
        "report": (["report"], _html),
        "diff": (["diff", "--base", target, "--head", target, "--format", "json"], _diff_json),
        "openlineage": (["openlineage", "--since", "2000-01-01", "--profiles-dir", "."], _events),
    }


def _lineage_json(data: bytes) -> None:
    document = json.loads(data)
    assert "model.shop.orders" in document["nodes"], sorted(document["nodes"])[:5]


def _html(data: bytes) -> None:
    assert data.startswith(b"<!DOCTYPE html>") and data.rstrip().endswith(b"</html>"), data[:80]


def _diff_json(data: bytes) -> None:
    assert json.loads(data)["verdict"] == "info"


def _events(data: bytes) -> None:
    events = [json.loads(line) for line in data.decode().splitlines()]
    assert events and all(event["eventType"] in {"START", "COMPLETE", "FAIL"} for event in events)


def _run(shop: Path, args: list[str], **kwargs: t.Any) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "DBT_SEND_ANONYMOUS_USAGE_STATS": "false"}
    streams = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE, **kwargs}
    return subprocess.run(
        [CLI, *args, "--project-dir", str(shop)], cwd=shop, env=env, timeout=LIMIT, **streams
    )


@pytest.mark.parametrize("command", ["build", "report", "diff", "openlineage"])
def test_a_fifo_with_a_reader_gets_the_whole_document(shop: Path, command: str) -> None:
    args, check = _commands(shop)[command]
    fifo = shop / f"{command}.fifo"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()), daemon=True)
    reader.start()
    done = _run(shop, [*args, "--output", str(fifo)])
    if done.returncode != 0:  # let the reader go
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
    reader.join(timeout=LIMIT)
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    assert not reader.is_alive(), "the reader never saw the end of the document"
    check(received[0])
    assert stat.S_ISFIFO(fifo.lstat().st_mode), "the FIFO was replaced"
    assert list(shop.glob(f"{command}.*")) == [fifo], "nothing written beside a stream"
    assert b"Wrote" not in done.stdout


@pytest.mark.parametrize("command", ["build", "report", "diff", "openlineage"])
def test_dash_and_dev_stdout_are_standard_output(shop: Path, command: str) -> None:
    args, check = _commands(shop)[command]
    for output in ("-", "/dev/stdout"):
        done = _run(shop, [*args, "--output", output])
        assert done.returncode == 0, done.stderr.decode()[-2000:]
        check(done.stdout)  # the document alone: summaries go to standard error
        assert not (shop / output.lstrip("/")).exists()
    assert not (shop / "-").exists() and not (shop / "-.index.sqlite").exists()


def test_dev_stdout_redirected_to_a_file_is_appended_to_not_replaced(
    shop: Path, tmp_path: Path
) -> None:
    """``dbt-lineage build --output /dev/stdout > file``: the shell's file is written through
    the open descriptor (replacing the path would leave the shell writing to a lost file)."""
    args, check = _commands(shop)["build"]
    redirected = tmp_path / "lineage.json"
    with redirected.open("wb") as stream:
        done = _run(shop, [*args, "--output", "/dev/stdout"], stdout=stream, stderr=subprocess.PIPE)
        inode = os.fstat(stream.fileno()).st_ino
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    assert redirected.stat().st_ino == inode
    check(redirected.read_bytes())


def test_a_device_is_written_in_place(shop: Path) -> None:
    done = _run(shop, ["build", "--output", "/dev/null"])
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    assert Path("/dev/null").is_char_device()
    assert b"Wrote standard output" not in done.stderr and b"Wrote /dev/null" in done.stderr
