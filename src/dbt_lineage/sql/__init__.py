"""The SQL engine: the column lineage of one query; it knows nothing of dbt.

An install compiles the engine's modules with mypyc (see ``setup.py``); Python then loads
them from the compiled files beside the sources. A source edited after it was compiled
would be ignored, silently: then every module of the engine is loaded from its source
instead (the compiled modules call each other directly, so it is all or none), with a
warning to install again. ``compiled.json``, written by the build, holds the digest of each
source compiled.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import sys
import types
import typing as t
import warnings
from pathlib import Path

_HERE = Path(__file__).parent


def _stale() -> list[str]:
    """The engine's compiled modules whose source differs from the one compiled."""
    compiled = {
        path.name.split(".")[0]
        for suffix in importlib.machinery.EXTENSION_SUFFIXES
        for path in _HERE.glob(f"*{suffix}")
    }
    try:
        digests = json.loads((_HERE / "compiled.json").read_text())
    except (OSError, ValueError):
        return sorted(compiled)  # compiled files without the record of their sources
    if not compiled:
        _missing(sorted(digests))
        return []
    return sorted(
        name
        for name in compiled
        if (_HERE / f"{name}.py").is_file()
        and hashlib.sha256((_HERE / f"{name}.py").read_bytes()).hexdigest() != digests.get(name)
    )


def _missing(names: list[str]) -> None:
    """Warn (once: at the engine's import) that the compiled modules a build recorded are
    gone, so that the engine runs from source, slower."""
    if names:
        warnings.warn(
            f"dbt-lineage: the compiled SQL engine is missing ({len(names)} module(s) recorded "
            f"in {_HERE / 'compiled.json'}, none found): running the source, which is slower; "
            "install the package again (pip install -e .) to compile it",
            RuntimeWarning,
            stacklevel=3,
        )


class _FromSource(importlib.abc.MetaPathFinder):
    """Finds the engine's modules as sources, ahead of their compiled files."""

    def find_spec(
        self,
        fullname: str,
        path: t.Sequence[str] | None,
        target: types.ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        package, _, module = fullname.rpartition(".")
        source = _HERE / f"{module}.py"
        if package != __name__ or not source.is_file():
            return None
        return importlib.util.spec_from_file_location(fullname, source)


_STALE = _stale()
if _STALE:
    warnings.warn(
        f"dbt-lineage: the compiled SQL engine differs from its source "
        f"({', '.join(name + '.py' for name in _STALE)}): running the source, which is "
        "slower; install the package again (pip install -e .) to compile it",
        RuntimeWarning,
        stacklevel=2,
    )
    sys.meta_path.insert(0, _FromSource())
