"""Runs real dbt inside the test process, through dbtRunner (dbt's programmatic entry point).

A ``dbt`` subprocess spends about 1.5 s of CPU importing dbt and its adapter before it does
anything, and the suite runs a few hundred dbt commands; in this process, after the first
import, a command costs only its own work (``dbt build`` of integration_tests/: 2.9 s as a
process, 0.5 s here). It is the same dbt: the same CLI parsing, project parsing, adapters,
hooks and log lines, which go to stdout and stderr as they would from the process.

What a process would have had of its own, it gets here for the length of the command: the
environment (``env`` in place of ``os.environ``; dbt reads it when a command starts), the
working directory, stdout and stderr. The exit code is the one dbt's CLI would give: 0 on
success, 1 when a node or hook failed, 2 when dbt raised.

dbt-duckdb keeps its database open until the process exits, and warns once per process; a
test process runs many commands, so both are reset after each command as a dbt process's
exit would. Commands are serialised: dbt's state is per process, not per thread.
"""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
import threading
import typing as t
from pathlib import Path

_LOCK = threading.Lock()


@contextlib.contextmanager
def _environment(env: t.Mapping[str, str]) -> t.Iterator[None]:
    saved = dict(os.environ)
    os.environ.clear()
    os.environ.update(env)
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)


@contextlib.contextmanager
def _directory(path: Path) -> t.Iterator[None]:  # contextlib.chdir is Python 3.11+
    saved = os.getcwd()
    os.chdir(path)
    try:
        yield
    finally:
        os.chdir(saved)


def _release_duckdb() -> None:
    """What dbt-duckdb does at process exit: close its database, forget its once-warnings."""
    manager = sys.modules.get("dbt.adapters.duckdb.connections")
    if manager is None:
        return
    cls = manager.DuckDBConnectionManager
    with cls._LOCK:
        if cls._ENV is not None:
            cls._ENV.close()
            cls._ENV = None
        cls._LOGGED_MESSAGES.clear()


def run_dbt(
    args: t.Sequence[str], cwd: Path, env: t.Mapping[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """Runs ``dbt <args>`` in ``cwd`` with environment ``env`` (default: this one), as the
    ``dbt`` executable would, and returns its exit code, stdout and stderr."""
    from dbt.cli.main import dbtRunner

    out, err = io.StringIO(), io.StringIO()
    with (
        _LOCK,
        _environment(dict(os.environ) if env is None else env),
        _directory(cwd),
        contextlib.redirect_stdout(out),
        contextlib.redirect_stderr(err),
    ):
        try:
            result = dbtRunner().invoke(list(args))
        finally:
            _release_duckdb()
    code = 0 if result.success else (2 if result.exception is not None else 1)
    if result.exception is not None and not out.getvalue():
        err.write(f"{type(result.exception).__name__}: {result.exception}\n")
    return subprocess.CompletedProcess(["dbt", *args], code, out.getvalue(), err.getvalue())
