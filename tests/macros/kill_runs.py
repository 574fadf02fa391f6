"""Kill real `dbt run`s while their on-run-end hook writes, and report when each died.

Run by tests/macros/test_kill.py as ``python kill_runs.py <project dir> <runs> <seed>``,
with the project's environment (DBT_LINEAGE_PG_SCHEMA ...) set. dbt is imported and the
project parsed once; each run is then a forked child doing a real ``dbt run`` (dbt's own
programmatic entry point, handed the parsed manifest), so a run costs about a second
instead of dbt's start-up time. The child's event callback tells the parent, through a
pipe, the moment the hook first touches a lineage table; the parent sleeps a random delay
and sends SIGKILL or SIGTERM (what a CI cancel sends). The first three runs, after a `dbt seed`
that creates the tables, are not killed: they measure how long the hook's writes take,
which bounds the delays.

Prints one JSON line: {"hook_seconds": ..., "runs": [{"signal": ..., "delay": ...,
"exit": ...}, ...]}.
"""

from __future__ import annotations

import json
import os
import random
import select
import signal
import sys
import time


def _child(project: str, write_fd: int, extra: list[str]) -> None:
    from dbt.cli.main import dbtRunner

    told = []

    def on_event(event) -> None:
        if told:
            return
        sql = getattr(event.data, "sql", "") or ""
        if "lineage_invocations" in sql or "lineage_node_runs" in sql:
            told.append(True)
            os.write(write_fd, b"H")

    args = ["run", "--project-dir", project, "--profiles-dir", project, "--target", "postgres"]
    args += ["--vars", "{dbt_lineage_max_rows_per_insert: 1}", "--log-level", "none", *extra]
    result = dbtRunner(manifest=MANIFEST, callbacks=[on_event]).invoke(args)
    os.write(write_fd, b"D")
    os._exit(0 if result.success else 1)


def _one_run(project: str, delay: float | None, sig: int) -> dict:
    """Forks a run; kills it `delay` seconds after its hook starts (None: let it finish)."""
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_fd)
        try:
            _child(project, write_fd, [])
        finally:
            os._exit(3)
    os.close(write_fd)
    started = None
    finished = None
    while True:
        ready, _, _ = select.select([read_fd], [], [], 120)
        if not ready:
            os.kill(pid, signal.SIGKILL)
            break
        chunk = os.read(read_fd, 16)
        if not chunk:
            break
        if b"H" in chunk and started is None:
            started = time.monotonic()
            if delay is not None:
                time.sleep(delay)
                os.kill(pid, sig)
                break
        if b"D" in chunk:
            finished = time.monotonic()
            break
    os.close(read_fd)
    _, status = os.waitpid(pid, 0)
    return {
        "signal": None if delay is None else signal.Signals(sig).name,
        "delay": delay,
        "hook_seen": started is not None,
        "hook_seconds": None if started is None or finished is None else finished - started,
        "exit": os.waitstatus_to_exitcode(status),
    }


def main() -> None:
    global MANIFEST
    project, runs, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    from dbt.cli.main import dbtRunner

    parsed = dbtRunner().invoke(
        ["parse", "--project-dir", project, "--profiles-dir", project, "--target", "postgres",
         "--log-level", "none"]
    )  # fmt: skip
    if not parsed.success:
        raise SystemExit(f"dbt parse failed: {parsed.exception}")
    MANIFEST = parsed.result
    seeded = dbtRunner(manifest=MANIFEST).invoke(
        ["seed", "--project-dir", project, "--profiles-dir", project, "--target", "postgres",
         "--log-level", "none"]
    )  # fmt: skip
    if not seeded.success:
        raise SystemExit(f"dbt seed failed: {seeded.exception}")
    rng = random.Random(seed)
    # The shortest of three whole hooks bounds the delays (the first run after the seed is
    # the slowest, and a loaded machine makes any one run longer): a kill lands in the hook.
    first = [_one_run(project, None, signal.SIGKILL) for _ in range(3)]
    hook = min(run["hook_seconds"] or 0.5 for run in first)
    report = {"hook_seconds": hook, "first": first, "runs": []}
    for i in range(runs):
        sig = signal.SIGKILL if i % 2 == 0 else signal.SIGTERM
        report["runs"].append(_one_run(project, rng.uniform(0, 0.8 * hook), sig))
    print(json.dumps(report))


MANIFEST = None

if __name__ == "__main__":
    main()
