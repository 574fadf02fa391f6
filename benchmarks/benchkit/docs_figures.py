"""Benchmarks write their figures into the documentation, with the machine and the date.

A script runs its ``main`` through ``docs_figures(name, main)``: what it prints goes to the
terminal as before and, given ``--docs``, also into ``docs/performance.md`` (or the page the
script names: ``bench_diff`` writes into ``docs/diff.md``) between the markers
``<!-- benchmark NAME: start -->`` and ``<!-- benchmark NAME: end -->``, under a line
saying when, on what machine and at what load it was measured, and by which command.
So the page's figures are the ones a script printed, never typed by hand.
"""

from __future__ import annotations

import contextlib
import datetime
import io
import os
import platform
import re
import shlex
import sys
import typing as t
from pathlib import Path

PAGE = Path(__file__).resolve().parents[2] / "docs" / "performance.md"


def docs_figures(name: str, main: t.Callable[[], int | None], page: Path = PAGE) -> int:
    """Module entry: run ``main`` (which parses ``sys.argv``) and return its exit code; with
    ``--docs`` among the arguments (taken out before ``main`` sees them), put what it
    printed into ``page`` between ``name``'s markers, which the page must have: the page
    decides where figures go. A script that exits non-zero (a figure over its budget) still
    measured: its figures are written with its exit code; one that raised writes nothing."""
    if "--docs" not in sys.argv[1:]:
        return main() or 0
    sys.argv = [sys.argv[0], *(arg for arg in sys.argv[1:] if arg != "--docs")]
    start = _machine()
    captured = io.StringIO()
    with contextlib.redirect_stdout(_Tee(sys.stdout, captured)):
        code = main() or 0
    replace_block(page, name, _block(start, captured.getvalue(), code))
    print(f"Wrote these figures into {page}", file=sys.stderr)
    return code


def _block(start: dict[str, str], printed: str, code: int) -> str:
    exited = f" It exited with code {code} (a figure over its budget)." if code else ""
    return (
        f"Measured {start['when']} by `{start['command']} --docs` on {start['machine']}; "
        f"load average {start['load']} at the start, {_machine()['load']} at the end.{exited}"
        f"\n\n```text\n{printed.rstrip()}\n```\n"
    )


def replace_block(page: Path, name: str, block: str) -> None:
    """Put ``block`` between ``name``'s markers in ``page``."""
    begin, end = f"<!-- benchmark {name}: start -->", f"<!-- benchmark {name}: end -->"
    text = page.read_text()
    pattern = re.compile(re.escape(begin) + r"\n.*?" + re.escape(end), re.S)
    if not pattern.search(text):
        raise SystemExit(f"{page} has no markers for {name}: add {begin} and {end} to it")
    page.write_text(pattern.sub(lambda _: f"{begin}\n{block}{end}", text, count=1))


def _machine() -> dict[str, str]:
    try:
        load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
    except OSError:
        load = "unknown"
    memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    return {
        "when": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "command": "python " + shlex.join([Path(sys.argv[0]).name, *sys.argv[1:]]),
        "machine": f"{os.cpu_count()} cores, {memory:.0f} GiB, {_cpu()}, "
        f"{platform.system()} {platform.machine()}, Python {platform.python_version()}",
        "load": load,
    }


def _cpu() -> str:
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return " ".join(line.split(":", 1)[1].split())
    return platform.processor() or "unknown CPU"


class _Tee(io.TextIOBase):
    def __init__(self, *streams: t.TextIO) -> None:
        self._streams = streams

    def write(self, text: str) -> int:
        for stream in self._streams:
            stream.write(text)
        return len(text)

    def flush(self) -> None:
        for stream in self._streams:
            stream.flush()
