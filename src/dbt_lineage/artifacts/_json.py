"""Read a dbt artifact file and check its schema version before anything else."""

from __future__ import annotations

import hashlib
import json
import re
import typing as t
from pathlib import Path

import pydantic

from dbt_lineage.errors import ArtifactError

_VERSION = re.compile(r"/(?P<kind>[a-z-]+)/v(?P<number>\d+)\.json$")


def read_artifact(
    path: Path, *, kind: str, supported: t.Sequence[int], checksum: bool = False
) -> dict[str, t.Any]:
    """Load ``path`` as JSON and check ``metadata.dbt_schema_version``.

    Args:
        path: the artifact file.
        kind: the artifact kind in dbt's schema URL (``manifest``, ``catalog``, ``run-results``).
        supported: the schema versions we read.
        checksum: also record the sha256 of the file's bytes as ``metadata._sha256``.

    Returns:
        The parsed JSON document.

    Raises:
        ArtifactError: the file is missing, not JSON, not this kind of artifact, or of a
            version we do not read.
    """
    if not path.is_file():
        raise ArtifactError(f"no {kind} file found", path=path)
    try:
        raw = path.read_bytes()
        document = json.loads(raw)
    except (OSError, ValueError) as error:
        raise ArtifactError(
            f"{kind} is not valid JSON ({_short(error)}): regenerate it with dbt", path=path
        ) from error
    if not isinstance(document, dict):
        raise ArtifactError(f"{kind} is not a JSON object: regenerate it with dbt", path=path)
    version_url = str((document.get("metadata") or {}).get("dbt_schema_version") or "")
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
    document["metadata"]["_schema_version_number"] = number
    if checksum:
        document["metadata"]["_sha256"] = hashlib.sha256(raw).hexdigest()
    return document


def _short(error: Exception) -> str:
    return " ".join(str(error).split())[:200]


Model = t.TypeVar("Model", bound=pydantic.BaseModel)


def validate_artifact(
    model: type[Model], document: dict[str, t.Any], *, path: Path, kind: str, remedy: str
) -> Model:
    """Validate ``document`` as ``model``; the first problem becomes a one-line error.

    Raises:
        ArtifactError: naming the field that is wrong and what to do (``remedy``).
    """
    try:
        return model.model_validate(document)
    except pydantic.ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        raise ArtifactError(
            f"{kind} is malformed at {where}: {first['msg']}; {remedy}", path=path
        ) from error
