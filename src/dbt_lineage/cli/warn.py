"""Print the warnings the API returns (it never prints them itself)."""

from __future__ import annotations

import typing as t

import click


def warn(warnings: t.Iterable[str | None]) -> None:
    """Print each warning (None: none) on standard error, in yellow, one line each."""
    for warning in warnings:
        if warning:
            click.secho(warning, fg="yellow", err=True)
