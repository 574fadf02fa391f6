"""Read ``lineage.json`` back into a ``LineageGraph``."""

from __future__ import annotations

import typing as t
from pathlib import Path

import pydantic
import pydantic_core

from dbt_lineage._version import __version__
from dbt_lineage.errors import ArtifactError
from dbt_lineage.graph.decode import decode
from dbt_lineage.graph.document import DOCUMENT
from dbt_lineage.graph.model import SCHEMA_VERSION, LineageGraph

_RERUN = "rerun `dbt-lineage build`"


def load_graph(path: str | Path) -> LineageGraph:
    """Load a graph written by ``dbt-lineage build``.

    A file this version of dbt-lineage wrote (its ``metadata`` says so) is read as parsed,
    without pydantic's check of every entry: at 10,000 models the check held the file's
    text, a parse tree and the entries at once (500 MB) and cost a second. Any other file
    is checked entry by entry.

    Raises:
        ArtifactError: the file is missing, unreadable, from another layout version, or
            not a lineage.json.
    """
    path = Path(path)
    if not path.is_file():
        raise ArtifactError("no lineage.json: run `dbt-lineage build` first", path=path)
    try:
        raw = path.read_bytes()
    except OSError as error:
        raise ArtifactError(f"cannot read lineage.json ({error.strerror})", path=path) from error
    try:
        document = pydantic_core.from_json(raw)
    except ValueError as error:
        raise ArtifactError(f"lineage.json is not valid JSON: {_RERUN}", path=path) from error
    del raw  # the text, before the graph is made
    if not _ours(document):
        try:
            document = DOCUMENT.validate_python(document)
        except pydantic.ValidationError as error:
            raise ArtifactError(_problem(error.errors()), path=path) from error
        return decode(t.cast(dict[str, t.Any], document))
    try:
        return decode(document)
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise ArtifactError(
            f"lineage.json is malformed ({type(error).__name__}: {error}); {_RERUN}", path=path
        ) from error


def _ours(document: t.Any) -> bool:
    """Whether ``document`` says this version of dbt-lineage wrote it."""
    if not isinstance(document, dict) or document.get("schema_version") != SCHEMA_VERSION:
        return False
    metadata = document.get("metadata")
    return isinstance(metadata, dict) and metadata.get("dbt_lineage_version") == __version__


def _problem(errors: list[t.Any]) -> str:
    for error in errors:
        if tuple(error["loc"]) == ("schema_version",):
            version = error.get("input")
            return (
                f"lineage.json has layout version {version}, this dbt-lineage reads "
                f"{SCHEMA_VERSION}: {_RERUN}"
            )
    first = errors[0]
    where = ".".join(str(part) for part in first["loc"])
    return f"lineage.json is malformed at {where}: {first['msg']}; {_RERUN}"
