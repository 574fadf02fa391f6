"""Benchmark ``dbt-lineage build`` on one compiled manifest: a real project at real scale.

Given a ``manifest.json`` (or ``.json.gz``; by default GitLab's, handed to us in
``../shared/corpus/gitlab/``), this unpacks it as ``<out>/target/manifest.json`` and prints:

- cold build (``--no-cache``), warm build (inputs unchanged: lineage.json kept) and cached
  build (other inputs, every node from the cache: lineage.json written again) as whole
  processes: wall seconds, CPU seconds of the process and its workers, peak resident memory
  of the largest single process; medians over ``--repeat`` runs;
- the parse floor: the CPU seconds sqlglot needs only to parse the same compiled SQL (in a
  process of its own holding only the SQL text, timed around the parse loop), measured
  just before each cold build; the cold build's CPU over it, pair by pair (this machine's
  speed drifts within an hour: a ratio is fair only within a pair) and as medians; and,
  for comparison with earlier figures, the same parse with the whole manifest kept in
  memory;
- coverage: columns resolved, and unresolved columns by reason;
- diagnostics by reason.

Usage::

    python benchmarks/bench_manifest.py [MANIFEST] [--repeat 3] [--out /tmp/bench_manifest]
"""

from __future__ import annotations

import argparse
import collections
import gzip
import json
import shutil
import sys
from pathlib import Path

from benchkit.docs_figures import docs_figures
from benchkit.engine import engine
from benchkit.parse_floor import parse_floor
from benchkit.process import Run, run_measured
from benchkit.stats import median

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
GITLAB = REPO.parent / "shared" / "corpus" / "gitlab" / "manifest.json.gz"
DBT_LINEAGE = Path(sys.executable).with_name("dbt-lineage")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("manifest", nargs="?", default=str(GITLAB), help="manifest.json(.gz)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each build (median)")
    parser.add_argument("--out", default="/tmp/bench_manifest", help="working directory")
    args = parser.parse_args(argv)
    project = _unpack(Path(args.manifest), Path(args.out))
    manifest = project / "target" / "manifest.json"
    # The floor and the cold build alternate, a pair at a time: this machine's speed drifts
    # by a factor of two within an hour, and a ratio is only fair within a pair.
    floors, cold = [], []
    for _ in range(args.repeat):
        floors.append(parse_floor(manifest, "alone"))
        cold.append(_build(project, "--no-cache"))
    loaded = [parse_floor(manifest, "loaded") for _ in range(args.repeat)]
    warm = [_build(project) for _ in range(args.repeat)]
    # Another --node-timeout (no node comes near it) each time: inputs that differ from the
    # last build's, so that lineage.json is rebuilt with every node from the cache, as
    # after dbt rewrote the manifest without changing any model.
    cached = [_build(project, "--node-timeout", str(59 + 2 * (i % 2))) for i in range(args.repeat)]
    document = json.loads((project / "target" / "lineage.json").read_text())
    _print(args.manifest, (floors, loaded), cold, warm, cached, document)


def _unpack(manifest: Path, out: Path) -> Path:
    target = out / "target"
    if target.exists():
        shutil.rmtree(target)
    target.mkdir(parents=True)
    opener = gzip.open if manifest.suffix == ".gz" else open
    with opener(manifest, "rb") as source, (target / "manifest.json").open("wb") as copy:
        shutil.copyfileobj(source, copy)
    return out


def _build(project: Path, *flags: str) -> Run:
    run = run_measured([str(DBT_LINEAGE), "build", "--project-dir", str(project), *flags])
    if run.returncode != 0:
        raise SystemExit(f"dbt-lineage build failed:\n{run.output}")
    return run


def _print(
    manifest: str,
    floors: tuple[dict[str, float], dict[str, float]],
    cold: list[Run],
    warm: list[Run],
    cached: list[Run],
    document: dict,
) -> None:
    columns = collections.Counter()
    reasons: collections.Counter[str] = collections.Counter()
    counted = ("model", "snapshot", "seed")
    for node in document["nodes"].values():
        if node["type"] not in counted:
            continue
        for column in node["columns"].values():
            columns["total"] += 1
            if column.get("resolved", True):
                columns["resolved"] += 1
            else:
                reasons[column["reason"].split(":", 1)[0]] += 1
            if column.get("inferred"):
                columns["inferred"] += 1
    floor_runs, loaded_runs = floors
    floor = {**floor_runs[0], "cpu": median([run["cpu"] for run in floor_runs])}
    loaded = {**loaded_runs[0], "cpu": median([run["cpu"] for run in loaded_runs])}
    paired = [run.cpu_s / each["cpu"] for run, each in zip(cold, floor_runs, strict=True)]
    diagnostics = collections.Counter(item["reason"] for item in document["diagnostics"])
    cold_cpu = median([run.cpu_s for run in cold])
    print(f"Manifest: {manifest}")
    print(f"SQL engine: {engine(DBT_LINEAGE)}")
    print(
        f"Compiled SQL: {floor['queries']:.0f} queries, {floor['megabytes']:.1f} MB; "
        f"{floor['failed']:.0f} do not parse"
    )
    print()
    print("| figure | median | min | max |")
    print("|---|---|---|---|")
    for label, runs in (("cold", cold), ("warm", warm), ("cached", cached)):
        for name, values, unit in (
            ("wall", [r.seconds for r in runs], "s"),
            ("CPU (process tree)", [r.cpu_s for r in runs], "s"),
            ("peak RSS (largest process)", [r.max_rss_mb for r in runs], "MB"),
        ):
            print(
                f"| {label} {name} | {median(values):.2f} {unit} | {min(values):.2f} | "
                f"{max(values):.2f} |"
            )
    values = [run["cpu"] for run in floor_runs]
    print(
        "| parse floor (sqlglot parse only, only the SQL in memory; each run just before a "
        f"cold build) | {floor['cpu']:.2f} s CPU | {min(values):.2f} | {max(values):.2f} |"
    )
    print(
        f"| cold CPU / parse floor, each cold build against its own floor run | "
        f"{median(paired):.2f}x | {min(paired):.2f} | {max(paired):.2f} |"
    )
    print(f"| median cold CPU / median floor | {cold_cpu / floor['cpu']:.2f}x | | |")
    print(
        "| parse with the manifest loaded (the floor until 2026-12-01) | "
        f"{loaded['cpu']:.2f} s CPU | | |"
    )
    print(f"| cold CPU / that | {cold_cpu / loaded['cpu']:.2f}x | | |")
    print()
    share = 100.0 * columns["resolved"] / max(1, columns["total"])
    print(
        f"Columns of models, snapshots and seeds: {columns['resolved']}/{columns['total']} "
        f"resolved ({share:.1f}%), {columns['inferred']} inferred from how SQL reads them"
    )
    for reason, count in reasons.most_common():
        print(f"  unresolved ({reason}): {count}")
    print("Diagnostics by reason:")
    for reason, count in diagnostics.most_common():
        print(f"  {reason}: {count}")


if __name__ == "__main__":
    raise SystemExit(docs_figures("bench_manifest", main))
