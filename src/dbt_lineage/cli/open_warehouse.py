"""The project's warehouse for a command, with the connection's warnings shown first."""

from __future__ import annotations

import contextlib
import typing as t

import click

from dbt_lineage.outputs.warehouse.connection import Warehouse, connection


@contextlib.contextmanager
def open_warehouse(
    project_dir: str,
    *,
    profiles_dir: str | None,
    target: str | None,
    cli_vars: str | None,
    create: bool = True,
) -> t.Iterator[Warehouse]:
    """``connection()`` for a command: its warnings go to stderr, one line each. A command
    that only reads passes ``create=False``: a DuckDB file that is not there is an error,
    not a new empty database."""
    with connection(
        project_dir, profiles_dir=profiles_dir, target=target, cli_vars=cli_vars, create=create
    ) as warehouse:
        for warning in warehouse.warnings:
            click.echo(f"warning: {warning}", err=True)
        yield warehouse
