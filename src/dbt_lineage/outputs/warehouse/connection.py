"""A connection to the user's warehouse through dbt's own profile and adapter.

dbt has no public Python API for "give me this project's adapter", so this uses the path
that dbt's adapter test framework (``dbt.tests.fixtures.project``, which every adapter's
test suite runs on) has kept stable since dbt-core 1.8: set dbt's flags from an
argparse namespace, build a ``RuntimeConfig`` from the project and profile, register
the adapter, and load dbt's built-in macros (the adapter's ``create_schema``,
``get_columns_in_relation`` and friends are macros). Installed packages are not loaded,
so no ``dbt deps`` is needed. dbt is imported lazily: it is an optional dependency.

dbt's log lines are silenced for the life of the connection, so a command's stdout holds
only its own output (``--format json`` stays parseable).
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import decimal
import os
import typing as t
from pathlib import Path

from dbt_lineage.errors import DbtLineageError, WarehouseError
from dbt_lineage.outputs.warehouse.dialect import Dialect, dialect


@dataclasses.dataclass(frozen=True)
class Warehouse:
    """An open dbt adapter connection and where the lineage tables live.

    Attributes:
        adapter: the dbt adapter, with a connection named ``dbt-lineage`` open.
        dialect: how to spell literals and types for this adapter.
        database: the lineage tables' database (var ``dbt_lineage_database``).
        schema: the lineage tables' schema (var ``dbt_lineage_schema``, by default
            ``<target schema>_lineage``, as the dbt package's hook writes them).
        project_name: the dbt project's name.
        target_name: the profile target in use.
        warnings: what the user should know about this connection (one line each).
        archive_schema: the schema the package's archive_history moves old runs to (var
            ``dbt_lineage_archive_schema``), if set.
    """

    adapter: t.Any
    dialect: Dialect
    database: str | None
    schema: str
    project_name: str
    target_name: str
    warnings: tuple[str, ...] = ()
    archive_schema: str | None = None

    def relation(self, table: str) -> str:
        """A lineage table's name as the adapter renders it (quoted per its policy)."""
        relation = self.adapter.Relation.create(
            database=self.database, schema=self.schema, identifier=table
        )
        return str(relation)

    def execute(self, sql: str, *, table: str = "") -> None:
        """Run one statement (inside the open transaction where the adapter has one)."""
        with self._refusal(table):
            self.adapter.execute(sql, auto_begin=self.dialect.transactional, fetch=False)

    def fetch(self, sql: str, *, table: str = "") -> list[dict[str, t.Any]]:
        """Run a query; its rows as dicts with lower-case column names.

        dbt returns agate tables, whose numbers are ``Decimal``: whole numbers come back
        as ``int`` and the rest as ``float``.
        """
        with self._refusal(table):
            _, result = self.adapter.execute(sql, auto_begin=False, fetch=True)
        names = [name.lower() for name in result.column_names]
        return [
            {name: _plain(value) for name, value in zip(names, row, strict=True)}
            for row in result.rows
        ]

    def columns(self, table: str) -> list[str]:
        """The lower-case column names of a lineage table; empty when it does not exist."""
        relation = self.adapter.Relation.create(
            database=self.database, schema=self.schema, identifier=table
        )
        with self._refusal(table):
            found = self.adapter.get_columns_in_relation(relation)
        return [column.name.lower() for column in found]

    def recorded_complete(self) -> str:
        """The SQL condition on ``lineage_invocations`` rows that are completely recorded:
        the hook writes an invocation's row last, with ``recorded_complete`` true. Rows
        written before that column existed (null, or no such column) count as complete."""
        if "recorded_complete" not in self.columns("lineage_invocations"):
            return "1 = 1"
        return "(recorded_complete is null or recorded_complete = true)"

    def create_schema(self) -> None:
        """Create the lineage schema unless it exists (checked first: a role may use a
        schema it could not create)."""
        with self._refusal(f"schema {self.schema}"):
            if self.adapter.check_schema_exists(self.database, self.schema):
                return
            relation = self.adapter.Relation.create(database=self.database, schema=self.schema)
            self.adapter.create_schema(relation)

    def commit(self) -> None:
        with self._refusal("commit"):
            self.adapter.commit_if_has_connection()

    def rollback(self) -> None:
        """Roll back the open transaction, if any; errors here are not worth reporting."""
        with contextlib.suppress(_dbt_error()):
            self.adapter.connections.rollback_if_open()

    @contextlib.contextmanager
    def _refusal(self, what: str) -> t.Iterator[None]:
        try:
            yield
        except _dbt_error() as error:
            from dbt.adapters.exceptions import FailedToConnectError

            if isinstance(error, FailedToConnectError):
                raise WarehouseError(
                    f"cannot connect to {self.dialect.name} (target {self.target_name}): "
                    f"{_one_line(error)}"
                ) from error
            where = f" on {what}" if what else ""
            raise WarehouseError(
                f"{self.dialect.name} refused{where} in schema {self.schema}: {_one_line(error)}"
            ) from error


@contextlib.contextmanager
def connection(
    project_dir: str | Path = ".",
    *,
    profiles_dir: str | Path | None = None,
    target: str | None = None,
    cli_vars: str | t.Mapping[str, t.Any] | None = None,
    create: bool = True,
) -> t.Iterator[Warehouse]:
    """Open the project's warehouse the way dbt would, for the duration of a ``with``.

    Args:
        project_dir: the dbt project directory.
        profiles_dir: where ``profiles.yml`` is; dbt's default when not given
            (``$DBT_PROFILES_DIR``, else the working directory if it has one, else
            ``~/.dbt``).
        target: the profile target; the profile's default when not given.
        cli_vars: vars as dbt's ``--vars`` takes them, a YAML string or a mapping (they
            can set ``dbt_lineage_schema`` and ``dbt_lineage_database``).
        create: whether a DuckDB database file that does not exist may be created (with a
            warning); a command that only reads refuses instead, creating nothing.

    Raises:
        DbtLineageError: dbt is not installed, or the project or profile cannot be loaded.
        WarehouseError: the adapter's type is not supported.
    """
    dbt = _import_dbt()
    project_dir = Path(project_dir).resolve()
    if not (project_dir / "dbt_project.yml").is_file():
        raise DbtLineageError("no dbt_project.yml: pass --project-dir", path=project_dir)
    dbt.set_invocation_context(os.environ)
    dbt.cleanup_event_logger()
    try:
        parsed = dbt.parse_cli_vars(cli_vars) if isinstance(cli_vars, str) else cli_vars
        args = argparse.Namespace(
            project_dir=str(project_dir),
            profiles_dir=str(_profiles_dir(profiles_dir)),
            target=target,
            profile=None,
            threads=None,
            vars=dict(parsed or {}),
        )
        dbt.set_from_args(args, {})
        config = dbt.RuntimeConfig.from_args(args)
    except _dbt_error() as error:
        raise DbtLineageError(
            f"cannot load the dbt project and profile: {_one_line(error)}", path=project_dir
        ) from error
    warehouse_dialect = dialect(config.credentials.type)
    warnings = _new_database(config.credentials)
    if warnings and not create:
        path = Path(config.credentials.path)
        raise WarehouseError(
            f"no DuckDB database at {path.resolve()} (profiles.yml's path {path} is read from "
            "the working directory): run from the directory dbt runs in, or give profiles.yml "
            "an absolute path; nothing was created"
        )
    # dbt registers one adapter per type and process, and keeps the first: one left by a dbt
    # command run earlier in this process (dbtRunner) would connect with that command's
    # profile (another database, say), not this one.
    dbt.reset_adapters()
    dbt.register_adapter(config, dbt.get_mp_context())
    adapter = dbt.get_adapter(config)
    try:
        manifest = dbt.ManifestLoader.load_macros(
            config, adapter.connections.set_query_header, base_macros_only=True
        )
    except _dbt_error() as error:
        dbt.reset_adapters()
        raise DbtLineageError(f"cannot load dbt's macros: {_one_line(error)}") from error
    adapter.set_macro_resolver(manifest)
    adapter.set_macro_context_generator(dbt.generate_runtime_macro_context)
    try:
        with adapter.connection_named("dbt-lineage"):
            yield Warehouse(
                adapter=adapter,
                dialect=warehouse_dialect,
                database=_var(config, "dbt_lineage_database") or config.credentials.database,
                schema=_var(config, "dbt_lineage_schema") or f"{config.credentials.schema}_lineage",
                project_name=config.project_name,
                target_name=config.target_name,
                warnings=warnings,
                archive_schema=_var(config, "dbt_lineage_archive_schema"),
            )
    finally:
        adapter.cleanup_connections()
        _release_database(adapter)
        dbt.reset_adapters()


def _release_database(adapter: t.Any) -> None:
    """Let go of an embedded database file (DuckDB), which dbt-duckdb keeps open for the
    process: a dbt run started afterwards could not take its lock."""
    manager = type(adapter.connections)
    environment = getattr(manager, "_ENV", None)
    close_all = getattr(manager, "close_all_connections", None)
    if environment is None or close_all is None:
        return
    close_all()
    with contextlib.suppress(Exception):
        environment.close()


def _new_database(credentials: t.Any) -> tuple[str, ...]:
    """A warning when DuckDB is about to create its database file: a relative ``path`` in
    profiles.yml is read from the working directory, so from elsewhere it names a new,
    empty database rather than the one dbt wrote."""
    if credentials.type != "duckdb":
        return ()
    path = str(getattr(credentials, "path", "") or "")
    if not path or path.startswith(":memory:") or "://" in path or path.startswith("md:"):
        return ()
    if Path(path).exists():
        return ()
    return (
        f"the DuckDB database {path} did not exist, so DuckDB creates an empty one at "
        f"{Path(path).resolve()}: run from the directory dbt ran in, or give profiles.yml "
        "an absolute path",
    )


class _Dbt(t.NamedTuple):
    set_invocation_context: t.Callable[..., t.Any]
    cleanup_event_logger: t.Callable[[], None]
    set_from_args: t.Callable[..., None]
    RuntimeConfig: t.Any  # noqa: N815 - dbt's class
    register_adapter: t.Callable[..., None]
    get_adapter: t.Callable[..., t.Any]
    get_mp_context: t.Callable[[], t.Any]
    ManifestLoader: t.Any  # noqa: N815 - dbt's class
    generate_runtime_macro_context: t.Callable[..., t.Any]
    reset_adapters: t.Callable[[], None]
    parse_cli_vars: t.Callable[[str], dict[str, t.Any]]


def _import_dbt() -> _Dbt:
    try:
        from dbt.adapters.factory import get_adapter, register_adapter, reset_adapters
        from dbt.config.runtime import RuntimeConfig
        from dbt.config.utils import parse_cli_vars
        from dbt.context.providers import generate_runtime_macro_context
        from dbt.flags import set_from_args
        from dbt.mp_context import get_mp_context
        from dbt.parser.manifest import ManifestLoader
        from dbt_common.context import set_invocation_context
        from dbt_common.events.event_manager_client import cleanup_event_logger
    except ImportError as error:
        raise DbtLineageError(
            "dbt-core is not installed here: install dbt-core and your adapter "
            f"(pip install 'dbt-lineage[dbt]' for DuckDB and Postgres) ({error.name})"
        ) from error
    return _Dbt(
        set_invocation_context,
        cleanup_event_logger,
        set_from_args,
        RuntimeConfig,
        register_adapter,
        get_adapter,
        get_mp_context,
        ManifestLoader,
        generate_runtime_macro_context,
        reset_adapters,
        parse_cli_vars,
    )


def _dbt_error() -> type[Exception]:
    from dbt_common.exceptions import DbtBaseException

    return DbtBaseException


def _profiles_dir(given: str | Path | None) -> Path:
    if given is not None:
        return Path(given).resolve()
    if os.environ.get("DBT_PROFILES_DIR"):
        return Path(os.environ["DBT_PROFILES_DIR"]).resolve()
    cwd = Path.cwd()
    return cwd if (cwd / "profiles.yml").is_file() else Path.home() / ".dbt"


def _var(config: t.Any, name: str) -> t.Any:
    """A var as the dbt_lineage package sees it: --vars, then the project's vars scoped to
    the package, then its global vars."""
    if name in (config.cli_vars or {}):
        return config.cli_vars[name]
    project_vars = config.vars.to_dict() if config.vars is not None else {}
    scoped = project_vars.get("dbt_lineage")
    if isinstance(scoped, dict) and name in scoped:
        return scoped[name]
    value = project_vars.get(name)
    return None if isinstance(value, dict) else value


def _plain(value: t.Any) -> t.Any:
    if isinstance(value, decimal.Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    return value


def _one_line(error: BaseException) -> str:
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    generic = {"Runtime Error", "Database Error", "Compilation Error", "Parsing Error"}
    return " ".join(line for line in lines if line not in generic) or type(error).__name__
