"""Benchmark the Python API in process, from the query index: ``dbt_lineage.load`` and
``Lineage.impact`` of a column, at each size; ``to_networkx()`` at the largest.

For each size, generates the synthetic project (unless ``DIR/target/manifest.json`` is
there) and builds its lineage with ``dbt-lineage build`` as a process (unless lineage.json
and its index are there). Then, in this process:

- ``load``: ``dbt_lineage.load(target)`` again and again; the first call (which imports the
  API's modules) is shown apart;
- ``impact``: the impact of each of ``--queries`` columns drawn at random (seeded) from
  the columns that feed another, named as users type them (``model.pkg.name.column``),
  each on a freshly loaded lineage (nothing of it read yet: what a script that asks one
  question pays) and again all on one lineage (a notebook or a service asking many);
  ``to_dict()`` (descriptions looked up, the CLI's JSON) timed apart;
- ``to_networkx()`` of the largest size: seconds to read lineage.json, seconds to convert,
  and the memory the MultiDiGraph holds (tracemalloc, in a second pass).

Prints medians and 99th percentiles of wall time and of this process's CPU time against the
budgets (load <= 50 ms; impact <= 10 ms median and <= 100 ms p99), with the machine's load
average: on a shared machine a call that needs more than a time slice of CPU waits for the
others, so its wall time grows with the load while its CPU time does not.

Usage::

    python benchmarks/bench_api.py [--sizes 1000,10000] [--queries 300] [--out DIR]
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import sqlite3
import time
import tracemalloc
from pathlib import Path

from benchkit.dbt_lineage_option import dbt_lineage_option
from benchkit.process import run_measured
from benchkit.stats import median, percentile
from synth_dbt import generate_project

HERE = Path(__file__).resolve().parent
LOAD_BUDGET_MS = 50.0
IMPACT_MEDIAN_MS = 10.0
IMPACT_P99_MS = 100.0


def _parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000", help="models, comma-separated")
    parser.add_argument("--out", default=None, help="projects under here (default: out/)")
    parser.add_argument("--queries", type=int, default=300, help="columns asked about")
    parser.add_argument("--loads", type=int, default=50, help="loads timed")
    parser.add_argument("--seed", type=int, default=0, help="generator and sampling seed")
    dbt_lineage_option(parser)
    return parser.parse_args(argv)


def _project(args: argparse.Namespace, models: int) -> Path:
    base = Path(args.out) if args.out else HERE / "out"
    project = base / f"impact_{models}"  # shared with bench_impact.py: same seed, same bytes
    target = project / "target"
    if not (target / "manifest.json").is_file():
        generate_project(models, project, seed=args.seed, with_catalog=True)
    if not (target / "lineage.json").is_file() or not (target / "lineage.index.sqlite").is_file():
        built = run_measured([args.dbt_lineage, "build", "--project-dir", str(project)])
        if built.returncode != 0:
            raise RuntimeError(built.output[-600:])
        print(f"built {models} models' lineage.json and its index in {built.seconds:.1f} s")
    return project


def _columns(index: Path, count: int, seed: int) -> list[str]:
    """``count`` columns that feed another, drawn at random, as users type them."""
    with sqlite3.connect(index) as connection:
        rows = connection.execute(
            "SELECT DISTINCT n.node_id, e.source_column FROM edges e "
            "JOIN nodes n ON n.id = e.source WHERE e.source_column IS NOT NULL ORDER BY 1, 2"
        ).fetchall()
    connection.close()
    chosen = random.Random(seed).sample(rows, min(count, len(rows)))
    return [f"{node_id}.{column}" for node_id, column in chosen]


class _Timer:
    """Wall and CPU seconds of each timed call."""

    def __init__(self) -> None:
        self.wall: list[float] = []
        self.cpu: list[float] = []

    def __enter__(self) -> None:
        self._started = (time.perf_counter(), time.process_time())

    def __exit__(self, *exc: object) -> None:
        self.wall.append(time.perf_counter() - self._started[0])
        self.cpu.append(time.process_time() - self._started[1])

    def met(self, median_ms: float, p99_ms: float | None = None) -> tuple[bool, bool]:
        """Whether the wall and the CPU figures are within the budgets."""
        return tuple(  # type: ignore[return-value]
            1000 * median(values) <= median_ms
            and (p99_ms is None or 1000 * percentile(values, 99) <= p99_ms)
            for values in (self.wall, self.cpu)
        )

    def line(self, label: str, met: tuple[bool, bool] | None = None) -> str:
        wall, cpu = self.wall, self.cpu
        text = (
            f"  {label:<30} median {1000 * median(wall):7.2f} ms  p99 "
            f"{1000 * percentile(wall, 99):7.2f} ms  max {1000 * max(wall):7.2f} ms   cpu: "
            f"median {1000 * median(cpu):6.2f} ms  p99 {1000 * percentile(cpu, 99):6.2f} ms"
        )
        if met is not None:
            text += f"  [wall {'met' if met[0] else 'MISSED'}, cpu {'met' if met[1] else 'MISSED'}]"
        return text


def _size(args: argparse.Namespace, models: int) -> bool:
    import dbt_lineage

    project = _project(args, models)
    target = project / "target"
    first = time.perf_counter()
    lineage = dbt_lineage.load(target)
    first = time.perf_counter() - first
    assert lineage.from_index, "the index is not current"
    loads = _Timer()
    for _ in range(args.loads):
        with loads:
            dbt_lineage.load(target)
    columns = _columns(target / "lineage.index.sqlite", args.queries, args.seed)
    cold, reached = _Timer(), []
    for name in columns:
        fresh = dbt_lineage.load(target)
        with cold:
            result = fresh.impact(name)
        reached.append(len(result.columns))
    warm, to_dict = _Timer(), _Timer()
    for name in columns:
        with warm:
            result = lineage.impact(name)
        with to_dict:
            result.to_dict()
    load_ok = loads.met(LOAD_BUDGET_MS)
    impact_ok = cold.met(IMPACT_MEDIAN_MS, IMPACT_P99_MS)
    size = (target / "lineage.json").stat().st_size / 2**20
    index_size = (target / "lineage.index.sqlite").stat().st_size / 2**20
    print(
        f"\n{models} models: lineage.json {size:.0f} MB, index {index_size:.0f} MB; "
        f"{len(columns)} columns reaching {median(reached):.0f} columns (median), "
        f"{max(reached)} at most"
    )
    print(f"  load, first call (imports)     {1000 * first:7.2f} ms")
    print(loads.line("load", load_ok))
    print(cold.line("impact, fresh lineage each", impact_ok))
    print(warm.line("impact, one lineage for all"))
    print(to_dict.line("to_dict() of those results"))
    return all(load_ok) and all(impact_ok)


def _networkx(args: argparse.Namespace, models: int) -> None:
    import dbt_lineage

    lineage = dbt_lineage.load(_project(args, models) / "target")
    started = time.perf_counter()
    lineage.graph  # noqa: B018 - reads lineage.json, timed apart from the conversion
    read = time.perf_counter() - started
    gc.collect()
    started, cpu = time.perf_counter(), time.process_time()
    graph = lineage.to_networkx()
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    nodes, edges = graph.number_of_nodes(), graph.number_of_edges()
    del graph
    gc.collect()
    tracemalloc.start()
    graph = lineage.to_networkx()
    held, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(
        f"\nto_networkx() of {models} models: {nodes:,} nodes, {edges:,} edges in "
        f"{seconds:.2f} s ({cpu:.2f} s cpu; reading lineage.json first: {read:.2f} s); the "
        "MultiDiGraph holds "
        f"{held / 2**20:.0f} MB (peak {peak / 2**20:.0f} MB while it was built)"
    )
    del graph


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print its figures."""
    args = _parse(argv)
    sizes = [int(size) for size in args.sizes.split(",")]
    print(
        f"cpus: {os.cpu_count()}, load average: {' '.join(f'{x:.1f}' for x in os.getloadavg())}"
        " (wall times on a shared machine)"
    )
    met = [_size(args, models) for models in sizes]
    _networkx(args, max(sizes))
    print(
        f"\nbudgets: load <= {LOAD_BUDGET_MS:.0f} ms (median); impact of a column <= "
        f"{IMPACT_MEDIAN_MS:.0f} ms median and <= {IMPACT_P99_MS:.0f} ms p99 (fresh lineage "
        f"each), in wall time: {'met' if all(met) else 'MISSED'}; load average now "
        f"{' '.join(f'{x:.1f}' for x in os.getloadavg())}"
    )
    return 0 if all(met) else 1


if __name__ == "__main__":
    raise SystemExit(main())
