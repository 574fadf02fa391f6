"""``dbt-lineage classify``: which columns carry a class (pii...), from where, and whether it
reaches an exposure unmasked; a CI gate; write inherited classes into the YAML.

Classification with the project's own rules is ``api.project_coverage.classify_project``,
which ``coverage`` shares.
"""

from __future__ import annotations

import sys

import click

from dbt_lineage.api.locate import load_lineage, target_dir
from dbt_lineage.api.project_coverage import classify_project
from dbt_lineage.artifacts.manifest import load_manifest
from dbt_lineage.cli import exit_codes, options
from dbt_lineage.cli.warn import warn
from dbt_lineage.graph.model import LineageGraph
from dbt_lineage.outputs.classify_json import classify_json
from dbt_lineage.outputs.classify_text import classify_text
from dbt_lineage.outputs.writeback_text import writeback_text
from dbt_lineage.outputs.yaml_writeback import ColumnPatch
from dbt_lineage.outputs.yaml_writeback import write_yaml as write_to_yaml
from dbt_lineage.queries.classification_report import OURS, CarriedClass, Classification
from dbt_lineage.types import ColumnRef


@click.command()
@options.project_dir
@options.target_path
@options.lineage_path
@options.output_format
@click.option(
    "--class",
    "only",
    multiple=True,
    metavar="CLASS",
    help="Only this class and its sub-classes (pii also shows pii:email); repeat for several.",
)
@click.option(
    "--fail-on-exposure",
    multiple=True,
    metavar="CLASS",
    help="Exit 1 when CLASS reaches any exposure, even masked (repeat for several).",
)
@click.option(
    "--fail-on-unmasked",
    multiple=True,
    metavar="CLASS",
    help="Exit 1 when CLASS reaches an exposure unmasked (repeat for several).",
)
@click.option(
    "--write-yaml",
    is_flag=True,
    help="Write inherited classes into the models' YAML meta (never over a person's value).",
)
def classify(
    project_dir: str,
    target_path: str | None,
    lineage_file: str | None,
    output_format: str,
    only: tuple[str, ...],
    fail_on_exposure: tuple[str, ...],
    fail_on_unmasked: tuple[str, ...],
    write_yaml: bool,
) -> None:
    """Every column that carries a class, where it came from, and the exposures it reaches.

    Classes come from a column's meta.classification and from the tags listed in the var
    dbt_lineage_classification_tags; they follow identity and transform edges, are masked
    by hashes and masking macros, and stop at counts.
    """
    if write_yaml and only:
        raise click.UsageError("--write-yaml writes every class of a column: drop --class")
    loaded = load_lineage(project_dir, target_path, lineage_file)
    warn(loaded.warnings)
    graph = loaded.graph
    target = target_dir(project_dir, target_path)
    gated = [*fail_on_exposure, *fail_on_unmasked]
    wanted = tuple(dict.fromkeys([*only, *gated])) if only else ()
    report = classify_project(graph, project_dir, target, only=wanted)
    gates = [report.gate(name.lower(), masked=True) for name in fail_on_exposure]
    gates += [report.gate(name.lower(), masked=False) for name in fail_on_unmasked]
    if output_format == "json":
        click.echo(classify_json(report, gates))
    else:
        click.echo(classify_text(report, gates))
    if write_yaml:
        manifest = load_manifest(target / "manifest.json")
        result = write_to_yaml(project_dir, manifest, _class_patches(graph, report))
        click.echo(writeback_text(result, project_dir), err=output_format == "json")
    failed = [gate for gate in gates if gate.failed]
    for gate in failed:
        how = "an exposure" if gate.masked else "an exposure unmasked"
        reached = ", ".join(sorted({reach.exposure for reach in gate.failed}))
        click.secho(
            f"Error: --{gate.option} {gate.name}: {gate.name} reaches {how}: {reached}",
            fg="red",
            err=True,
        )
    if failed:
        sys.exit(exit_codes.GATE)


def _class_patches(graph: LineageGraph, report: Classification) -> list[ColumnPatch]:
    """What ``--write-yaml`` writes: each inherited class list, with its nearest origin; and,
    to be reported, the resolved columns that no longer carry a class we wrote."""
    inherited: dict[ColumnRef, list[CarriedClass]] = {}
    for item in report.columns:
        if not item.declared:
            inherited.setdefault(item.ref, []).append(item)
    patches = []
    for ref, items in inherited.items():
        nearest = min(items, key=lambda item: (item.hops, item.label))
        labels = tuple(sorted(item.label for item in items))
        patches.append(ColumnPatch(ref, labels, nearest.origin, nearest.hops))
    for column in graph.column_nodes():
        ours = column.meta.get(OURS)
        stale = isinstance(ours, dict) and "classification_from" in ours
        # Only a column whose lineage is complete is known to carry nothing now.
        if stale and column.resolved and column.key not in inherited:
            patches.append(ColumnPatch(column.key, ()))
    return patches
