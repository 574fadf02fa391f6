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
output_format = click.option(
    "--format",
    "output_format",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
)
