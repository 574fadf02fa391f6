"""Fuzz ``column_lineage`` with many generated queries and print what it said.

The queries come from the same grammar as ``tests/sql/test_fuzz_column_lineage.py``
(``tests/sql/sql_grammar.py``), drawn here from a seeded ``random.Random`` (input ``i``
uses seed ``seed + i``, so any input can be generated again alone). Prints:

- how many inputs, how many were damaged on purpose, and inputs per second;
- SqlError (refused: SQL that does not parse) for damaged and for grammar SQL;
- diagnostics: unresolved columns by reason, and notes;
- exceptions escaping other than SqlError (must be 0), each with its seed;
- answers a correct engine would not give (the grammar's expectations), each with its seed;
- warnings sqlglot logged (a user would see them).

Usage::

    python benchmarks/fuzz.py [--count 10000] [--seed 0] [--show 3]
    python benchmarks/fuzz.py --execute [--count 5000] [--seed 0] [--show 3] [--jobs 2]
        [--findings FILE]

Exits 1 when an exception escaped or an answer was wrong.

With ``--execute`` it checks the answers by running them instead (``benchkit/oracle.py``):
grammar inputs from ``--seed`` on until ``--count`` of them have been executed in DuckDB,
then every case of ``tests/sql/cases`` DuckDB can run; it prints the agreements and the
disagreements by check, by the step of the query that showed an edge the result did not
(``benchkit/oracle_steps.py``) and by construct, and exits 1 when an output moved with no
edge. ``--findings FILE`` writes every disagreement there, a JSON object a line.
"""

from __future__ import annotations

import argparse
import collections
import dataclasses
import json
import logging
import multiprocessing
import os
import random
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

from benchkit.oracle_inputs import Tally, case_inputs, judge_seeds, judged_grammar  # noqa: E402
from tests.sql.sql_grammar import RandomChooser, generate, violations  # noqa: E402

from dbt_lineage.errors import SqlError  # noqa: E402
from dbt_lineage.sql.column_lineage import column_lineage  # noqa: E402


class _Logged(logging.Handler):
    """Warnings logged while one input runs, with that input's seed."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.seed = 0
        self.records: list[tuple[int, str]] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append((self.seed, " ".join(record.getMessage().split())))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--show", type=int, default=3, help="failing inputs to print")
    parser.add_argument("--execute", action="store_true", help="check answers by running them")
    parser.add_argument("--jobs", type=int, default=1, help="with --execute: processes")
    parser.add_argument("--findings", type=Path, help="with --execute: disagreements, JSON lines")
    args = parser.parse_args()
    if args.execute:
        return execute(args.count, args.seed, args.show, args.jobs, args.findings)

    logged = _Logged()
    sqlglot_logger = logging.getLogger("sqlglot")
    sqlglot_logger.addHandler(logged)
    sqlglot_logger.propagate = False

    reasons: collections.Counter[str] = collections.Counter()
    refused = collections.Counter[str]()
    escapes: list[tuple[int, str]] = []
    wrong: list[tuple[int, str]] = []
    notes = mutated = columns = 0
    dialects: collections.Counter[str] = collections.Counter()
    spent = 0.0
    cpu = time.process_time()
    for number in range(args.count):
        seed = args.seed + number
        case = generate(RandomChooser(random.Random(seed)))
        dialects[case.dialect] += 1
        mutated += case.mutated
        logged.seed = seed
        started = time.perf_counter()
        try:
            lineage = column_lineage(case.sql, dialect=case.dialect, schema=case.schema)
        except SqlError:
            spent += time.perf_counter() - started
            refused["damaged" if case.mutated else "grammar"] += 1
            continue
        except Exception as error:  # noqa: BLE001 - counting escapes is the point
            spent += time.perf_counter() - started
            escapes.append((seed, f"{type(error).__name__}: {error}"))
            continue
        spent += time.perf_counter() - started
        columns += len(lineage.columns)
        notes += len(lineage.notes)
        for reason in lineage.unresolved.values():
            reasons[reason.split(":", 1)[0]] += 1
        wrong += [(seed, problem) for problem in violations(case, lineage)]

    print(f"inputs: {args.count} (seeds {args.seed}..{args.seed + args.count - 1}), ", end="")
    print(f"{mutated} damaged on purpose; dialects: {dict(sorted(dialects.items()))}")
    print(f"output columns: {columns}")
    print(f"SqlError: {refused['damaged']} damaged inputs, {refused['grammar']} grammar inputs")
    print(f"diagnostics: {sum(reasons.values())} unresolved, {notes} notes")
    for reason, count in reasons.most_common():
        print(f"  {reason}: {count}")
    print(f"escaping exceptions (not SqlError): {len(escapes)}")
    for seed, text in escapes[: args.show]:
        print(f"  seed {seed}: {text[:200]}")
    print(f"wrong answers: {len(wrong)}")
    for seed, text in wrong[: args.show]:
        print(f"  seed {seed}: {text[:200]}")
    print(f"sqlglot warnings: {len(logged.records)}")
    for seed, text in logged.records[: args.show]:
        print(f"  seed {seed}: {text[:200]}")
    cpu = time.process_time() - cpu
    print(
        f"time: {spent:.1f} s wall in column_lineage ({args.count / spent:.0f} inputs/s), "
        f"{cpu:.1f} s CPU with generation ({args.count / cpu:.0f} inputs/s)"
    )
    return 1 if escapes or wrong else 0


def execute(count: int, seed: int, show: int, jobs: int, findings: Path | None = None) -> int:
    """Run the data-file cases, then grammar queries until ``count`` have executed, through
    the oracle, on ``jobs`` processes (input ``seed + i`` judged with seed ``seed + i``)."""
    started, cpu = time.perf_counter(), time.process_time()
    tally = Tally()
    for item in case_inputs(REPO / "tests" / "sql" / "cases"):
        tally.add(item, judge_seeds(item, (0, 1, 2)))
    cases = tally.executed
    number = seed
    with multiprocessing.Pool(jobs) as pool:
        for judged in pool.imap(judged_grammar, range(seed, seed + 4 * count + 100), 4):
            number += 1
            if judged is not None:
                tally.add(*judged)
            if judged is not None and not judged[1].skipped and tally.executed % 500 == 0:
                print(f"-- {tally.executed - cases} executed ({number - seed} inputs)")
                print("\n".join(tally.lines(show)), flush=True)
            if tally.executed - cases >= count:
                pool.terminate()
                break
    print(f"grammar seeds {seed}..{number - 1}: {tally.executed - cases} executed; "
          f"data-file cases: {cases} executed")  # fmt: skip
    print("\n".join(tally.lines(show)))
    if findings is not None:
        with findings.open("w") as out:
            for name, sql, finding in tally.examples:
                out.write(json.dumps({"input": name, **dataclasses.asdict(finding), "sql": sql}))
                out.write("\n")
    wall, cpu = time.perf_counter() - started, time.process_time() - cpu
    load = " ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"time: {wall:.0f} s wall, {cpu:.0f} s CPU in this process; load average {load}; "
          f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")  # fmt: skip
    return 1 if tally.disagreements["unrelated"] or tally.disagreements["outputs"] else 0


if __name__ == "__main__":
    sys.exit(main())
