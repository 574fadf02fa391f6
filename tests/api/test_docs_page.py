"""The examples of docs/python-api.md run, and print what the page says they print, on the
template built with real dbt (DuckDB), from the directory that holds it."""

from __future__ import annotations

import doctest
import io
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

PAGE = Path(__file__).resolve().parents[2] / "docs" / "python-api.md"


def test_the_examples_on_the_page_run(
    template_project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(template_project.parent)
    text = PAGE.read_text()
    test = doctest.DocTestParser().get_doctest(text, {}, PAGE.name, str(PAGE), 0)
    assert len(test.examples) >= 25, "the page lost its examples"
    report = io.StringIO()
    runner = doctest.DocTestRunner(
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE | doctest.REPORT_NDIFF
    )
    runner.run(test, out=report.write)
    assert runner.failures == 0, report.getvalue()
