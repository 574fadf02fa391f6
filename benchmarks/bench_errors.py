"""Benchmark the error paths of the query commands beside a correct question, end to end.

A typo must answer as fast as a question: every error (a column the model lacks, a node
that does not exist, a node where a column is wanted, an empty name, a name that matches
nothing close, and the same on lineage.json built from an earlier manifest) is run as a
whole process, from process start to its one-line error, with the answer to a correct
question beside them. Prints each one's median wall seconds, CPU seconds and peak RSS, and
checks the bounds of issue 21: at most 1 s and 100 MB each (exit 1 when one is over).

Generates the synthetic project (unless ``DIR/target/manifest.json`` is there) and builds
its lineage (unless ``lineage.json`` and its index are there), as ``bench_impact.py`` does.

Usage::

    python benchmarks/bench_errors.py [--models 10000] [--out DIR] [--repeat 3] [--docs]

``--docs`` also writes the table into docs/performance.md (``benchkit.docs_figures``).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import sqlite3
import typing as t
from pathlib import Path

from benchkit.dbt_lineage_option import dbt_lineage_option
from benchkit.docs_figures import docs_figures
from benchkit.engine import engine
from benchkit.indexed_project import indexed_project
from benchkit.process import Run, run_measured
from benchkit.stats import median

HERE = Path(__file__).resolve().parent
BUDGET_S = 1.0
BUDGET_MB = 100.0


def _parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=int, default=10000, help="models in the project")
    parser.add_argument("--out", default=None, help="project directory (default: out/impact_N)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each command (median)")
    parser.add_argument("--seed", type=int, default=0, help="generator seed")
    dbt_lineage_option(parser)
    return parser.parse_args(argv)


def _names(index: Path) -> tuple[str, str]:
    """A model with edges out of one of its columns (``model``, ``model.column``)."""
    with sqlite3.connect(index) as connection:
        node_id, column = connection.execute(
            "SELECT n.node_id, e.source_column FROM edges e JOIN nodes n ON n.id = e.source "
            "WHERE e.source_column IS NOT NULL AND n.node_id LIKE 'model.%' "
            "ORDER BY e.rowid LIMIT 1"
        ).fetchone()
    connection.close()
    model = node_id.split(".", 2)[2]
    return model, f"{model}.{column}"


def _cases(model: str, column: str) -> list[tuple[str, list[str], bool]]:
    """(label, command, whether it is an error) in the order printed."""
    typo = model[:-2] + model[-1] + model[-2]  # two letters swapped: "did you mean" finds it
    return [
        ("a correct question", ["impact", column], False),
        ("a missing column", ["impact", f"{model}.missing_column"], True),
        ("a typo in the model's name", ["impact", f"{typo}.{column.rpartition('.')[2]}"], True),
        ("a node nothing is named like", ["impact", "zzzz_no_such_node"], True),
        ("a node where a column is wanted", ["upstream", model], True),
        ("an empty name", ["downstream", ""], True),
        ("a missing column, --no-index", ["impact", f"{model}.missing_column", "--no-index"], True),
    ]


def _run(args: argparse.Namespace, project: Path, query: list[str], error: bool) -> list[Run]:
    cmd = [args.dbt_lineage, *query, "--project-dir", str(project)]
    runs = []
    for _ in range(args.repeat):
        run = run_measured(cmd, cwd=project)
        if (run.returncode != 0) != error:
            raise RuntimeError(f"{' '.join(cmd)} exited {run.returncode}:\n{run.output[-600:]}")
        runs.append(run)
    return runs


def _table(
    args: argparse.Namespace, project: Path, cases: list[tuple[str, list[str], bool]]
) -> list[tuple[str, float, float, bool]]:
    """Print one row per case; (label, seconds, MB, bounded) for each."""
    rows = []
    for label, query, error in cases:
        runs = _run(args, project, query, error)
        wall, rss = median([r.seconds for r in runs]), max(r.max_rss_mb for r in runs)
        bounded = not error or query[-1] == "--no-index" or (wall <= BUDGET_S and rss <= BUDGET_MB)
        said = runs[0].output.strip().splitlines()[-1] if runs[0].output.strip() else ""
        print(
            f"{label:<36} {wall:>7.3f} {median([r.cpu_s for r in runs]):>6.2f} {rss:>7.0f}  "
            f"{'ok' if bounded else 'OVER':<4} {said[:90]}",
            flush=True,
        )
        rows.append((label, wall, rss, bounded))
    return rows


@contextlib.contextmanager
def _stale(project: Path) -> t.Iterator[None]:
    """The project with a manifest changed since lineage.json (one byte more), restored."""
    manifest = project / "target" / "manifest.json"
    kept = manifest.with_name("manifest.json.kept")
    shutil.copy2(manifest, kept)
    with manifest.open("ab") as stream:
        stream.write(b"\n")
    try:
        yield
    finally:
        os.replace(kept, manifest)


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print its table."""
    args = _parse(argv)
    project = Path(args.out or HERE / "out" / f"impact_{args.models}")
    target = indexed_project(project, args.models, seed=args.seed, dbt_lineage=args.dbt_lineage)
    model, column = _names(target / "lineage.index.sqlite")
    size = (target / "manifest.json").stat().st_size / 2**20
    print(
        f"{args.models} models (manifest {size:.0f} MB); SQL engine: {engine(args.dbt_lineage)}; "
        f"cpus: {os.cpu_count()}, load average: {' '.join(f'{x:.1f}' for x in os.getloadavg())}"
    )
    print(f"{'command':<36} {'wall s':>7} {'cpu':>6} {'RSS MB':>7}  {'':<4} what it said")
    cases = _cases(model, column)
    rows = _table(args, project, cases)
    print("\nthe same with a manifest changed since lineage.json was built (stale):")
    with _stale(project):
        rows += _table(args, project, [(f"{label} (stale)", *rest) for label, *rest in cases[:3]])
    over = [label for label, _, _, bounded in rows if not bounded]
    print(
        f"\nmedian wall seconds of {args.repeat} runs from process start to answer; cpu: "
        f"user+sys; RSS: peak. Bounds for an error from the index: {BUDGET_S:.0f} s and "
        f"{BUDGET_MB:.0f} MB: {'met' if not over else 'MISSED by ' + ', '.join(over)}"
    )
    return 1 if over else 0


if __name__ == "__main__":
    raise SystemExit(docs_figures("bench_errors", main))
