"""Benchmark ``dbt-lineage diff``: scripted pull requests on GitLab's compiled manifest, or two
synthetic projects.

By default (GitLab's manifest, handed to us in ``../shared/corpus/gitlab/``), one pull
request of each kind a reviewer meets (``benchkit/pull_requests.py``: rename, logic, filter,
join type, added column, whitespace, retype, macro, unused-column removal, no-op across
databases), each made by editing the compiled SQL of a model the script picks. For each it
prints what changed, the verdict and what is impacted, and:

- cold: ``dbt-lineage diff`` as a whole process with no lineage.json and no cache on either
  side (both sides resolved; the second mostly from the cache the first just filled): CPU
  seconds of the process tree and peak resident memory; floors 20 s CPU, 800 MB;
- warm: the same again, both sides' lineage.json current; floor 5 s CPU;
- the parse floor (``benchkit/parse_floor.py``: sqlglot parsing the base's compiled SQL, the
  least any lineage tool must spend), measured just before each cold diff, and the cold
  diff's CPU over it: the figure that carries over to a machine of another speed.

``--synthetic``: two 1,000-model synthetic projects with 20 changed models (each wrapped in
a filter), median wall seconds cold (floor 20 s) and warm (floor 3 s), and the Markdown
comment's length for that change and for a huge one (floor 60,000 characters).

Every floor holds for each pull request (not only for the median). ``--docs`` writes what it
prints into ``docs/diff.md`` ("Speed on a real project"), with the machine, date and load.

Usage::

    python benchmarks/bench_diff.py [MANIFEST] [--kinds rename,logic] [--repeat 1] [--docs]
    python benchmarks/bench_diff.py --synthetic [--models 1000] [--changed 20] [--repeat 3]
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import shutil
import sys
from pathlib import Path

from benchkit.dbt_lineage_option import dbt_lineage_option
from benchkit.docs_figures import docs_figures
from benchkit.engine import engine
from benchkit.parse_floor import parse_floor
from benchkit.process import Run, run_measured
from benchkit.pull_requests import KINDS, pull_request
from benchkit.stats import median
from synth_dbt import generate_project

HERE = Path(__file__).resolve().parent
GITLAB = HERE.parent.parent / "shared" / "corpus" / "gitlab" / "manifest.json.gz"
PAGE = HERE.parent / "docs" / "diff.md"
"""``--docs`` writes the figures into this page's ``bench_diff`` block."""
FLOORS = {"cold": 20.0, "warm": 3.0, "markdown": 60_000}
GITLAB_FLOORS = {"cold_cpu": 20.0, "warm_cpu": 5.0, "peak_mb": 800.0}


def _parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("manifest", nargs="?", default=str(GITLAB), help="manifest.json(.gz)")
    parser.add_argument("--kinds", default=",".join(KINDS), help="pull requests to make")
    parser.add_argument("--synthetic", action="store_true", help="synthetic projects instead")
    parser.add_argument("--models", type=int, default=1000, help="models per project")
    parser.add_argument("--changed", type=int, default=20, help="models changed in the head")
    parser.add_argument("--repeat", type=int, default=None, help="runs of each diff (median)")
    parser.add_argument("--seed", type=int, default=0, help="generator and change seed")
    parser.add_argument("--out", default=str(HERE / "out" / "diff"), help="where to write")
    dbt_lineage_option(parser)
    return parser.parse_args(argv)


def _head(base: Path, head: Path, changed: list[str]) -> None:
    """Copy ``base`` to ``head`` with ``changed`` models' compiled SQL wrapped in a filter."""
    if head.exists():
        shutil.rmtree(head)
    (head / "target").mkdir(parents=True)
    for name in ("catalog.json",):
        if (base / "target" / name).is_file():
            shutil.copy(base / "target" / name, head / "target" / name)
    manifest = json.loads((base / "target" / "manifest.json").read_text())
    for node_id in changed:
        node = manifest["nodes"][node_id]
        node["compiled_code"] = (
            f"select * from (\n{node['compiled_code']}\n) as bench_changed where 1 = 1"
        )
        node["checksum"] = {"name": "sha256", "checksum": f"changed-{node_id}"}
    (head / "target" / "manifest.json").write_text(json.dumps(manifest))


def _clean(*projects: Path) -> None:
    for project in projects:
        for name in ("lineage.json", "dbt_lineage_cache.json.gz"):
            (project / "target" / name).unlink(missing_ok=True)


def _diff(args: argparse.Namespace, base: Path, head: Path, *extra: str) -> Run:
    cmd = [args.dbt_lineage, "diff", "--base", str(base / "target"),
           "--head", str(head / "target"), "--project-dir", str(head), *extra]  # fmt: skip
    run = run_measured(cmd)
    if run.returncode != 0:
        raise SystemExit(f"`{' '.join(cmd)}` failed ({run.returncode}):\n{run.output[-2000:]}")
    return run


def _markdown(args: argparse.Namespace, base: Path, head: Path) -> str:
    path = head / "diff.md"
    _diff(args, base, head, "--format", "markdown", "--output", str(path))
    return path.read_text(encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    args = _parse(argv)
    if not args.synthetic:
        return _gitlab(args)
    args.repeat = args.repeat or 3
    out = Path(args.out)
    base, head, huge = out / "base", out / "head", out / "huge"
    generate_project(args.models, base, seed=args.seed, with_catalog=True)
    manifest = json.loads((base / "target" / "manifest.json").read_text())
    models = sorted(k for k, v in manifest["nodes"].items() if v["resource_type"] == "model")
    rng = random.Random(args.seed)
    _head(base, head, rng.sample(models, args.changed))
    staging = [m for m in models if ".stg_" in m] or models[: len(models) // 3]
    _head(base, huge, staging)
    print(f"{args.models} models; "
          f"{args.changed} changed in the head; {len(staging)} in the huge change")  # fmt: skip
    cold, warm = [], []
    for _ in range(args.repeat):
        _clean(base, head)
        cold.append(_diff(args, base, head, "--format", "json", "--output", str(out / "d.json")))
        warm.append(_diff(args, base, head, "--format", "json", "--output", str(out / "d.json")))
    document = json.loads((out / "d.json").read_text())
    classes: dict[str, int] = {}
    for change in document["changes"]:
        classes[change["class"]] = classes.get(change["class"], 0) + 1
    print(f"verdict {document['verdict']}; changes by class {classes}; impacted: "
          f"{len(document['impacted']['models'])} models, "
          f"{len(document['impacted']['columns'])} columns")  # fmt: skip
    figures = {
        "cold": median([r.seconds for r in cold]),
        "warm": median([r.seconds for r in warm]),
    }
    cold_cpu, warm_cpu = median([r.cpu_s for r in cold]), median([r.cpu_s for r in warm])
    peak = max(r.max_rss_mb for r in cold)
    print(f"cold diff: {figures['cold']:.2f} s wall (CPU {cold_cpu:.2f} s, peak RSS "
          f"{peak:.0f} MB), floor {FLOORS['cold']:.0f} s")  # fmt: skip
    print(f"warm diff: {figures['warm']:.2f} s wall (CPU {warm_cpu:.2f} s), "
          f"floor {FLOORS['warm']:.0f} s")  # fmt: skip
    small = _markdown(args, base, head)
    _clean(huge)
    large = _markdown(args, base, huge)
    print(f"markdown: {len(small):,} chars for {args.changed} changed models; {len(large):,} "
          f"chars for the huge change (floor {FLOORS['markdown']:,})")  # fmt: skip
    ok = (
        figures["cold"] <= FLOORS["cold"]
        and figures["warm"] <= FLOORS["warm"]
        and max(len(small), len(large)) <= FLOORS["markdown"]
    )
    print("floors met" if ok else "FLOORS MISSED")
    return 0 if ok else 1


def _classes(changes: list[dict]) -> str:
    """How many changed nodes of each class ("1 breaking, 1 partial"), or "none": no node
    names, which are the manifest's (the figures go into the docs)."""
    counts: dict[str, int] = {}
    for change in changes:
        counts[change["class"]] = counts.get(change["class"], 0) + 1
    if len(changes) == 1:
        return changes[0]["class"]
    return ", ".join(f"{count} {klass}" for klass, count in counts.items()) or "no change"


def _load() -> str:
    try:
        return f"{os.getloadavg()[0]:.1f}"
    except OSError:
        return "?"


def _gitlab(args: argparse.Namespace) -> int:
    """One scripted pull request of each kind on the manifest: cold and warm diffs. What
    each pull request edited (the manifest's names) goes to stderr, not into the figures."""
    out = Path(args.out) / "gitlab"
    source = Path(args.manifest)
    opener = gzip.open if source.suffix == ".gz" else open
    with opener(source, "rt", encoding="utf-8") as handle:
        text = handle.read()
    manifest = json.loads(text)
    base = out / "base"
    (base / "target").mkdir(parents=True, exist_ok=True)
    (base / "target" / "manifest.json").write_text(text)
    nodes = sum(1 for n in manifest["nodes"].values() if n["resource_type"] == "model")
    print(f"Manifest: {source.name}, {nodes:,} models, {_dialect(manifest)}")
    print(f"SQL engine: {engine(args.dbt_lineage)}")
    print("One scripted pull request of each kind; the changed node(s) by class; load: the "
          "1-minute load average after the cold run\n")  # fmt: skip
    print("| pull request | verdict | changed | impacted models, columns, exposures | broken "
          "| cold CPU | / parse floor | cold wall | peak RSS | warm CPU | load |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    cold: list[Run] = []
    warm: list[Run] = []
    ratios: list[float] = []
    for kind in args.kinds.split(","):
        head_manifest, what = pull_request(text, kind, seed=args.seed)
        print(what, file=sys.stderr)
        head = out / kind
        (head / "target").mkdir(parents=True, exist_ok=True)
        (head / "target" / "manifest.json").write_text(json.dumps(head_manifest))
        result = out / f"{kind}.json"
        for _ in range(args.repeat or 1):
            _clean(base, head)
            floor = parse_floor(base / "target" / "manifest.json")["cpu"]
            cold.append(_diff(args, base, head, "--format", "json", "--output", str(result)))
            ratios.append(cold[-1].cpu_s / floor)
            load = _load()
            warm.append(_diff(args, base, head, "--format", "json", "--output", str(result)))
        document = json.loads(result.read_text())
        impacted = document["impacted"]
        print(", ".join(f"{c['node']} {c['class']}" for c in document["changes"]) or "none",
              file=sys.stderr)  # fmt: skip
        print(
            f"| {kind.replace('_', ' ')} | {document['verdict']} | "
            + _classes(document["changes"])
            + f" | {len(impacted['models'])}, {len(impacted['columns'])}, "
            f"{len(impacted['exposures'])} | {len(document['broken_references'])} | "
            f"{cold[-1].cpu_s:.1f} s | {ratios[-1]:.1f}x | {cold[-1].seconds:.1f} s | "
            f"{cold[-1].max_rss_mb:.0f} MB | "
            f"{warm[-1].cpu_s:.1f} s | {load} |"
        )
    figures = {
        "cold_cpu": median([r.cpu_s for r in cold]),
        "warm_cpu": median([r.cpu_s for r in warm]),
        "peak_mb": max(r.max_rss_mb for r in cold + warm),
    }
    print(
        f"\ncold CPU: median {figures['cold_cpu']:.1f} s, {min(r.cpu_s for r in cold):.1f} to "
        f"{max(r.cpu_s for r in cold):.1f} s (floor {GITLAB_FLOORS['cold_cpu']:.0f} s); "
        f"warm CPU: median {figures['warm_cpu']:.1f} s, {min(r.cpu_s for r in warm):.1f} to "
        f"{max(r.cpu_s for r in warm):.1f} s (floor {GITLAB_FLOORS['warm_cpu']:.0f} s); "
        f"peak RSS {figures['peak_mb']:.0f} MB (floor {GITLAB_FLOORS['peak_mb']:.0f} MB)"
    )
    print(
        f"cold CPU over the parse floor measured just before it: median {median(ratios):.1f}x, "
        f"{min(ratios):.1f}x to {max(ratios):.1f}x"
    )
    worst = {
        "cold_cpu": max(r.cpu_s for r in cold),
        "warm_cpu": max(r.cpu_s for r in warm),
        "peak_mb": figures["peak_mb"],
    }
    ok = all(worst[key] <= floor for key, floor in GITLAB_FLOORS.items())
    print("floors met by every pull request" if ok else "FLOORS MISSED")
    return 0 if ok else 1


def _dialect(manifest: dict) -> str:
    return str(manifest.get("metadata", {}).get("adapter_type") or "no adapter")


if __name__ == "__main__":
    raise SystemExit(docs_figures("bench_diff", main, PAGE))
