"""Read ``lineage.json`` back into a ``LineageGraph``."""

from __future__ import annotations

import typing as t
from pathlib import Path

import pydantic

from dbt_lineage.errors import ArtifactError
from dbt_lineage.graph.document import Document, decode
from dbt_lineage.graph.model import SCHEMA_VERSION, LineageGraph


def load_graph(path: str | Path) -> LineageGraph:
    """Load a graph written by ``dbt-lineage build``.

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
        document = Document.model_validate_json(raw)
    except pydantic.ValidationError as error:
        raise ArtifactError(_problem(error.errors()), path=path) from error
    return decode(document)


def _problem(errors: list[t.Any]) -> str:
    rerun = "rerun `dbt-lineage build`"
    for error in errors:
        if error["type"] == "json_invalid":
            return f"lineage.json is not valid JSON: {rerun}"
        if tuple(error["loc"]) == ("schema_version",):
            version = error.get("input")
            return (
                f"lineage.json has layout version {version}, this dbt-lineage reads "
                f"{SCHEMA_VERSION}: {rerun}"
            )
    first = errors[0]
    where = ".".join(str(part) for part in first["loc"])
    return f"lineage.json is malformed at {where}: {first['msg']}; {rerun}"
