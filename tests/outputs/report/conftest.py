"""Fixtures the report's browser tests share: one Chromium per module, the template's report."""

from __future__ import annotations

import typing as t
from pathlib import Path

import pytest
from click.testing import CliRunner
from tests.outputs.report.browser import browser

from dbt_lineage.cli import main


@pytest.fixture(scope="module")
def chromium() -> t.Iterator[t.Any]:
    with browser() as instance:
        yield instance


@pytest.fixture(scope="module")
def template_report(template_project: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    output = tmp_path_factory.mktemp("report") / "lineage.html"
    result = CliRunner().invoke(
        main.cli, ["report", "--project-dir", str(template_project), "--output", str(output)]
    )
    assert result.exit_code == 0, result.output
    return output
