"""Options shared by several commands, declared once."""

from __future__ import annotations

import click

project_dir = click.option(
    "--project-dir",
    default=".",
    show_default=True,
    type=click.Path(file_okay=False),
    help="The dbt project directory.",
)
target_path = click.option(
    "--target-path",
    default=None,
    help="Where dbt wrote its artifacts (default: <project-dir>/target).",
)
lineage_path = click.option(
    "--lineage",
    "lineage_file",
    default=None,
    help="The lineage.json to read (default: <target-path>/lineage.json).",
)
no_index = click.option(
    "--no-index",
    is_flag=True,
    help="Read lineage.json itself, not the query index `build` writes beside it.",
)
output_format = click.option(
    "--format",
    "output_format",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
)

profiles_dir = click.option(
    "--profiles-dir",
    default=None,
    type=click.Path(file_okay=False),
    help="Where profiles.yml is (default: as dbt: $DBT_PROFILES_DIR, ., ~/.dbt).",
)
target = click.option("--target", "-t", default=None, help="The profile target (default: dbt's).")
dbt_vars = click.option(
    "--vars",
    "cli_vars",
    default=None,
    help="Vars as dbt's --vars takes them (YAML), e.g. '{dbt_lineage_schema: audit}'.",
)
