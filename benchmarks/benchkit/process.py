"""Run a command as a whole process and measure its wall time and memory.

Wall seconds, and CPU seconds of the process and every process it waited for (less
sensitive than wall time to other work on a shared machine). Two memory figures, since
``dbt-lineage build`` resolves in worker processes:

- ``max_rss_mb``: the peak resident set of the largest single process of the run (the
  command or any process it waited for), from the kernel's accounting (``wait4``);
- ``tree_pss_mb``: the peak, over samples every 50 ms, of the proportional set size summed
  over the whole process tree (shared pages split between the processes sharing them).
"""

from __future__ import annotations

import dataclasses
import os
import subprocess
import tempfile
import threading
import time
from pathlib import Path

SAMPLE_SECONDS = 0.05
_PAGE = os.sysconf("SC_PAGE_SIZE")


@dataclasses.dataclass(frozen=True)
class Run:
    """One finished process."""

    seconds: float
    cpu_s: float
    max_rss_mb: float
    tree_pss_mb: float
    returncode: int
    output: str


def run_measured(
    cmd: list[str],
    *,
    cwd: str | Path | None = None,
    env: dict[str, str] | None = None,
    timeout: float | None = None,
) -> Run:
    """Run ``cmd`` to the end (stdout and stderr together) and measure it.

    Args:
        cmd: the command and its arguments.
        cwd: its working directory.
        env: its environment (default: this process's).
        timeout: seconds after which it is killed; the run then has return code -9.

    Returns:
        Wall seconds, peak memory and the output of the run.
    """
    with tempfile.TemporaryFile() as out:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT)
        sampler = _TreeSampler(proc.pid)
        sampler.start()
        killer = threading.Timer(timeout, proc.kill) if timeout else None
        if killer:
            killer.start()
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - start
        if killer:
            killer.cancel()
        proc.returncode = os.waitstatus_to_exitcode(status)
        sampler.stop()
        out.seek(0)
        output = out.read().decode("utf-8", "replace")
    return Run(
        seconds=seconds,
        cpu_s=usage.ru_utime + usage.ru_stime,
        max_rss_mb=usage.ru_maxrss / 1024,  # KiB on Linux
        tree_pss_mb=sampler.peak_bytes / 2**20,
        returncode=proc.returncode,
        output=output,
    )


class _TreeSampler(threading.Thread):
    """Samples the summed PSS of a process and its descendants until stopped."""

    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True)
        self.pid = pid
        self.peak_bytes = 0
        self._done = threading.Event()

    def run(self) -> None:
        while not self._done.is_set():
            total = sum(_pss_bytes(pid) for pid in _tree(self.pid))
            self.peak_bytes = max(self.peak_bytes, total)
            self._done.wait(SAMPLE_SECONDS)

    def stop(self) -> None:
        self._done.set()
        self.join()


def _tree(pid: int) -> list[int]:
    """``pid`` and its live descendants, from ``/proc/<pid>/task/*/children``."""
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        try:
            tasks = os.listdir(f"/proc/{current}/task")
        except OSError:
            continue
        for task in tasks:
            try:
                with open(f"/proc/{current}/task/{task}/children") as f:
                    todo.extend(int(child) for child in f.read().split())
            except OSError:
                continue
    return found


def _pss_bytes(pid: int) -> int:
    """The proportional set size of ``pid`` (its resident size where PSS is not readable)."""
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                if line.startswith("Pss:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    try:
        with open(f"/proc/{pid}/statm") as f:
            return int(f.read().split()[1]) * _PAGE
    except (OSError, IndexError, ValueError):
        return 0
