"""Kill real `dbt run-operation dbt_lineage.archive_history` runs while they move rows, and
check after each kill that no row was lost or duplicated.

Run by tests/macros/test_kill_archive.py as
``python kill_archive.py <project dir> <rounds> <seed> <copies>``, with the project's
environment (DBT_LINEAGE_PG_SCHEMA ...) set, on PostgreSQL. The history: a seed and two
builds, copied `copies` times under new invocation ids (so that the move takes a while),
all older than 90 days, kept as a snapshot in <lineage schema>_snap. Each round restores
the live tables from the snapshot, empties the archive, forks a real run-operation (dbt's
programmatic entry point with the parsed manifest, as kill_runs.py does) and kills it
(SIGKILL or SIGTERM, alternately) just after it sends its k-th statement on the archive
(or begin, commit), k drawn at random among those an unkilled move sends, plus a random
delay of up to 50 ms: so every gap, between two tables and between a table's insert and
its delete, is hit.
Then, per table and invocation, the rows must be all in the live table, all in the
archive, or all in both with the same values, and no table may hold a row the snapshot
does not (no duplicates).

Prints one JSON line: {"statements": ..., "rounds": [{"signal", "after", "delay", "exit",
"violations", "live", "archived", "rerun"}, ...], "first_check": {...}}.
"""

from __future__ import annotations

import json
import os
import random
import select
import signal
import sys
import time

import psycopg2

PG_DSN = "host=127.0.0.1 port=5432 user=postgres dbname=postgres"
TABLES = ("lineage_run_inputs", "lineage_node_runs", "lineage_invocations")
MANIFEST = None


def _dbt_args(project: str, *args: str) -> list[str]:
    return [*args, "--project-dir", project, "--profiles-dir", project, "--target", "postgres",
            "--log-level", "none"]  # fmt: skip


def _child(project: str, archive: str, write_fd: int) -> None:
    from dbt.cli.main import dbtRunner

    def on_event(event) -> None:  # the statements of the move: on the archive, or commit
        sql = (getattr(event.data, "sql", "") or "").rstrip().lower()
        if archive in sql or sql.endswith(("commit", "begin")):
            os.write(write_fd, b"S")

    operation = ["run-operation", "dbt_lineage.archive_history", "--args",
                 json.dumps({"days": 90, "to": archive})]  # fmt: skip
    result = dbtRunner(manifest=MANIFEST, callbacks=[on_event]).invoke(
        _dbt_args(project, *operation)
    )
    os.write(write_fd, b"D")
    os._exit(0 if result.success else 1)


def _messages(read_fd: int, pid: int):
    """The child's messages as they arrive, until it closes the pipe (or stays silent for
    five minutes: then it is killed)."""
    while select.select([read_fd], [], [], 300)[0]:
        chunk = os.read(read_fd, 16)
        if not chunk:
            return
        yield chunk
    os.kill(pid, signal.SIGKILL)


def _one_run(project: str, archive: str, after: int | None, delay: float, sig: int) -> dict:
    """Forks a move; kills it `delay` seconds after its `after`-th statement (None: never)."""
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_fd)
        try:
            _child(project, archive, write_fd)
        finally:
            os._exit(3)
    os.close(write_fd)
    sent = 0
    killed = False
    for chunk in _messages(read_fd, pid):
        sent += chunk.count(b"S")
        if after is not None and sent >= after:
            time.sleep(delay)
            os.kill(pid, sig)
            killed = True
            break
        if b"D" in chunk:
            break
    os.close(read_fd)
    _, status = os.waitpid(pid, 0)
    return {
        "signal": signal.Signals(sig).name if killed else None,
        "after": after,
        "delay": delay,
        "statements": sent,
        "exit": os.waitstatus_to_exitcode(status),
    }


def _columns(cur, schema: str, table: str) -> list[str]:
    cur.execute(
        "select column_name from information_schema.columns where table_schema = %s "
        "and table_name = %s order by ordinal_position",
        (schema, table),
    )
    return [r[0] for r in cur.fetchall()]


def _make_history(cur, live: str, snap: str, copies: int) -> None:
    """The real invocations copied `copies` times, all aged past 90 days; the snapshot."""
    for table in TABLES:
        names = _columns(cur, live, table)
        picked = ", ".join(
            "invocation_id || '-' || g" if n == "invocation_id" else n for n in names
        )
        cur.execute(
            f"insert into {live}.{table} ({', '.join(names)}) select {picked} "
            f"from {live}.{table} cross join generate_series(1, {copies}) as g"
        )
    cur.execute(
        f"update {live}.lineage_invocations set started_at = started_at - interval '100 days'"
    )
    cur.execute(f"create schema {snap}")
    for table in TABLES:
        cur.execute(f"create table {snap}.{table} as select * from {live}.{table}")


def _restore(cur, live: str, archive: str, snap: str) -> None:
    for table in TABLES:
        cur.execute(f"truncate {live}.{table}")
        cur.execute(f"insert into {live}.{table} select * from {snap}.{table}")
        cur.execute(f"truncate {archive}.{table}")


def _check(cur, live: str, archive: str, snap: str) -> dict:
    """Per table: rows neither place holds, rows the snapshot lacks, the rows in each."""
    report = {"violations": {}, "live": {}, "archived": {}}
    for table in TABLES:
        cols = ", ".join(_columns(cur, snap, table))
        problems = []
        for place in (live, archive):  # every row is one of the snapshot's, at most once
            cur.execute(
                f"select count(*) from (select {cols} from {place}.{table} "
                f"except all select {cols} from {snap}.{table}) as extra"
            )
            if cur.fetchone()[0]:
                problems.append(f"rows in {place} that the snapshot does not hold once")
        cur.execute(
            f"""select count(*) from
              (select invocation_id, count(*) as n from {snap}.{table} group by 1) as s
              left join (select invocation_id, count(*) as n from {live}.{table} group by 1) as l
                using (invocation_id)
              left join (select invocation_id, count(*) as n from {archive}.{table} group by 1)
                as a using (invocation_id)
            where coalesce(l.n, 0) not in (0, s.n) or coalesce(a.n, 0) not in (0, s.n)
               or coalesce(l.n, 0) + coalesce(a.n, 0) = 0"""
        )
        broken = cur.fetchone()[0]
        if broken:
            problems.append(f"{broken} invocations split or lost")
        if problems:
            report["violations"][table] = problems
        for key, place in (("live", live), ("archived", archive)):
            cur.execute(f"select count(*) from {place}.{table}")
            report[key][table] = cur.fetchone()[0]
    return report


def main() -> None:
    global MANIFEST
    project, rounds, seed, copies = (
        sys.argv[1],
        int(sys.argv[2]),
        int(sys.argv[3]),
        int(sys.argv[4]),
    )
    live = os.environ["DBT_LINEAGE_PG_SCHEMA"] + "_lineage"
    archive, snap = live + "_archive", live + "_snap"
    from dbt.cli.main import dbtRunner

    parsed = dbtRunner().invoke(_dbt_args(project, "parse"))
    if not parsed.success:
        raise SystemExit(f"dbt parse failed: {parsed.exception}")
    MANIFEST = parsed.result
    for command in ("seed", "build", "build"):
        done = dbtRunner(manifest=MANIFEST).invoke(_dbt_args(project, command))
        if not done.success:
            raise SystemExit(f"dbt {command} failed: {done.exception}")
    con = psycopg2.connect(PG_DSN)
    con.autocommit = True
    cur = con.cursor()
    _make_history(cur, live, snap, copies)
    # an unkilled move: creates the archive tables and counts the statements of a move
    first = _one_run(project, archive, None, 0.0, signal.SIGKILL)
    report = {"statements": first["statements"], "first": first, "rounds": []}
    report["first_check"] = _check(cur, live, archive, snap)
    rng = random.Random(seed)
    for i in range(rounds):
        _restore(cur, live, archive, snap)
        sig = signal.SIGKILL if i % 2 == 0 else signal.SIGTERM
        after = rng.randint(1, first["statements"])
        run = _one_run(project, archive, after, rng.uniform(0, 0.05), sig)
        report["rounds"].append({**run, **_check(cur, live, archive, snap)})
        # the rerun finishes the move without duplicates
        rerun = _one_run(project, archive, None, 0.0, signal.SIGKILL)
        report["rounds"][-1]["rerun"] = {"exit": rerun["exit"], **_check(cur, live, archive, snap)}
    print(json.dumps(report))


if __name__ == "__main__":
    main()
