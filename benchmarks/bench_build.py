"""Benchmark ``dbt-lineage build`` on synthetic projects, and dbt-colibri on the same ones.

For each size N (``--sizes``, default 100,1000,10000) this generates a project with a catalog
and one without, then prints:

- cold build: ``dbt-lineage build --no-cache`` as a whole process, median wall seconds;
- warm build: the same with its cache, median wall seconds;
- peak memory of the cold build: the largest single process, and the whole process tree;
- columns resolved, as the build counts them;
- lineage.json load time and impact-query latency percentiles, in this process;
- when dbt-colibri is installed (``--colibri-venv``), ``colibri generate`` on the same
  project (it needs a catalog): its median wall seconds, the ratio, and the model columns
  each tool found an upstream column for.

Usage::

    python benchmarks/bench_build.py --sizes 100,1000 [--repeat 3] [--out benchmarks/out]
"""

from __future__ import annotations

import argparse
import dataclasses
import os
from pathlib import Path

from benchkit.colibri import (
    ColibriCount,
    colibri_command,
    colibri_executable,
    read_colibri_count,
    run_colibri,
)
from benchkit.dbt_lineage_option import dbt_lineage_option
from benchkit.docs_figures import docs_figures
from benchkit.engine import engine
from benchkit.process import Run, run_measured
from benchkit.queries import GraphFigures, graph_figures
from benchkit.stats import median
from synth_dbt import generate_project

HERE = Path(__file__).resolve().parent


@dataclasses.dataclass
class Result:
    """The figures of one generated project."""

    models: int
    catalog: bool
    cold: list[Run]
    warm: list[Run]
    graph: GraphFigures | None = None
    colibri: list[Run] = dataclasses.field(default_factory=list)
    colibri_count: ColibriCount | None = None
    note: str = ""


def _parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="100,1000,10000", help="comma-separated model counts")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each build (median)")
    parser.add_argument("--queries", type=int, default=200, help="impact queries to time")
    parser.add_argument("--seed", type=int, default=0, help="generator and query seed")
    parser.add_argument("--out", default=str(HERE / "out"), help="where projects are written")
    parser.add_argument("--jobs", type=int, default=None, help="pass --jobs to dbt-lineage")
    dbt_lineage_option(parser)
    parser.add_argument("--colibri-venv", default="/tmp/colibri-venv", help="dbt-colibri venv")
    parser.add_argument("--colibri-repeat", type=int, default=None, help="default: --repeat")
    parser.add_argument("--colibri-timeout", type=float, default=3600.0, help="seconds per run")
    parser.add_argument("--no-catalog-variant", dest="no_catalog", action="store_false",
                        help="skip the projects without catalog.json")  # fmt: skip
    return parser.parse_args(argv)


def _build(args: argparse.Namespace, project: Path, *, cache: bool) -> Run:
    cmd = [args.dbt_lineage, "build", "--project-dir", str(project)]
    if not cache:
        cmd.append("--no-cache")
    if args.jobs:
        cmd += ["--jobs", str(args.jobs)]
    run = run_measured(cmd, cwd=project)
    if run.returncode != 0:
        tail = "\n".join(run.output.splitlines()[-15:])
        raise RuntimeError(f"{' '.join(cmd)} exited {run.returncode}:\n{tail}")
    return run


def bench_project(args: argparse.Namespace, n: int, catalog: bool, colibri: Path | None) -> Result:
    """Generate one project and take all its figures."""
    project = Path(args.out) / f"n{n}_{'catalog' if catalog else 'nocatalog'}"
    generate_project(n, project, seed=args.seed, with_catalog=catalog)
    for stale in ("lineage.json", "dbt_lineage_cache.json.gz"):
        (project / "target" / stale).unlink(missing_ok=True)
    cold = [_build(args, project, cache=False) for _ in range(args.repeat)]
    warm = [_build(args, project, cache=True) for _ in range(args.repeat)]
    result = Result(n, catalog, cold, warm)
    result.graph = graph_figures(project / "target" / "lineage.json", args.queries, args.seed)
    if catalog and colibri is not None:
        repeat = args.colibri_repeat or args.repeat
        for _ in range(repeat):
            run = run_colibri(colibri, project, timeout=args.colibri_timeout)
            result.colibri.append(run)
            if run.returncode != 0:
                result.note = f"colibri exited {run.returncode}: " + run.output[-300:]
                break
        else:
            result.colibri_count = read_colibri_count(project)
    return result


def _line(r: Result) -> str:
    g = r.graph
    assert g is not None
    cold, warm = median([x.seconds for x in r.cold]), median([x.seconds for x in r.warm])
    cold_cpu = median([x.cpu_s for x in r.cold])
    rss = max(x.max_rss_mb for x in r.cold)
    pss = max(x.tree_pss_mb for x in r.cold)
    return (
        f"{r.models:>7}  {'yes' if r.catalog else 'no':>7}  {cold:>7.2f}  {cold_cpu:>7.2f}  "
        f"{warm:>7.2f}  "
        f"{rss:>8.0f}  {pss:>9.0f}  {g.resolved_pct:>6.1f}%  {g.load_s:>6.2f}  "
        f"{g.index_s:>6.2f}  {g.p50_ms:>6.2f}  {g.p95_ms:>6.2f}  {g.p99_ms:>6.2f}  "
        f"{g.mean_reached:>7.1f}"
    )


HEADER = (
    " models  catalog   cold s  cold cpu  warm s  RSS1 MB  tree MB  resolved  load s  "
    "index s  p50 ms  p95 ms  p99 ms  reached"
)


def _colibri_line(r: Result) -> str:
    ours = median([x.seconds for x in r.cold])
    g = r.graph
    assert g is not None
    if not r.colibri or r.colibri_count is None:
        return f"{r.models:>7}  {ours:>7.2f}  colibri failed or timed out: {r.note.strip()}"
    theirs = median([x.seconds for x in r.colibri])
    ours_cpu = median([x.cpu_s for x in r.cold])
    theirs_cpu = median([x.cpu_s for x in r.colibri])
    c = r.colibri_count
    return (
        f"{r.models:>7}  {ours:>7.2f}  {theirs:>9.2f}  {theirs / ours:>6.1f}x  "
        f"{ours_cpu:>8.2f}  {theirs_cpu:>11.2f}  {theirs_cpu / ours_cpu:>6.1f}x  "
        f"{g.with_upstream:>7}/{g.columns:<7}  {c.with_upstream:>7}/{c.columns:<7}  "
        f"{max(x.max_rss_mb for x in r.colibri):>8.0f}"
    )


COLIBRI_HEADER = (
    " models  ours s  colibri s   ratio  ours cpu  colibri cpu  cpu ratio  "
    "ours: with upstream/all  colibri: same  colibri RSS1 MB"
)


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print its tables."""
    args = _parse(argv)
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    colibri = colibri_executable(args.colibri_venv)
    if colibri is None:
        print(f"note: dbt-colibri not found in {args.colibri_venv}; its comparison is skipped")
    else:
        print("colibri command:", " ".join(colibri_command(colibri, Path("<project>"))))
    print(f"dbt-lineage: {args.dbt_lineage}, SQL engine: {engine(args.dbt_lineage)}")
    print(f"cpus: {os.cpu_count()}, load average: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    results: list[Result] = []
    print(HEADER, flush=True)
    for n in sizes:
        for catalog in (True, False) if args.no_catalog else (True,):
            result = bench_project(args, n, catalog, colibri)
            results.append(result)
            print(_line(result), flush=True)
    if colibri is not None:
        print("\ndbt-colibri on the same projects (with catalog); ratio = colibri / dbt-lineage")
        print("cold; with upstream: model columns with at least one direct upstream column")
        print(COLIBRI_HEADER)
        for result in results:
            if result.catalog:
                print(_colibri_line(result))
    print(
        f"\ncold/warm: median wall seconds of the whole process over {args.repeat} runs; "
        "cpu: user+sys seconds of the process tree; RSS1: peak of the largest process; "
        "tree: peak summed PSS of the process tree; resolved: as `dbt-lineage build` "
        "counts; index: building the traversal index once; p50-p99: "
        f"impact(include_indirect=False) over {args.queries} random model and source "
        "columns; reached: columns per query."
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(docs_figures("bench_build", main))
