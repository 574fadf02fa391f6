"""The OpenLineage run events of one dbt invocation.

A parent job ``dbt-run-<project>`` with one run per invocation (START when it started,
COMPLETE or FAIL when it ended), and, per executed model, seed and snapshot, a START at the
node's execute start and a COMPLETE or FAIL at its end, with the ``parent`` facet pointing
at the invocation's run. Job and dataset names are ``dbt-ol``'s (see ``namespace.py``).
Events come out in time order, START before the end of each run.
"""

from __future__ import annotations

import dataclasses
import datetime
import functools
import typing as t

from openlineage.client.event_v2 import InputDataset, Job, OutputDataset, Run, RunEvent, RunState
from openlineage.client.facet_v2 import (
    datasource_dataset,
    error_message_run,
    job_type_job,
    output_statistics_output_dataset,
    parent_run,
    processing_engine_run,
    schema_dataset,
    source_code_location_job,
    sql_job,
)

from dbt_lineage._version import __version__
from dbt_lineage.artifacts.manifest import Manifest, ManifestNode
from dbt_lineage.graph.model import LineageGraph
from dbt_lineage.outputs.openlineage.column_lineage import column_lineage
from dbt_lineage.outputs.openlineage.execution import (
    InvocationExecution,
    NodeExecution,
    Relation,
)
from dbt_lineage.outputs.openlineage.from_run_results import relation
from dbt_lineage.outputs.openlineage.lineage_index import LineageIndex
from dbt_lineage.outputs.openlineage.run_ids import run_ids
from dbt_lineage.outputs.openlineage.source_code import SourceCode

PRODUCER = f"https://pypi.org/project/dbt-lineage/{__version__}/"
"""The ``producer`` URI of every event and facet."""

_JOB_TYPES = {"model": "MODEL", "snapshot": "SNAPSHOT", "seed": "SEED"}


@dataclasses.dataclass(frozen=True)
class ExportContext:
    """What every invocation of one export shares: the project's definitions and names.

    Attributes:
        manifest: the current manifest (SQL, relations, dependencies).
        graph: the project's lineage (columns, types, edges).
        index: ``graph``'s edges, ephemeral models seen through.
        adapter_type: the dbt adapter (``duckdb``, ``postgres``, ...), the SQL dialect.
        dataset_namespace: the datasets' namespace (``namespace.namespace``).
        job_namespace: the jobs' namespace (``dbt`` unless told otherwise, as dbt-ol).
        source: the project's checkout, for the ``sourceCodeLocation`` facet.
        code_checksums: each model's checksums under either dbt scheme
            (``queries.diff_side.code_checksums``): a run recorded by another dbt version
            than the manifest's ran the code there now when its checksum is one of them.
    """

    manifest: Manifest
    graph: LineageGraph
    index: LineageIndex
    adapter_type: str
    dataset_namespace: str
    job_namespace: str
    source: SourceCode
    code_checksums: t.Mapping[str, frozenset[str]] = dataclasses.field(default_factory=dict)

    @functools.cached_property
    def relations(self) -> dict[str, ManifestNode]:
        return self.manifest.relation_nodes()


def events(execution: InvocationExecution, context: ExportContext) -> list[RunEvent]:
    """Every event of the invocation, parent START first and parent COMPLETE/FAIL last."""
    builder = _Invocation(execution, context)
    node_events = [event for node in execution.nodes for event in builder.node_events(node)]
    node_events.sort(key=lambda event: (event.eventTime, event.eventType is not RunState.START))
    return [builder.parent_event(RunState.START), *node_events, builder.parent_event(None)]


class _Invocation:
    """Builds the events of one invocation; caches its datasets' facets."""

    def __init__(self, execution: InvocationExecution, context: ExportContext) -> None:
        self.execution = execution
        self.context = context
        self.recorded: dict[str, Relation] = {}
        for node in execution.nodes:
            if node.relation is not None:
                self.recorded[node.unique_id] = node.relation
            for unique_id, upstream in node.inputs:
                if upstream is not None:
                    self.recorded.setdefault(unique_id, upstream)
        self.parent_job = f"dbt-run-{execution.project_name}"
        self.parent_run_id = run_ids(execution.invocation_id)
        self.engine = processing_engine_run.ProcessingEngineRunFacet(
            version=execution.dbt_version or "unknown",
            name="dbt",
            openlineageAdapterVersion=__version__,
            producer=PRODUCER,
        )

    def parent_event(self, state: RunState | None) -> RunEvent:
        execution = self.execution
        facets: dict[str, t.Any] = {"processing_engine": self.engine}
        if state is None:
            failed = [node.unique_id for node in execution.nodes if node.failed]
            state = RunState.FAIL if failed or execution.other_failures else RunState.COMPLETE
            if state is RunState.FAIL:
                count = len(failed) + execution.other_failures
                first = f", first {failed[0]}" if failed else ""
                facets["errorMessage"] = error_message_run.ErrorMessageRunFacet(
                    message=f"{count} node(s) failed in dbt {execution.command}{first}",
                    programmingLanguage="SQL",
                    producer=PRODUCER,
                )
        moment = execution.started_at if state is RunState.START else execution.ended_at
        job_type = job_type_job.JobTypeJobFacet(
            processingType="BATCH", integration="DBT", jobType="JOB", producer=PRODUCER
        )
        return RunEvent(
            eventType=state,
            eventTime=_time(moment),
            run=Run(runId=self.parent_run_id, facets=facets),
            job=Job(
                namespace=self.context.job_namespace,
                name=self.parent_job,
                facets={"jobType": job_type},
            ),
            producer=PRODUCER,
        )

    def node_events(self, node: NodeExecution) -> list[RunEvent]:
        manifest_node = self.context.relations.get(node.unique_id)
        current = manifest_node is not None and (
            node.checksum is None
            or node.checksum == manifest_node.checksum.get("checksum")
            or node.checksum in self.context.code_checksums.get(node.unique_id, ())
        )
        where = self.relation_of(node.unique_id)
        if where is None:
            return []
        run = Run(
            runId=run_ids(self.execution.invocation_id, node.unique_id), facets=self.run_facets()
        )
        job = Job(
            namespace=self.context.job_namespace,
            name=self.job_name(node, where),
            facets=self.job_facets(node, manifest_node if current else None),
        )
        inputs = list(
            {
                (dataset.namespace, dataset.name): dataset
                for dataset in map(self.input_dataset, self.inputs(node))
                if dataset is not None
            }.values()
        )
        named = [InputDataset(namespace=d.namespace, name=d.name) for d in inputs]
        output_name = OutputDataset(
            namespace=self.context.dataset_namespace, name=where.dataset_name
        )
        start = RunEvent(
            eventType=RunState.START,
            eventTime=_time(node.started_at or self.execution.started_at),
            run=run,
            job=job,
            inputs=named,
            outputs=[output_name],
            producer=PRODUCER,
        )
        if node.failed:
            error = error_message_run.ErrorMessageRunFacet(
                message=node.message or f"dbt reported status {node.status}",
                programmingLanguage="SQL",
                producer=PRODUCER,
            )
            state, outputs = RunState.FAIL, []
            run = Run(runId=run.runId, facets={**run.facets, "errorMessage": error})
            inputs = named
        else:
            state = RunState.COMPLETE
            outputs = [
                self.output_dataset(node, where, with_lineage=current, rows=node.rows_affected)
            ]
        end = RunEvent(
            eventType=state,
            eventTime=_time(node.completed_at or node.started_at or self.execution.ended_at),
            run=run,
            job=job,
            inputs=inputs,
            outputs=outputs,
            producer=PRODUCER,
        )
        return [start, end]

    def run_facets(self) -> dict[str, t.Any]:
        job = self.context.job_namespace, self.parent_job
        parent = parent_run.ParentRunFacet(
            run=parent_run.Run(runId=self.parent_run_id),
            job=parent_run.Job(namespace=job[0], name=job[1]),
            root=parent_run.Root(
                run=parent_run.RootRun(runId=self.parent_run_id),
                job=parent_run.RootJob(namespace=job[0], name=job[1]),
            ),
            producer=PRODUCER,
        )
        return {"parent": parent, "processing_engine": self.engine}

    def job_name(self, node: NodeExecution, where: Relation) -> str:
        """dbt-ol's: ``<database>.<schema>.<unique id without its type>``, then
        ``.build.run`` for a model in ``dbt build``, ``[.build].snapshot`` for a snapshot
        (dbt-ol sends no seed: ours follow the snapshot's pattern, ``[.build].seed``)."""
        resource = node.resource_type
        stem = node.unique_id.removeprefix(f"{resource}.")
        base = ".".join(part for part in (where.database, where.schema, stem) if part)
        build = self.execution.command == "build"
        if resource == "model":
            return f"{base}.build.run" if build else base
        return f"{base}.build.{resource}" if build else f"{base}.{resource}"

    def job_facets(
        self, node: NodeExecution, manifest_node: ManifestNode | None
    ) -> dict[str, t.Any]:
        facets: dict[str, t.Any] = {
            "jobType": job_type_job.JobTypeJobFacet(
                processingType="BATCH",
                integration="DBT",
                jobType=_JOB_TYPES[node.resource_type],
                producer=PRODUCER,
            )
        }
        if manifest_node is None:
            return facets
        if manifest_node.compiled_code:
            facets["sql"] = sql_job.SQLJobFacet(
                query=manifest_node.compiled_code,
                dialect=self.context.adapter_type,
                producer=PRODUCER,
            )
        if manifest_node.original_file_path:
            location = self.context.source.location(manifest_node.original_file_path)
            facets["sourceCodeLocation"] = source_code_location_job.SourceCodeLocationJobFacet(
                **location, producer=PRODUCER
            )
        return facets

    def inputs(self, node: NodeExecution) -> list[str]:
        """The relations the node read, ephemeral models replaced by what they read."""
        found: dict[str, None] = {}
        pending = [unique_id for unique_id, _ in node.inputs]
        while pending:
            unique_id = pending.pop(0)
            upstream = self.context.relations.get(unique_id)
            if upstream is not None and upstream.is_ephemeral:
                pending.extend(upstream.depends_on.nodes)
            elif (
                upstream is not None or unique_id in self.recorded
            ) and unique_id != node.unique_id:
                found.setdefault(unique_id)
        return list(found)

    def relation_of(self, unique_id: str) -> Relation | None:
        if unique_id in self.recorded:
            return self.recorded[unique_id]
        node = self.context.relations.get(unique_id)
        if node is None or node.is_ephemeral:
            return None
        return relation(node)

    @functools.cache  # noqa: B019 - one builder per invocation
    def dataset_of(self, unique_id: str) -> tuple[str, str] | None:
        where = self.relation_of(unique_id)
        return (self.context.dataset_namespace, where.dataset_name) if where else None

    @functools.cache  # noqa: B019
    def dataset_facets(self, unique_id: str) -> dict[str, t.Any]:
        columns = self.context.graph.columns.get(unique_id, {})
        namespace = self.context.dataset_namespace
        facets: dict[str, t.Any] = {
            "dataSource": datasource_dataset.DatasourceDatasetFacet(
                name=namespace, uri=namespace, producer=PRODUCER
            )
        }
        if columns:
            facets["schema"] = schema_dataset.SchemaDatasetFacet(
                fields=[
                    schema_dataset.SchemaDatasetFacetFields(
                        name=column.column,
                        type=column.data_type or None,
                        description=column.description or None,
                    )
                    for column in columns.values()
                ],
                producer=PRODUCER,
            )
        return facets

    def input_dataset(self, unique_id: str) -> InputDataset | None:
        dataset = self.dataset_of(unique_id)
        if dataset is None:
            return None
        return InputDataset(
            namespace=dataset[0], name=dataset[1], facets=self.dataset_facets(unique_id)
        )

    def output_dataset(
        self, node: NodeExecution, where: Relation, *, with_lineage: bool, rows: int | None = None
    ) -> OutputDataset:
        facets = dict(self.dataset_facets(node.unique_id))
        if with_lineage:
            lineage = self.column_lineage(node.unique_id)
            if lineage is not None:
                facets["columnLineage"] = lineage
        output_facets: dict[str, t.Any] = {}
        if rows is not None:
            output_facets["outputStatistics"] = (
                output_statistics_output_dataset.OutputStatisticsOutputDatasetFacet(
                    rowCount=rows, producer=PRODUCER
                )
            )
        return OutputDataset(
            namespace=self.context.dataset_namespace,
            name=where.dataset_name,
            facets=facets,
            outputFacets=output_facets,
        )

    @functools.cache  # noqa: B019
    def column_lineage(self, unique_id: str) -> t.Any:
        columns = list(self.context.graph.columns.get(unique_id, {}))
        return column_lineage(self.context.index, unique_id, columns, self.dataset_of, PRODUCER)


def _time(moment: datetime.datetime) -> str:
    """ISO 8601 in UTC with a ``Z``, as dbt-ol writes event times."""
    utc = moment.astimezone(datetime.timezone.utc)
    return utc.isoformat(timespec="microseconds").replace("+00:00", "Z")
