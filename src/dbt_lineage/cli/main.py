"""The ``dbt-lineage`` command: a thin click group; each command is a short call."""

from __future__ import annotations

import importlib
import sys
import traceback
import typing as t

import click

from dbt_lineage._version import __version__
from dbt_lineage.cli import exit_codes
from dbt_lineage.errors import DbtLineageError


class _Group(click.Group):
    """Loads each command when it is used; turns the project's errors and a wrong command
    line into one red ``Error:`` line and exit code 2 (``exit_codes.ERROR``, as dbt does for
    an error it could not handle), so that exit code 1 means a gate said no."""

    def main(self, *args: t.Any, standalone_mode: bool = True, **kwargs: t.Any) -> t.Any:
        if not standalone_mode:
            return super().main(*args, standalone_mode=False, **kwargs)
        try:
            code = super().main(*args, standalone_mode=False, **kwargs)
        except click.UsageError as error:
            command = error.ctx.command_path if error.ctx is not None else "dbt-lineage"
            message = " ".join(error.format_message().split())
            click.secho(f"Error: {message} (see `{command} --help`)", fg="red", err=True)
            sys.exit(exit_codes.ERROR)
        except click.ClickException as error:
            error.show()
            sys.exit(exit_codes.ERROR)
        except click.exceptions.Exit as done:
            sys.exit(done.exit_code)
        except click.Abort:
            click.echo("Aborted!", err=True)
            sys.exit(exit_codes.ERROR)
        if isinstance(code, int):  # ctx.exit(n): without standalone mode click returns n
            sys.exit(code)
        return code

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
    ctx.exit(exit_codes.ERROR)


@click.group(
    name="dbt-lineage", cls=_Group, context_settings={"help_option_names": ["-h", "--help"]}
)
@click.version_option(__version__, prog_name="dbt-lineage")
@click.option("--debug", is_flag=True, help="Show tracebacks.")
@click.pass_context
def cli(ctx: click.Context, debug: bool) -> None:
    """Column-level lineage, impact and run provenance for dbt projects."""
    ctx.ensure_object(dict)["debug"] = debug


def main() -> None:
    """Console-script entry point."""
    cli(prog_name="dbt-lineage")
