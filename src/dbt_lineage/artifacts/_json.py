"""Read a dbt artifact file: its schema version first, then the parts we use, validated.

The version is read from the head of the file (dbt writes ``metadata`` first), so a file
of another kind or version is refused before the rest is parsed. The body is validated by
pydantic straight from the bytes: the fields a model does not declare are skipped without
ever becoming Python objects, which keeps a large manifest's load fast and small.
"""

from __future__ import annotations

import json
import re
import typing as t
from pathlib import Path

import pydantic

from dbt_lineage.errors import ArtifactError

_VERSION = re.compile(r"/(?P<kind>[a-z-]+)/v(?P<number>\d+)\.json$")
_VERSION_FIELD = re.compile(rb'"dbt_schema_version"\s*:\s*"([^"]*)"')
_HEAD = 65536


class ArtifactModel(pydantic.BaseModel):
    """The base of every model of a dbt artifact: unknown fields ignored, frozen."""

    model_config = pydantic.ConfigDict(extra="ignore", populate_by_name=True, frozen=True)


Model = t.TypeVar("Model", bound=pydantic.BaseModel)


class Artifact(t.NamedTuple, t.Generic[Model]):
    """A validated artifact, its raw bytes and its schema version number."""

    model: Model
    raw: bytes
    version: int


_MISSING = {
    "manifest": "run `dbt compile` (or `dbt build`) first",
    "catalog": "run `dbt docs generate` first",
    "run-results": "run `dbt build` first",
}
"""What to run when an artifact of this kind is missing."""


def read_artifact(
    path: Path,
    model: type[Model],
    *,
    kind: str,
    supported: t.Sequence[int],
    remedy: str,
) -> Artifact[Model]:
    """Read ``path``, check its ``metadata.dbt_schema_version``, validate it as ``model``.

    Args:
        path: the artifact file.
        model: the pydantic model of the parts we read.
        kind: the artifact kind in dbt's schema URL (``manifest``, ``catalog``, ``run-results``).
        supported: the schema versions we read.
        remedy: what to tell the user to do when the file is malformed.

    Raises:
        ArtifactError: the file is missing, not JSON, not this kind of artifact, of a
            version we do not read, or malformed.
    """
    if not path.is_file():
        raise ArtifactError(
            f"no {kind} file found: {_MISSING.get(kind, 'run dbt first')}, or pass "
            "--project-dir or --target-path",
            path=path,
        )
    try:
        raw = path.read_bytes()
    except OSError as error:
        raise ArtifactError(f"cannot read the {kind} ({error.strerror})", path=path) from error
    number = _version(raw, path, kind, supported)
    try:
        validated = model.model_validate_json(raw)
    except pydantic.ValidationError as error:
        raise ArtifactError(_problem(error, kind, remedy), path=path) from error
    return Artifact(validated, raw, number)


def _version(raw: bytes, path: Path, kind: str, supported: t.Sequence[int]) -> int:
    found = _VERSION_FIELD.search(raw, 0, _HEAD)
    if found is not None:
        version_url = found.group(1).decode("utf-8", "replace")
    else:  # metadata not at the head: read it the slow way
        try:
            document = json.loads(raw)
        except ValueError as error:
            raise ArtifactError(
                f"{kind} is not valid JSON ({_short(error)}): regenerate it with dbt", path=path
            ) from error
        if not isinstance(document, dict):
            raise ArtifactError(f"{kind} is not a JSON object: regenerate it with dbt", path=path)
        metadata = document.get("metadata")
        version_url = str(
            (metadata if isinstance(metadata, dict) else {}).get("dbt_schema_version") or ""
        )
    match = _VERSION.search(version_url)
    wanted = ", ".join(f"v{number}" for number in supported)
    if not match or match.group("kind") != kind:
        raise ArtifactError(
            f"not a dbt {kind} artifact (dbt_schema_version {version_url or 'missing'}); "
            f"expected {kind} {wanted}",
            path=path,
        )
    number = int(match.group("number"))
    if number not in supported:
        raise ArtifactError(
            f"unsupported {kind} version v{number}; dbt-lineage reads {kind} {wanted} "
            "(dbt 1.6 to 1.12): regenerate it with a supported dbt version",
            path=path,
        )
    return number


def _problem(error: pydantic.ValidationError, kind: str, remedy: str) -> str:
    first = error.errors()[0]
    if first["type"] == "json_invalid":
        return f"{kind} is not valid JSON ({_short(first['msg'])}): regenerate it with dbt"
    where = ".".join(str(part) for part in first["loc"]) or "the top level"
    return f"{kind} is malformed at {where}: {first['msg']}; {remedy}"


def _short(error: Exception | str) -> str:
    return " ".join(str(error).split())[:200]
