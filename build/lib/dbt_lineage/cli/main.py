"""The ``dbt-lineage`` command: a thin click group; each command is a short call."""

from __future__ import annotations

import importlib
import sys
import traceback
import typing as t

import click

from dbt_lineage._version import __version__
from dbt_lineage.errors import DbtLineageError


class _Group(click.Group):
    """Loads each command when it is used; turns the project's errors into one red
    ``Error:`` line and exit code 1."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        from dbt_lineage.cli.commands import COMMANDS

        return list(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        from dbt_lineage.cli.commands import COMMANDS

        target = COMMANDS.get(name)
        if target is None:
            return None
        module, _, attribute = target.partition(":")
        return getattr(importlib.import_module(module), attribute)

    def invoke(self, ctx: click.Context) -> t.Any:
        try:
            return super().invoke(ctx)
        except DbtLineageError as error:
            _fail(ctx, error.one_line())
        except (click.exceptions.Exit, click.ClickException, click.Abort):
            raise
        except Exception as error:  # noqa: BLE001 - the CLI boundary: no traceback for users
            _fail(
                ctx,
                f"{type(error).__name__}: {' '.join(str(error).split())} "
                "(rerun with --debug for the traceback, and please report it)",
            )


def _fail(ctx: click.Context, message: str) -> t.NoReturn:
    if (ctx.obj or {}).get("debug") or "--debug" in sys.argv:
        traceback.print_exc()
    click.secho(f"Error: {message}", fg="red", err=True)
    ctx.exit(1)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="dbt-lineage")
@click.option("--debug", is_flag=True, help="Show tracebacks.")
@click.pass_context
def cli(ctx: click.Context, debug: bool) -> None:
    """Column-level lineage, impact and run provenance for dbt projects."""
    ctx.ensure_object(dict)["debug"] = debug


def main() -> None:
    """Console-script entry point."""
    cli(prog_name="dbt-lineage")
