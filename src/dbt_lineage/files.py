"""Write an output whole, or in place when it is a stream; never over a directory.

A reader never sees half a file: the bytes go to a temporary file beside the target, which
then replaces it. Only a regular file or a missing path is replaced; a symbolic link is
written through, to its target. A stream is written in place, once, and never read nor
replaced: ``-`` (standard output), a FIFO, a character device (``/dev/null``, a terminal),
and the links to this process's open files (``/dev/stdout``, ``/dev/stderr``,
``/dev/fd/N``, ``/proc/self/fd/N``), which may lead to a pipe or to the file the shell
redirected to (then appended to, after what the shell truncated). A directory, a socket
or a block device is refused. The temporary file never outlives a failure.
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
import sys
import tempfile
import typing as t
from pathlib import Path

from dbt_lineage.errors import OutputError

STDOUT = "-"
"""The output path that means standard output."""

_OPEN_FILE = re.compile(r"/dev/(stdout|stderr|fd/\d+)|/proc/(self|\d+)/fd/\d+")


def files(path: str | Path, content: bytes | t.Iterable[bytes]) -> Path:
    """Module entry: write ``content`` to ``path`` (see :func:`write_file`)."""
    return write_file(path, content)


def write_file(path: str | Path, content: bytes | t.Iterable[bytes]) -> Path:
    """Write ``content`` (bytes, or pieces of bytes) to ``path``: atomically to a file, in
    place to a stream (see :func:`is_stream`).

    Returns:
        The path written (the link's target when ``path`` is a symbolic link to a file).

    Raises:
        OutputError: the path is a directory, a socket or a block device, its directory
            does not exist, or it cannot be written (what, where and what to do).
    """
    with open_output(path) as (stream, written):
        if isinstance(content, (bytes, bytearray)):
            stream.write(content)
        else:
            for piece in content:
                stream.write(piece)
    return written


def is_stream(path: str | Path) -> bool:
    """Whether ``path`` is written in place (standard output, a FIFO, a character device,
    a link to an open file) rather than replaced; stats the path, never opens it.

    >>> is_stream("-"), is_stream("/dev/null"), is_stream("/nowhere/lineage.json")
    (True, True, False)
    """
    text = str(path)
    if text == STDOUT or _OPEN_FILE.fullmatch(text):
        return True
    try:
        mode = os.stat(text).st_mode
    except OSError:
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISCHR(mode)


def describe(path: str | Path) -> str:
    """How to name ``path`` in a message (``-`` is standard output).

    >>> describe("-"), describe("target/lineage.json")
    ('standard output', 'target/lineage.json')
    """
    return "standard output" if str(path) == STDOUT else str(path)


@contextlib.contextmanager
def open_output(path: str | Path) -> t.Iterator[tuple[t.BinaryIO, Path]]:
    """A binary stream to write ``path``'s new content to, and the path that will hold it.

    A file appears whole when the block ends without an error (and is left as it was when
    one is raised); a stream receives the bytes as they are written.

    Raises:
        OutputError: as :func:`write_file`.
    """
    if is_stream(path):
        with _in_place(path) as stream:
            yield stream, Path(path)
        return
    target = _target(Path(path))
    directory = target.parent
    try:
        handle, partial = tempfile.mkstemp(
            prefix=f".{target.name}.", suffix=".partial", dir=directory
        )
    except OSError as error:
        raise OutputError(_cannot(error, directory, "create a file in"), path=target) from error
    try:
        with os.fdopen(handle, "wb") as stream:
            yield t.cast(t.BinaryIO, stream), target
        if target.exists():
            os.chmod(partial, stat.S_IMODE(target.stat().st_mode))
        else:
            os.chmod(partial, 0o666 & ~_umask())
        os.replace(partial, target)
    except OSError as error:
        raise OutputError(_cannot(error, target, "write"), path=target) from error
    finally:
        if os.path.exists(partial):
            os.unlink(partial)


@contextlib.contextmanager
def _in_place(path: str | Path) -> t.Iterator[t.BinaryIO]:
    """Standard output, or the stream at ``path`` opened for writing only (appending, never
    truncating nor creating)."""
    sys.stdout.flush()  # what was printed before comes first
    try:
        if str(path) == STDOUT:
            stream = sys.stdout.buffer
            yield stream
            stream.flush()
            return
        descriptor = os.open(path, os.O_WRONLY | os.O_APPEND)
        with os.fdopen(descriptor, "wb") as opened:
            yield t.cast(t.BinaryIO, opened)
    except BrokenPipeError as error:
        raise OutputError(
            "the reader closed the pipe before the end: keep it reading to the end",
            path=describe(path),
        ) from error
    except OSError as error:
        raise OutputError(_cannot(error, Path(path), "write"), path=describe(path)) from error


def _target(path: Path) -> Path:
    """The regular file (or missing path) to replace for ``path``."""
    if path.is_symlink():
        path = Path(os.path.realpath(path))
    if path.exists():
        mode = path.stat().st_mode
        if stat.S_ISDIR(mode):
            raise OutputError("is a directory: give a file path to write to", path=path)
        if not stat.S_ISREG(mode):
            kind = "a socket" if stat.S_ISSOCK(mode) else "a block device"
            raise OutputError(
                f"is {kind}: dbt-lineage writes to files (replaced whole), FIFOs, character "
                "devices and - (standard output); give one of those",
                path=path,
            )
    if not path.parent.is_dir():
        raise OutputError(
            f"directory {path.parent} does not exist: create it, or give another path",
            path=path,
        )
    return path


def _cannot(error: OSError, where: Path, doing: str) -> str:
    reason = error.strerror or type(error).__name__
    return f"cannot {doing} {where} ({reason}): check the path and its permissions"


def _umask() -> int:
    current = os.umask(0)
    os.umask(current)
    return current
