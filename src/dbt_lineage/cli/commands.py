"""The list of commands the CLI offers; each lives in its own module."""

from __future__ import annotations

from dbt_lineage.cli.build import build

COMMANDS = [build]
