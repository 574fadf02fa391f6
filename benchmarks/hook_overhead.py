"""Time the dbt_lineage on-run-end hook adds to a run of 1,000 models, on DuckDB and PostgreSQL.

Builds a throwaway dbt project of N trivial view models (chains of ten, so each node run has an
input edge), then runs `dbt run` several times with the hook enabled and with it disabled
(var dbt_lineage_enabled). Two figures per warehouse:

- hook: the on-run-end hook's own time from run_results.json (compile + execute: record_run does
  its work while the hook renders), median over the enabled runs after the first (the first one
  also creates the tables);
- run: median of dbt's own `elapsed_time` (run_results.json: the run phase, hooks included,
  parsing excluded) enabled minus disabled; and the wall-clock of the whole command.

Both variants pass --vars explicitly, so that they parse alike.

Usage: python benchmarks/hook_overhead.py [--models 1000] [--runs 3] [--targets duckdb,postgres]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchkit.docs_figures import docs_figures

REPO = Path(__file__).resolve().parents[1]
DBT = str(Path(sys.executable).with_name("dbt"))

PROFILES = """
bench:
  target: duckdb
  outputs:
    duckdb:
      type: duckdb
      path: "{duckdb_path}"
      schema: bench
      threads: 4
    postgres:
      type: postgres
      host: 127.0.0.1
      port: 5432
      user: postgres
      password: ""
      dbname: postgres
      schema: "{pg_schema}"
      threads: 4
"""


def write_project(root: Path, models: int, pg_schema: str) -> None:
    (root / "models").mkdir(parents=True)
    (root / "dbt_project.yml").write_text(
        "name: bench\nversion: '1.0'\nconfig-version: 2\nprofile: bench\n"
        "models:\n  bench:\n    +materialized: view\n"
        'on-run-end: ["{{ dbt_lineage.record_run(results) }}"]\n'
    )
    (root / "packages.yml").write_text(f"packages:\n  - local: {REPO}\n")
    (root / "profiles.yml").write_text(
        PROFILES.format(duckdb_path=root / "warehouse.duckdb", pg_schema=pg_schema)
    )
    for i in range(models):
        body = (
            f"select {i} as id"
            if i % 10 == 0
            else f"select id + 1 as id from {{{{ ref('m_{i - 1:04d}') }}}}"
        )
        (root / "models" / f"m_{i:04d}.sql").write_text(body + "\n")


def dbt(root: Path, *args: str) -> float:
    env = {**os.environ, "DBT_SEND_ANONYMOUS_USAGE_STATS": "false"}
    cmd = [DBT, *args, "--profiles-dir", str(root), "--project-dir", str(root)]
    started = time.perf_counter()
    proc = subprocess.run(cmd, cwd=root, env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - started
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}")
    return elapsed


def hook_seconds(root: Path) -> float:
    results = json.loads((root / "target" / "run_results.json").read_text())["results"]
    return sum(r["execution_time"] for r in results if "on-run-end" in r["unique_id"])


def elapsed_seconds(root: Path) -> float:
    return json.loads((root / "target" / "run_results.json").read_text())["elapsed_time"]


def bench(target: str, models: int, runs: int) -> dict:
    pg_schema = f"bench_{os.getpid()}"
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "bench"
        write_project(root, models, pg_schema)
        dbt(root, "deps")
        dbt(root, "parse")
        on_wall, off_wall, hook, on_run, off_run = [], [], [], [], []
        first_hook = None
        for i in range(runs + 1):
            wall = dbt(root, "run", "--target", target, "--vars", "{dbt_lineage_enabled: true}")
            if i == 0:
                first_hook = hook_seconds(root)  # the first run also creates the tables
            else:
                on_wall.append(wall)
                on_run.append(elapsed_seconds(root))
                hook.append(hook_seconds(root))
            wall = dbt(root, "run", "--target", target, "--vars", "{dbt_lineage_enabled: false}")
            if i > 0:
                off_wall.append(wall)
                off_run.append(elapsed_seconds(root))
        if target == "postgres":
            import psycopg2

            con = psycopg2.connect("host=127.0.0.1 user=postgres dbname=postgres")
            con.autocommit = True
            with con.cursor() as cur:
                cur.execute(f"drop schema if exists {pg_schema} cascade")
                cur.execute(f"drop schema if exists {pg_schema}_lineage cascade")
            con.close()
    return {
        "target": target,
        "models": models,
        "runs": runs,
        "hook_median_s": round(statistics.median(hook), 3),
        "hook_first_run_s": round(first_hook, 3),
        "wall_enabled_median_s": round(statistics.median(on_wall), 2),
        "wall_disabled_median_s": round(statistics.median(off_wall), 2),
        "wall_overhead_s": round(statistics.median(on_wall) - statistics.median(off_wall), 2),
        "run_enabled_median_s": round(statistics.median(on_run), 2),
        "run_disabled_median_s": round(statistics.median(off_run), 2),
        "run_overhead_s": round(statistics.median(on_run) - statistics.median(off_run), 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--targets", default="duckdb,postgres")
    args = parser.parse_args()
    for target in args.targets.split(","):
        figures = bench(target, args.models, args.runs)
        print(json.dumps(figures))
        print(
            f"{target}: hook adds {figures['hook_median_s']:.3f} s for {args.models} results "
            f"(median of {args.runs}; first run {figures['hook_first_run_s']:.3f} s); "
            f"run phase {figures['run_enabled_median_s']:.2f} s enabled vs "
            f"{figures['run_disabled_median_s']:.2f} s disabled; "
            f"wall {figures['wall_enabled_median_s']:.2f} s vs "
            f"{figures['wall_disabled_median_s']:.2f} s",
            flush=True,
        )


if __name__ == "__main__":
    raise SystemExit(docs_figures("hook_overhead", main))
