"""Writing inherited classes and descriptions into YAML: only what is missing, a person's
values untouched, comments and formatting kept, a second run a no-op."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from dbt_lineage.artifacts.manifest import Manifest, ManifestMetadata, ManifestNode
from dbt_lineage.outputs.yaml_writeback import ColumnPatch, write_yaml
from dbt_lineage.types import ColumnRef

ORIGINAL = textwrap.dedent(
    """\
    version: 2

    models:
      # Marts: one row per business entity.
      - name: customers
        description: One row per customer.
        columns:
          - name: customer_id
            description: Primary key.  # the key
            data_tests: [unique, not_null]
          - name: email
            # classified by lineage
            description: "Contact email."
          - name: phone
            meta: {classification: confidential, owner: crm}

    exposures:
      - name: dashboard
        type: dashboard
        owner: {name: Finance}
    """
)
STG_EMAIL = ColumnRef("model.shop.stg_customers", "email")


def _manifest(*nodes: ManifestNode) -> Manifest:
    return Manifest(
        metadata=ManifestMetadata(dbt_schema_version="v12", project_name="shop"),
        nodes={node.unique_id: node for node in nodes},
    )


def _model(name: str, *, patch: str | None, package: str = "shop", **extra: object) -> ManifestNode:
    return ManifestNode(
        unique_id=f"model.{package}.{name}",
        resource_type="model",
        name=name,
        package_name=package,
        original_file_path=f"models/marts/{name}.sql",
        patch_path=f"{package}://{patch}" if patch else None,
        **extra,
    )


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    (tmp_path / "models" / "marts").mkdir(parents=True)
    (tmp_path / "models" / "marts" / "_marts.yml").write_text(ORIGINAL)
    return tmp_path


CUSTOMERS = _model("customers", patch="models/marts/_marts.yml")
EMAIL = ColumnRef(CUSTOMERS.unique_id, "email")


def test_adds_only_what_is_missing_and_keeps_everything_else(project: Path) -> None:
    path = project / "models" / "marts" / "_marts.yml"
    patches = [
        ColumnPatch(EMAIL, ("pii",), STG_EMAIL, 1),
        ColumnPatch(ColumnRef(CUSTOMERS.unique_id, "phone"), ("pii",), STG_EMAIL, 1),
        ColumnPatch(
            ColumnRef(CUSTOMERS.unique_id, "customer_id"),
            description="Id.",
            description_from=STG_EMAIL,
        ),
        ColumnPatch(
            ColumnRef(CUSTOMERS.unique_id, "signup_date"),
            description="Day the account was created.",
            description_from=ColumnRef("model.shop.stg_customers", "signup_date"),
            description_hops=1,
        ),
    ]
    result = write_yaml(project, _manifest(CUSTOMERS), patches)
    assert {(w.ref.column, w.what) for w in result.written} == {
        ("email", "classification"),
        ("signup_date", "description"),
    }
    kept = {k.ref.column: k.reason for k in result.kept}
    assert "written by a person" in kept["phone"]  # confidential stays, pii is not added
    assert "described by a person" in kept["customer_id"]
    assert result.files == (path,)
    expected = ORIGINAL.replace(
        '        description: "Contact email."\n',
        '        description: "Contact email."\n'
        "        meta:\n"
        "          classification: pii\n"
        "          dbt_lineage:\n"
        "            classification_from: {node: model.shop.stg_customers, column: email}\n"
        "            hops: 1\n",
    ).replace(
        "        meta: {classification: confidential, owner: crm}\n",
        "        meta: {classification: confidential, owner: crm}\n"
        "      - name: signup_date\n"
        "        description: Day the account was created.\n"
        "        meta:\n"
        "          dbt_lineage:\n"
        "            description_from: {node: model.shop.stg_customers, column: signup_date}\n"
        "            description_hops: 1\n",
    )
    assert expected != ORIGINAL
    assert path.read_text() == expected
    again = write_yaml(project, _manifest(CUSTOMERS), patches)
    assert again.written == () and again.files == ()


def test_updates_its_own_values_and_reports_stale_ones(project: Path) -> None:
    write_yaml(project, _manifest(CUSTOMERS), [ColumnPatch(EMAIL, ("pii",), STG_EMAIL, 1)])
    moved = ColumnRef("model.shop.int_customers", "email")
    result = write_yaml(
        project, _manifest(CUSTOMERS), [ColumnPatch(EMAIL, ("masked:pii", "pii"), moved, 2)]
    )
    assert [(w.ref, w.what) for w in result.written] == [(EMAIL, "classification")]
    text = (project / "models" / "marts" / "_marts.yml").read_text()
    assert "classification: [masked:pii, pii]" in text
    assert "classification_from: {node: model.shop.int_customers, column: email}" in text
    stale = write_yaml(project, _manifest(CUSTOMERS), [ColumnPatch(EMAIL, ())])
    assert stale.written == () and "no longer inherits" in stale.kept[0].reason
    assert "classification: [masked:pii, pii]" in (project / "models/marts/_marts.yml").read_text()


def test_a_model_without_yaml_gets_an_entry_in_its_folder(project: Path) -> None:
    orders = _model("orders", patch=None)
    ref = ColumnRef(orders.unique_id, "EMAIL")  # a catalog that upper-cases names
    result = write_yaml(project, _manifest(orders), [ColumnPatch(ref, ("pii",), STG_EMAIL, 2)])
    assert result.files == (project / "models" / "marts" / "_marts.yml",)
    text = result.files[0].read_text()
    assert text.startswith(ORIGINAL.split("\nexposures:")[0])
    assert "  - name: orders\n    columns:\n      - name: email\n        meta:\n" in text
    exposures = (
        "\nexposures:\n  - name: dashboard\n    type: dashboard\n    owner: {name: Finance}\n"
    )
    assert text.endswith(exposures)


def test_a_folder_without_models_yaml_gets_a_new_file(tmp_path: Path) -> None:
    (tmp_path / "models" / "marts").mkdir(parents=True)
    orders = _model("orders", patch=None)
    ref = ColumnRef(orders.unique_id, "email")
    result = write_yaml(tmp_path, _manifest(orders), [ColumnPatch(ref, ("pii",), STG_EMAIL, 2)])
    path = tmp_path / "models" / "marts" / "_marts__models.yml"
    assert result.files == (path,)
    assert path.read_text().startswith("version: 2\nmodels:\n  - name: orders\n    columns:\n")


def test_packages_versions_and_odd_files_are_not_written(project: Path) -> None:
    other = _model("ext", patch="models/ext.yml", package="vendor")
    versioned = _model("customers_v2", patch="models/marts/_marts.yml", version=2)
    odd = _model("odd", patch="models/marts/_odd.yml")
    (project / "models" / "marts" / "_odd.yml").write_text(
        "models:\n  - name: odd\n    columns:\n    - name: a\n      description: x\n"
        "  - name: other\n    columns:\n      - name: b\n"
    )
    patches = [
        ColumnPatch(ColumnRef(node.unique_id, "email"), ("pii",), STG_EMAIL, 1)
        for node in (other, versioned, odd)
    ]
    result = write_yaml(project, _manifest(other, versioned, odd), patches)
    assert result.written == () and result.files == ()
    reasons = [k.reason for k in result.kept]
    assert "in package vendor" in reasons[0]
    assert "versioned model" in reasons[1]
    assert "would reformat it" in reasons[2]


def test_meta_under_config_is_where_it_is_written(tmp_path: Path) -> None:
    (tmp_path / "models").mkdir()
    path = tmp_path / "models" / "m.yml"
    path.write_text(
        "models:\n- name: m\n  columns:\n  - name: email\n    config:\n      meta:\n"
        "        owner: crm\n"
    )
    model = _model("m", patch="models/m.yml")
    patch = ColumnPatch(ColumnRef(model.unique_id, "email"), ("pii",), STG_EMAIL, 1)
    write_yaml(tmp_path, _manifest(model), [patch])
    assert path.read_text() == (
        "models:\n- name: m\n  columns:\n  - name: email\n    config:\n      meta:\n"
        "        owner: crm\n        classification: pii\n        dbt_lineage:\n"
        "          classification_from: {node: model.shop.stg_customers, column: email}\n"
        "          hops: 1\n"
    )
