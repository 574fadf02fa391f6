"""Session-wide test setup: the dbt project fixtures, and the order the test files run in.

The suite runs on pytest-xdist's workers (``-n auto --dist loadfile`` in pyproject.toml): each
file runs whole on one worker, so a file's session fixtures (a Spark session, a built project)
are made once on that worker. Workers take files in collection order, so the files that take
longest go first; otherwise the last worker to start one of them finishes minutes after the
others (longest-first keeps the workers' finishing times within one short file).
"""

from __future__ import annotations

import pytest

pytest_plugins = ["tests.dbt_projects"]

# Longest first, as `pytest --durations=0` measured them; the rest keep their order.
LONGEST_FIRST = (
    "tests/macros/test_spark.py",
    "tests/macros/test_safety.py",
    "tests/macros/test_record_run.py",
    "tests/diff_pairs/test_pairs.py",
    "tests/resolve/test_project.py",
    "tests/cli/test_build.py",
    "tests/macros/test_dbt18.py",
    "tests/workflow/test_lineage_diff_workflow.py",
    "tests/workflow/test_broken_base.py",
    "tests/cli/test_diff.py",
    "tests/cli/test_publish.py",
    "tests/macros/test_kill.py",
    "tests/cli/test_trace.py",
    "tests/outputs/report/test_report_browser.py",
    "tests/outputs/openlineage/test_openlineage_http.py",
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    rank = {path: i for i, path in enumerate(LONGEST_FIRST)}
    root = config.rootpath

    def key(item: pytest.Item) -> int:
        return rank.get(item.path.relative_to(root).as_posix(), len(rank))

    items.sort(key=key)  # stable: the rest keep their order
