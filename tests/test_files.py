"""Output files: written whole, only over regular files, never leaving a partial behind."""

from __future__ import annotations

import json
import os
import socket
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner

from dbt_lineage.cli import main
from dbt_lineage.errors import OutputError
from dbt_lineage.files import is_stream, write_file


def test_a_new_file_and_a_replaced_file(tmp_path: Path) -> None:
    path = tmp_path / "out.json"
    assert write_file(path, b"one") == path and path.read_bytes() == b"one"
    path.chmod(0o640)
    write_file(path, [b"t", b"wo"])
    assert path.read_bytes() == b"two" and (path.stat().st_mode & 0o777) == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["out.json"]


def test_a_symlink_is_written_through_to_its_target(tmp_path: Path) -> None:
    target = tmp_path / "real.json"
    target.write_bytes(b"old")
    link = tmp_path / "link.json"
    link.symlink_to(target)
    assert write_file(link, b"new") == target
    assert link.is_symlink() and target.read_bytes() == b"new"


@pytest.mark.parametrize("kind", ["directory", "socket", "block device"])
def test_what_is_neither_a_file_nor_a_stream_is_refused_and_left_alone(
    tmp_path: Path, kind: str
) -> None:
    path = tmp_path / kind
    holder = None
    if kind == "directory":
        path.mkdir()
    elif kind == "socket":
        holder = socket.socket(socket.AF_UNIX)
        holder.bind(str(path))
    else:
        blocks = [p for p in Path("/dev").iterdir() if p.is_block_device()]
        if not blocks:
            pytest.skip("no block device in /dev on this machine")
        path = blocks[0]
    before = path.lstat()
    with pytest.raises(OutputError) as caught:
        write_file(path, b"x")
    assert "\n" not in caught.value.one_line() and "give " in caught.value.message
    assert path.lstat().st_mode == before.st_mode, "left as it was"
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".partial")]
    if holder is not None:
        holder.close()


def test_a_fifo_is_written_in_place_never_opened_for_reading(tmp_path: Path) -> None:
    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()), daemon=True)
    reader.start()
    assert write_file(fifo, [b"one ", b"two"]) == fifo
    reader.join(timeout=30)
    assert received == [b"one two"] and fifo.is_fifo()
    assert [p.name for p in tmp_path.iterdir()] == ["out.fifo"]


def test_dash_is_standard_output(capfdbinary: pytest.CaptureFixture[bytes]) -> None:
    assert is_stream("-") and is_stream("/dev/stdout") and is_stream("/dev/fd/3")
    write_file("-", b'{"a": 1}\n')
    assert capfdbinary.readouterr().out == b'{"a": 1}\n'
    assert not Path("-").exists()


def test_a_missing_directory_and_an_unwritable_one_are_user_errors(tmp_path: Path) -> None:
    with pytest.raises(OutputError, match="does not exist: create it"):
        write_file(tmp_path / "nowhere" / "x.json", b"x")
    with pytest.raises(OutputError, match="check the path and its permissions") as caught:
        write_file("/proc/dbt_lineage_output.json", b"x")  # refused even to root
    assert caught.value.one_line().startswith("cannot create a file in /proc")


def test_build_refuses_a_directory_as_output_in_one_line(tmp_path: Path) -> None:
    target = tmp_path / "target"
    target.mkdir()
    version = "https://schemas.getdbt.com/dbt/manifest/v12.json"
    manifest = {"metadata": {"dbt_schema_version": version, "adapter_type": "duckdb"}, "nodes": {}}
    (target / "manifest.json").write_text(json.dumps(manifest))
    result = CliRunner().invoke(
        main.cli, ["build", "--project-dir", str(tmp_path), "--output", str(target)]
    )
    assert result.exit_code == 2
    assert result.output.count("\n") == 1 and "is a directory" in result.output
    assert target.is_dir()
