"""Build dbt-lineage, with its SQL engine (``src/dbt_lineage/sql``) compiled by mypyc.

The engine walks every column of every query; compiled, its classes are native and its
calls direct, which takes about a fifth off its time (see ``benchmarks/bench_manifest.py``).
sqlglot ships the same way (``sqlglot[c]``). The metadata is in ``pyproject.toml``; this file
only adds the compiled modules.

Compiling is optional: with ``DBT_LINEAGE_PURE_PYTHON=1``, or when mypyc is missing or the C
compiler fails, the package installs as pure Python and behaves the same, only slower.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path

from setuptools import setup

ENGINE = Path("src", "dbt_lineage", "sql")
GROUP = "dbt_lineage_sql"
COMPILED = "compiled.json"


def compiled_engine() -> list:
    """The engine's modules as mypyc extensions, each optional; none when not wanted.

    Beside them goes ``COMPILED``: each compiled module's source digest, by which
    ``dbt_lineage.sql`` knows a source edited since (and then runs the sources).
    """
    earlier = [*ENGINE.glob("*.so"), *ENGINE.glob("*.pyd"), *Path("src").glob(f"{GROUP}__*")]
    for leftover in (*earlier, ENGINE / COMPILED):
        leftover.unlink(missing_ok=True)  # an earlier in-place build's
    if os.environ.get("DBT_LINEAGE_PURE_PYTHON"):
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        return []
    sources = sorted(path for path in ENGINE.glob("*.py") if path.name != "__init__.py")
    try:
        # Only the engine's own modules are checked strictly: the rest of the package, which
        # mypy follows through imports (dbt_lineage/__init__.py names the public API for type
        # checkers), is analysed for types but its errors cannot stop the engine compiling.
        paths = ["--follow-imports=silent", *map(str, sources)]
        extensions = mypycify(paths, opt_level="3", group_name=GROUP)
    except (Exception, SystemExit) as error:  # mypy found an error: exits the build otherwise
        print(f"dbt-lineage: SQL engine not compiled ({error!r}): pure Python", file=sys.stderr)
        return []
    for extension in extensions:
        extension.optional = True  # a failed compile leaves the pure-Python module
    digests = {path.stem: hashlib.sha256(path.read_bytes()).hexdigest() for path in sources}
    (ENGINE / COMPILED).write_text(json.dumps(digests, indent=1, sort_keys=True) + "\n")
    return extensions


setup(ext_modules=compiled_engine())
