"""Write an output file whole or not at all, and never over something that is not a file.

A reader never sees half a file: the bytes go to a temporary file beside the target, which
then replaces it. Only a regular file or a missing path is replaced; a symbolic link is
written through, to its target; a directory, a device, a FIFO or a socket is refused. The
temporary file never outlives a failure.
"""

from __future__ import annotations

import os
import stat
import tempfile
import typing as t
from pathlib import Path

from dbt_lineage.errors import OutputError


def files(path: str | Path, content: bytes | t.Iterable[bytes]) -> Path:
    """Module entry: write ``content`` to ``path`` (see :func:`write_file`)."""
    return write_file(path, content)


def write_file(path: str | Path, content: bytes | t.Iterable[bytes]) -> Path:
    """Write ``content`` (bytes, or pieces of bytes) to ``path`` atomically.

    Returns:
        The path written (the link's target when ``path`` is a symbolic link).

    Raises:
        OutputError: the path is a directory, a device, a FIFO or a socket, its directory
            does not exist, or the file cannot be written (what, where and what to do).
    """
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
            if isinstance(content, (bytes, bytearray)):
                stream.write(content)
            else:
                for piece in content:
                    stream.write(piece)
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
    return target


def _target(path: Path) -> Path:
    """The regular file (or missing path) to replace for ``path``."""
    if path.is_symlink():
        path = Path(os.path.realpath(path))
    if path.exists():
        mode = path.stat().st_mode
        if stat.S_ISDIR(mode):
            raise OutputError("is a directory: give a file path to write to", path=path)
        if not stat.S_ISREG(mode):
            kind = (
                "a FIFO"
                if stat.S_ISFIFO(mode)
                else "a socket"
                if stat.S_ISSOCK(mode)
                else "a device"
            )
            raise OutputError(
                f"is {kind}, not a file: dbt-lineage writes only regular files (it replaces "
                "them whole); give a file path",
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
