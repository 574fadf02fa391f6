"""The vars dbt-lineage reads: dbt_project.yml (global and project-scoped), dbt_lineage.yml."""

from __future__ import annotations

from pathlib import Path

import pytest

from dbt_lineage.artifacts.project_vars import project_vars
from dbt_lineage.errors import ConfigError


def test_project_scoped_vars_win_and_dbt_lineage_yml_wins_over_both(tmp_path: Path) -> None:
    (tmp_path / "dbt_project.yml").write_text(
        "name: shop\n"
        "vars:\n"
        "  dbt_lineage_classification_tags: [pii]\n"
        "  dbt_lineage_masking_macros: [mask]\n"
        "  start_date: '{{ env_var(\"START\") }}'\n"
        "  shop:\n"
        "    dbt_lineage_masking_macros: [mask_email]\n"
    )
    assert project_vars(tmp_path) == {
        "dbt_lineage_classification_tags": ["pii"],
        "dbt_lineage_masking_macros": ["mask_email"],
        "start_date": '{{ env_var("START") }}',
    }
    (tmp_path / "dbt_lineage.yml").write_text("dbt_lineage_classification_tags: [pii, phi]\n")
    assert project_vars(tmp_path)["dbt_lineage_classification_tags"] == ["pii", "phi"]


def test_no_files_no_vars(tmp_path: Path) -> None:
    assert project_vars(tmp_path) == {}


def test_bad_yaml_names_the_file(tmp_path: Path) -> None:
    (tmp_path / "dbt_lineage.yml").write_text("tags: [pii\n")
    with pytest.raises(ConfigError, match="cannot read dbt_lineage.yml") as error:
        project_vars(tmp_path)
    assert error.value.path == str(tmp_path / "dbt_lineage.yml")
    (tmp_path / "dbt_lineage.yml").write_text("- pii\n")
    with pytest.raises(ConfigError, match="not a YAML mapping"):
        project_vars(tmp_path)
