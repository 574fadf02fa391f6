"""Benchmark ``dbt-lineage impact`` end to end, from process start to answer.

Generates the synthetic project (unless ``DIR/target/manifest.json`` is there), builds its
lineage (unless ``lineage.json`` and its index are there), then runs each query as a whole
process, from the query index and from lineage.json (``--no-index``), and prints the median
wall seconds, CPU seconds and peak RSS of each, whether both answers are the same bytes, and
the 1 s budget of issue 7 (exit 1 over it, from the index).

Usage::

    python benchmarks/bench_impact.py [--models 10000] [--out DIR] [--repeat 5]
"""

from __future__ import annotations

import argparse
import os
import sqlite3
from pathlib import Path

from benchkit.dbt_lineage_option import dbt_lineage_option
from benchkit.docs_figures import docs_figures
from benchkit.indexed_project import indexed_project
from benchkit.process import Run, run_measured
from benchkit.stats import median

HERE = Path(__file__).resolve().parent
BUDGET_S = 1.0


def _parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=int, default=10000, help="models in the project")
    parser.add_argument("--out", default=None, help="project directory (default: out/impact_N)")
    parser.add_argument("--repeat", type=int, default=5, help="runs of each query (median)")
    parser.add_argument("--json-repeat", type=int, default=3, help="runs with --no-index")
    parser.add_argument("--seed", type=int, default=0, help="generator seed")
    dbt_lineage_option(parser)
    return parser.parse_args(argv)


def _queries(index: Path) -> list[list[str]]:
    """A hub column (the most edges out), a leaf staging column and the hub's whole model:
    read from the index, since the generator's names follow its seed."""
    with sqlite3.connect(index) as connection:
        hub_node, hub_column = connection.execute(
            "SELECT n.node_id, e.source_column FROM edges e JOIN nodes n ON n.id = e.source "
            "WHERE e.source_column IS NOT NULL AND n.node_id LIKE 'model.%' "
            "GROUP BY e.source, e.source_column ORDER BY count(*) DESC, 1, 2 LIMIT 1"
        ).fetchone()
        (source_node,) = connection.execute(
            "SELECT node_id FROM nodes WHERE node_id LIKE 'source.%' ORDER BY id LIMIT 1"
        ).fetchone()
    connection.close()
    hub = f"{hub_node.split('.', 2)[2]}.{hub_column}"
    return [
        ["impact", hub],
        ["impact", hub, "--include-indirect", "--format", "json"],
        ["impact", "source:" + source_node.split(".", 2)[2]],
        ["upstream", hub],
    ]


def _run(args: argparse.Namespace, project: Path, query: list[str], repeat: int) -> list[Run]:
    cmd = [args.dbt_lineage, *query, "--project-dir", str(project)]
    runs = []
    for _ in range(repeat):
        run = run_measured(cmd, cwd=project)
        if run.returncode != 0:
            raise RuntimeError(f"{' '.join(cmd)} exited {run.returncode}:\n{run.output[-600:]}")
        runs.append(run)
    return runs


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print its table."""
    args = _parse(argv)
    project = Path(args.out or HERE / "out" / f"impact_{args.models}")
    target = indexed_project(project, args.models, seed=args.seed, dbt_lineage=args.dbt_lineage)
    size = (target / "lineage.json").stat().st_size / 2**20
    index_size = (target / "lineage.index.sqlite").stat().st_size / 2**20
    print(
        f"{args.models} models; lineage.json {size:.0f} MB, index {index_size:.0f} MB; "
        f"cpus: {os.cpu_count()}, load average: "
        f"{' '.join(f'{x:.1f}' for x in os.getloadavg())}"
    )
    print(
        f"{'query':<58} {'index s':>8} {'cpu':>6} {'RSS MB':>7}   {'json s':>7} {'cpu':>6} "
        f"{'RSS MB':>7}  same"
    )
    worst = 0.0
    for query in _queries(target / "lineage.index.sqlite"):
        fast = _run(args, project, query, args.repeat)
        slow = _run(args, project, [*query, "--no-index"], args.json_repeat)
        wall = median([r.seconds for r in fast])
        worst = max(worst, wall)
        same = "yes" if fast[0].output == slow[0].output else "NO"
        print(
            f"{' '.join(query)[:58]:<58} {wall:>8.3f} {median([r.cpu_s for r in fast]):>6.2f} "
            f"{max(r.max_rss_mb for r in fast):>7.0f}   "
            f"{median([r.seconds for r in slow]):>7.2f} {median([r.cpu_s for r in slow]):>6.2f} "
            f"{max(r.max_rss_mb for r in slow):>7.0f}  {same}",
            flush=True,
        )
    print(
        f"\nmedian wall seconds from process start to answer ({args.repeat} runs from the "
        f"index, {args.json_repeat} with --no-index); cpu: user+sys; RSS: peak. "
        f"Budget {BUDGET_S:.0f} s from the index: {'met' if worst <= BUDGET_S else 'MISSED'}"
    )
    return 0 if worst <= BUDGET_S else 1


if __name__ == "__main__":
    raise SystemExit(docs_figures("bench_impact", main))
