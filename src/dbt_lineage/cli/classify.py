"""``dbt-lineage classify``: which columns carry a class (pii...), from where, and whether it
reaches an exposure unmasked; a CI gate; write inherited classes into the YAML.

Also home to what ``docs`` and ``coverage`` share with it: where the target directory is,
and classification with the project's own rules.
"""

from __future__ import annotations

import sys
import typing as t
from pathlib import Path

import click

from dbt_lineage.artifacts.manifest import load_manifest
from dbt_lineage.artifacts.project_vars import project_vars
from dbt_lineage.artifacts.raw_code import raw_code
from dbt_lineage.cli import exit_codes, options
from dbt_lineage.cli.impact import load_lineage
from dbt_lineage.graph.model import LineageGraph
from dbt_lineage.outputs.classify_json import classify_json
from dbt_lineage.outputs.classify_text import classify_text
from dbt_lineage.outputs.writeback_text import writeback_text
from dbt_lineage.outputs.yaml_writeback import ColumnPatch
from dbt_lineage.outputs.yaml_writeback import write_yaml as write_to_yaml
from dbt_lineage.queries.classification import classification
from dbt_lineage.queries.classification_report import OURS, CarriedClass, Classification
from dbt_lineage.queries.classification_rules import classification_rules
from dbt_lineage.queries.masking_macros import masking_macros
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
    graph = load_lineage(project_dir, target_path, lineage_file)
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


def classify_project(
    graph: LineageGraph, project_dir: str, target: Path, *, only: t.Sequence[str] = ()
) -> Classification:
    """Classification with the project's rules (its vars) and its masking macros."""
    rules = classification_rules(project_vars(project_dir))
    masked = {}
    if rules.masking_macros:
        masked = masking_macros(graph, raw_code(target / "manifest.json"), rules.masking_macros)
    return classification(graph, rules, only=only, masked_columns=masked)


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


def target_dir(project_dir: str, target_path: str | None) -> Path:
    """Where dbt wrote its artifacts: ``--target-path`` (relative to the project), else
    ``<project-dir>/target``."""
    target = Path(target_path) if target_path else Path("target")
    return target if target.is_absolute() else Path(project_dir) / target
