"""The whole of ``dbt-lineage build`` but the printing: keep the last lineage.json when its
inputs have not changed, else resolve and write it, and record in its index what it was
built from and what the build found. The CLI prints the outcome; ``dbt_lineage.build``
returns the lineage."""

from __future__ import annotations

import dataclasses
import json
import time
import typing as t
from pathlib import Path

from dbt_lineage.api.build_inputs import build_inputs, dumps, seed_files, unchanged
from dbt_lineage.api.locate import target_dir
from dbt_lineage.api.stale import MANIFEST, manifest_record
from dbt_lineage.files import is_stream
from dbt_lineage.graph.index_meta import index_meta
from dbt_lineage.types import DEFAULT_NODE_TIMEOUT

if t.TYPE_CHECKING:
    from dbt_lineage.graph.model import LineageGraph


@dataclasses.dataclass(frozen=True)
class BuildOutcome:
    """What a build did.

    Attributes:
        path: the lineage.json written (or kept).
        summary: the build's summary, as the CLI prints it.
        counts: ``nodes`` resolved or from cache, whether the project has ``sql_nodes``,
            ``columns`` of models, snapshots and seeds, and how many are ``resolved``.
        graph: the graph written; None when the last build's was kept.
        kept: the line saying the last build was kept (None when it was not).
        tracebacks: the traceback of each node's internal error, by node id.
        stream: lineage.json went to a stream (standard output, a FIFO, a device), so the
            summary belongs on standard error.
    """

    path: Path
    summary: str
    counts: t.Mapping[str, t.Any]
    graph: LineageGraph | None = None
    kept: str | None = None
    tracebacks: t.Mapping[str, str] = dataclasses.field(default_factory=dict)
    stream: bool = False


def build_project(
    project_dir: str | Path,
    target_path: str | Path | None = None,
    *,
    select: t.Sequence[str] = (),
    no_cache: bool = False,
    jobs: int | None = None,
    node_timeout: float | None = DEFAULT_NODE_TIMEOUT,
    output: str | Path | None = None,
    catalog: bool = True,
    progress: t.Callable[[int, int], None] | None = None,
) -> BuildOutcome:
    """Build the project's lineage as ``dbt-lineage build`` does (see ``build_lineage``).

    A full build whose inputs (manifest, catalog, seeds' files, this package's code, the
    options) are those the last build recorded keeps its lineage.json and says so, unless
    ``no_cache``.

    Raises:
        DbtLineageError: no manifest, an unsupported artifact, a name that is no node.
    """
    started = time.perf_counter()
    target = target_dir(project_dir, target_path)
    lineage_path = Path(output) if output else target / "lineage.json"
    stream = output is not None and is_stream(output)
    inputs = None
    manifest_status = None
    if not select and not stream:  # a stream is never read: always built afresh
        read = manifest_record(target / "manifest.json")  # before the build reads it
        manifest_status = read.record
        inputs = build_inputs(
            target,
            jobs=jobs,
            node_timeout=node_timeout or None,
            manifest=read.digest if not no_cache else None,
            catalog=catalog,
        )
        if not no_cache:
            kept = _kept(lineage_path, inputs, Path(project_dir), started, manifest_status)
            if kept is not None:
                return kept
    from dbt_lineage.api.build_lineage import build_lineage
    from dbt_lineage.outputs.build_summary import build_summary
    from dbt_lineage.queries.coverage import COUNTED_TYPES, coverage

    built = build_lineage(
        project_dir,
        target_path,
        select=select,
        no_cache=no_cache,
        jobs=jobs,
        node_timeout=node_timeout or None,
        output=output,
        progress=progress,
        catalog=catalog,
    )
    graph = built.graph
    report = coverage(graph)
    summary = build_summary(
        graph,
        path=built.path,
        seconds=built.seconds,
        resolved=built.lineage.resolved_count,
        cached=built.lineage.cached_count,
        report=report,
        warnings=[*built.warnings, *built.lineage.warnings],
    )
    counts = {
        "summary": summary.rpartition("\n")[0],
        "nodes": built.lineage.resolved_count + built.lineage.cached_count,
        "sql_nodes": any(n.type in COUNTED_TYPES for n in graph.nodes.values()),
        "columns": report.columns_total,
        "resolved": report.columns_resolved,
    }
    if inputs is not None:
        inputs["manifest"] = graph.metadata.manifest_checksum  # of the bytes this build read
        inputs["seeds"] = seed_files(graph, Path(project_dir))
        update = {"inputs": dumps(inputs), "outcome": json.dumps(counts)}
        if manifest_status is not None:  # the manifest the build read, before it read it
            update[MANIFEST] = manifest_status
        index_meta(built.path, update=update)
    return BuildOutcome(
        built.path,
        summary,
        counts,
        graph=graph,
        tracebacks=dict(built.lineage.tracebacks),
        stream=stream,
    )


def _kept(
    lineage_path: Path,
    inputs: dict[str, t.Any],
    project_dir: Path,
    started: float,
    manifest_status: str | None,
) -> BuildOutcome | None:
    """The last build's outcome, when lineage.json and its index are what that build wrote
    and its inputs have not changed; None otherwise. The manifest's record
    (``manifest_status``, taken before the inputs' digests: see ``api.stale``) is written
    anew: the same content, which ``dbt compile`` may have rewritten."""
    meta = index_meta(lineage_path)
    if meta is None or "inputs" not in meta or "outcome" not in meta:
        return None
    try:
        recorded, counts = json.loads(meta["inputs"]), json.loads(meta["outcome"])
    except ValueError:
        return None
    if not unchanged(recorded, inputs, project_dir):
        return None
    if manifest_status is not None and manifest_status != meta.get(MANIFEST):
        index_meta(lineage_path, update={MANIFEST: manifest_status})  # same bytes
    seconds = time.perf_counter() - started
    kept = (
        f"Kept {lineage_path}: manifest, catalog and dbt-lineage unchanged since it was written "
        f"({seconds:.2f}s; 0 node(s) resolved, {counts['nodes']} from cache)"
    )
    return BuildOutcome(lineage_path, counts["summary"], counts, kept=kept)
