"""The compiled engine: installed compiled, never run stale, and its docstrings' examples
hold."""

from __future__ import annotations

import ast
import doctest
import importlib
import importlib.machinery
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import dbt_lineage
import dbt_lineage.sql

ENGINE = Path(dbt_lineage.sql.__file__).parent
MODULES = sorted(path.stem for path in ENGINE.glob("*.py") if path.name != "__init__.py")
COMPILED = tuple(importlib.machinery.EXTENSION_SUFFIXES)


def test_every_engine_module_is_compiled():
    """setup.py compiles the engine; a type error mypyc rejects turns that off, silently in
    pip's output, so it is checked here (the suite runs on a compiled install)."""
    loaded = {name: importlib.import_module(f"dbt_lineage.sql.{name}").__file__ for name in MODULES}
    compiled = sorted(name for name, path in loaded.items() if str(path).endswith(COMPILED))
    assert compiled == MODULES, (
        "the SQL engine should be compiled by `pip install -e .` (see setup.py); run it with "
        "-v to see mypyc's errors"
    )


def _import_in(root: Path) -> subprocess.CompletedProcess[str]:
    code = "import dbt_lineage.sql.scope_walk as m; print(m.__file__)"
    env = {**os.environ, "PYTHONPATH": str(root), "PYTHONWARNINGS": "default"}
    return subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )


def test_a_source_edited_after_compiling_runs_from_source(tmp_path):
    package = Path(dbt_lineage.__file__).parent
    shutil.copytree(package, tmp_path / "dbt_lineage")
    for group in package.parent.glob("dbt_lineage_sql__mypyc*"):
        shutil.copy2(group, tmp_path)

    fresh = _import_in(tmp_path)
    assert fresh.stdout.strip().endswith(COMPILED)
    assert "RuntimeWarning" not in fresh.stderr

    stars = tmp_path / "dbt_lineage" / "sql" / "stars.py"
    stars.write_text(stars.read_text() + "\n# edited\n")
    edited = _import_in(tmp_path)
    assert edited.stdout.strip() == str(tmp_path / "dbt_lineage" / "sql" / "scope_walk.py")
    assert "compiled SQL engine differs from its source (stars.py)" in edited.stderr


@pytest.mark.parametrize(
    "name", [name for name in MODULES if ">>>" in (ENGINE / f"{name}.py").read_text()]
)
def test_docstring_examples(name):
    """Each module's examples, run against the module as installed (compiled modules keep
    no docstrings, and pytest's own doctest collection would load the sources instead: it
    ignores the engine's directory, see pyproject.toml)."""
    module = importlib.import_module(f"dbt_lineage.sql.{name}")
    path = ENGINE / f"{name}.py"
    parser, runner = doctest.DocTestParser(), doctest.DocTestRunner()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef)):
            text = ast.get_docstring(node)
            if text and ">>>" in text:
                where = getattr(node, "name", name)
                runner.run(parser.get_doctest(text, dict(vars(module)), where, str(path), 0))
    results = runner.summarize(verbose=False)
    assert results.attempted and not results.failed
