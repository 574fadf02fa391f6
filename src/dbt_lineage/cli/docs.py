"""``dbt-lineage docs --inherit``: descriptions for undocumented columns that copy a
documented one, printed with their source, written into the YAML on request."""

from __future__ import annotations

import click

from dbt_lineage.api.locate import load_lineage, target_dir
from dbt_lineage.artifacts.manifest import load_manifest
from dbt_lineage.cli import options
from dbt_lineage.cli.warn import warn
from dbt_lineage.outputs.docs_json import docs_json
from dbt_lineage.outputs.docs_text import docs_text
from dbt_lineage.outputs.writeback_text import writeback_text
from dbt_lineage.outputs.yaml_writeback import ColumnPatch
from dbt_lineage.outputs.yaml_writeback import write_yaml as write_to_yaml
from dbt_lineage.queries.doc_inheritance import doc_inheritance
from dbt_lineage.queries.edge_index import edge_index


@click.command()
@options.project_dir
@options.target_path
@options.lineage_path
@options.output_format
@click.option(
    "--inherit",
    is_flag=True,
    help="Propose descriptions for undocumented columns that are identity copies (renames "
    "included) of documented ones.",
)
@click.option(
    "--write-yaml",
    is_flag=True,
    help="Write the proposals into the models' YAML (never over a person's description).",
)
def docs(
    project_dir: str,
    target_path: str | None,
    lineage_file: str | None,
    output_format: str,
    inherit: bool,
    write_yaml: bool,
) -> None:
    """Documentation from lineage: with --inherit, the description each undocumented column
    inherits from the documented column it copies, with its source."""
    if not inherit:
        raise click.UsageError("give --inherit (propose inherited descriptions)")
    loaded = load_lineage(project_dir, target_path, lineage_file)
    warn(loaded.warnings)
    graph = loaded.graph
    proposals = doc_inheritance(graph, index=edge_index(graph)).inherited()
    if output_format == "json":
        click.echo(docs_json(proposals))
    else:
        click.echo(docs_text(proposals))
    if write_yaml:
        manifest = load_manifest(target_dir(project_dir, target_path) / "manifest.json")
        patches = [
            ColumnPatch(
                ref,
                description=found.text,
                description_from=found.source,
                description_hops=found.hops,
            )
            for ref, found in proposals.items()
        ]
        result = write_to_yaml(project_dir, manifest, patches)
        click.echo(writeback_text(result, project_dir), err=output_format == "json")
