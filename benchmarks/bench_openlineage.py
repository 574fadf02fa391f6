"""Benchmark ``dbt-lineage openlineage``: emit the events of a 1,000-node invocation to a file.

Generates a synthetic project (``synth_dbt``, with a catalog), builds its lineage.json
once (not timed), writes a synthetic ``run_results.json`` in which every model ran (one in
fifty failed), then times, in this process, what the command does after it has opened the
profile: load the manifest, run results and lineage.json, build every event (parent run,
START and COMPLETE/FAIL per node, with the column-lineage facet) and write them through
the OpenLineage client's file transport. Prints the median of ``--repeat`` runs.

Usage::

    python benchmarks/bench_openlineage.py [--models 1000] [--repeat 3] [--out /tmp/bench_ol]
"""

from __future__ import annotations

import argparse
import datetime
import json
import subprocess
import sys
import time
import uuid
from pathlib import Path

from benchkit.docs_figures import docs_figures
from benchkit.stats import median
from synth_dbt import generate_project

from dbt_lineage.artifacts.manifest import load_manifest
from dbt_lineage.artifacts.run_results import load_run_results
from dbt_lineage.graph.io import load_graph
from dbt_lineage.outputs.openlineage.emit import Destination, emit
from dbt_lineage.outputs.openlineage.events import ExportContext, events
from dbt_lineage.outputs.openlineage.from_run_results import from_run_results
from dbt_lineage.outputs.openlineage.lineage_index import lineage_index
from dbt_lineage.outputs.openlineage.source_code import source_code

LIMIT_SECONDS = 5.0


def write_run_results(manifest_path: Path, path: Path) -> int:
    """A run_results.json (v6) in which every model of the manifest ran, in order."""
    manifest = json.loads(manifest_path.read_text())
    start = datetime.datetime(2024, 5, 1, 6, 0, tzinfo=datetime.timezone.utc)
    results = []
    for index, (unique_id, node) in enumerate(sorted(manifest["nodes"].items())):
        if node["resource_type"] != "model":
            continue
        began = start + datetime.timedelta(seconds=index * 0.5)
        ended = began + datetime.timedelta(seconds=0.4)
        failed = index % 50 == 49
        results.append(
            {
                "unique_id": unique_id,
                "status": "error" if failed else "success",
                "execution_time": 0.4,
                "thread_id": "Thread-1",
                "message": "Runtime Error: division by zero" if failed else "OK",
                "adapter_response": {"_message": "OK", "rows_affected": 100},
                "timing": [
                    {"name": "compile", "started_at": _iso(began), "completed_at": _iso(began)},
                    {"name": "execute", "started_at": _iso(began), "completed_at": _iso(ended)},
                ],
                "failures": None,
            }
        )
    generated = start + datetime.timedelta(seconds=len(results) * 0.5 + 1)
    document = {
        "metadata": {
            "dbt_schema_version": "https://schemas.getdbt.com/dbt/run-results/v6.json",
            "dbt_version": "1.11.0",
            "generated_at": _iso(generated),
            "invocation_id": str(uuid.UUID(int=1000)),
        },
        "results": results,
        "elapsed_time": len(results) * 0.5,
        "args": {"which": "build"},
    }
    path.write_text(json.dumps(document))
    return len(results)


def export_once(project: Path, output: Path) -> tuple[float, int, float]:
    """Wall seconds to load the artifacts, build every event and write them; events
    written; CPU seconds."""
    started = time.perf_counter()
    cpu = time.process_time()
    target = project / "target"
    manifest = load_manifest(target / "manifest.json")
    graph = load_graph(target / "lineage.json")
    execution = from_run_results(load_run_results(target / "run_results.json"), manifest)
    relations = manifest.relation_nodes()
    context = ExportContext(
        manifest=manifest,
        graph=graph,
        index=lineage_index(graph, {i for i, n in relations.items() if n.is_ephemeral}),
        adapter_type="duckdb",
        dataset_namespace="duckdb://warehouse.duckdb",
        job_namespace="dbt",
        source=source_code(project),
    )
    sent = emit(events(execution, context), Destination("file", output=output))
    return time.perf_counter() - started, sent, time.process_time() - cpu


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--out", default="/tmp/bench_openlineage")
    args = parser.parse_args(argv)
    project = Path(args.out)
    generate_project(args.models, project, seed=0, with_catalog=True)
    subprocess.run(
        [
            str(Path(sys.executable).with_name("dbt-lineage")),
            "build",
            "--project-dir",
            str(project),
        ],
        check=True,
        capture_output=True,
    )
    nodes = write_run_results(
        project / "target" / "manifest.json", project / "target" / "run_results.json"
    )
    output = project / "events.jsonl"
    runs = [export_once(project, output) for _ in range(args.repeat)]
    seconds = median([run[0] for run in runs])
    cpu = median([run[2] for run in runs])
    size = output.stat().st_size / 1e6
    verdict = "within" if seconds <= LIMIT_SECONDS else "OVER"
    print(
        f"openlineage: {nodes} node runs -> {runs[0][1]} events ({size:.1f} MB) to a file in "
        f"{seconds:.2f} s wall, {cpu:.2f} s CPU (median of {args.repeat}; {verdict} the "
        f"{LIMIT_SECONDS:.0f} s budget)"
    )
    return 0 if seconds <= LIMIT_SECONDS else 1


def _iso(moment: datetime.datetime) -> str:
    return moment.isoformat().replace("+00:00", "Z")


if __name__ == "__main__":
    raise SystemExit(docs_figures("bench_openlineage", main))
