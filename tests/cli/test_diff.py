"""``dbt-lineage diff`` end to end on pairs of the template built with real dbt (DuckDB).

The base is the template built and documented. ``noise`` is the same project built into
another schema (as a pull request's CI schema is). ``pull_request`` is a copy of the base
(its warehouse included) with several edits at once, compiled and documented again, as a
CI job does for the head of a pull request:

- orders: LEFT JOIN becomes INNER JOIN (breaking);
- stg_payments: amount's CAST widened (retyped: partial);
- stg_customers: country_code dropped while signups_by_country still reads it (block);
- shared_email_accounts: first_customer_id renamed older_customer_id (renamed: partial);
- customers: a column added (non_breaking);
- int_customer_orders: a comment changed (none);
- customer_contacts: a tag added in config (metadata).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from tests.dbt_projects import REPO, copy_project, dbt

from dbt_lineage.cli import main
from dbt_lineage.outputs.diff_markdown import BUDGET, MARKER

pytestmark = pytest.mark.slow


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new))


@pytest.fixture(scope="module")
def noise(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The template built into schema ci_pr_42 instead of main."""
    project = copy_project(REPO / "dbt_project_template", tmp_path_factory.mktemp("noise"))
    _edit(
        project / "profiles.yml",
        "      schema: main\n      threads: 4",
        "      schema: ci_pr_42\n      threads: 4",
    )
    dbt(project, "build")
    dbt(project, "docs", "generate")
    return project


@pytest.fixture(scope="module")
def pull_request(template_project: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    project = copy_project(REPO / "dbt_project_template", tmp_path_factory.mktemp("pr"))
    shutil.copy(template_project / "shop.duckdb", project / "shop.duckdb")
    models = project / "models"
    _edit(models / "marts" / "orders.sql", "left join payments", "inner join payments")
    _edit(models / "staging" / "stg_payments.sql", "decimal(12, 2)", "decimal(14, 2)")
    _edit(
        models / "staging" / "stg_customers.sql",
        ",\n        upper(country_code) as country_code",
        "",
    )
    _edit(
        models / "marts" / "shared_email_accounts.sql",
        "older.customer_id as first_customer_id",
        "older.customer_id as older_customer_id",
    )
    _edit(
        models / "marts" / "customers.sql",
        "    customers.country_code,\n",
        "    customers.country_code,\n"
        "    customers.first_name || ' ' || customers.last_name as full_name,\n",
    )
    _edit(
        models / "intermediate" / "int_customer_orders.sql",
        "-- Orders in the order each customer placed them.",
        "-- Each customer's orders, numbered in the order they were placed.",
    )
    contacts = models / "marts" / "customer_contacts.sql"
    contacts.write_text("{{ config(tags=['contacts']) }}\n" + contacts.read_text())
    dbt(project, "compile")
    dbt(project, "docs", "generate")
    return project


@pytest.fixture(scope="module")
def contract_pr(template_project: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """customer_contacts gets an enforced contract that still declares masked_email, which
    its SQL drops; stg_orders drops status, which a data test still tests."""
    project = copy_project(REPO / "dbt_project_template", tmp_path_factory.mktemp("contract"))
    shutil.copy(template_project / "shop.duckdb", project / "shop.duckdb")
    marts = project / "models" / "marts"
    _edit(marts / "customer_contacts.sql", ",\n    {{ mask_email('email') }} as masked_email", "")
    _edit(
        marts / "_marts.yml",
        "    description: Customers marketing may write to.\n    columns:\n"
        "      - name: email_hash\n"
        "        description: MD5 of the email, to match audiences without sharing addresses.\n",
        "    description: Customers marketing may write to.\n"
        "    config:\n      contract:\n        enforced: true\n    columns:\n"
        "      - name: customer_id\n        data_type: integer\n"
        "      - name: contact_email\n        data_type: varchar\n"
        "      - name: email_hash\n        data_type: varchar\n"
        "      - name: masked_email\n        data_type: varchar\n",
    )
    _edit(project / "models" / "staging" / "stg_orders.sql", "    status,\n", "")
    dbt(project, "compile")
    dbt(project, "docs", "generate")
    return project


def _diff(base: Path, head: Path, *args: str) -> Result:
    return CliRunner().invoke(
        main.cli,
        ["diff", "--base", str(base / "target"), "--head", str(head / "target"),
         "--project-dir", str(head), *args],
        catch_exceptions=False,
    )  # fmt: skip


def _document(base: Path, head: Path, *args: str) -> dict:
    result = _diff(base, head, "--format", "json", *args)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_the_same_project_in_another_schema_is_no_change(
    template_project: Path, noise: Path
) -> None:
    document = _document(template_project, noise)
    assert document["verdict"] == "info"
    assert document["changes"] == []
    assert document["broken_references"] == []
    assert _diff(template_project, noise, "--fail-on", "review").exit_code == 0


def test_each_edit_gets_its_class_and_column_changes(
    template_project: Path, pull_request: Path
) -> None:
    document = _document(template_project, pull_request)
    changes = {c["node"].split(".")[-1]: c for c in document["changes"]}
    assert changes["orders"]["class"] == "breaking"
    assert "JOIN" in changes["orders"]["reasons"][0]
    assert changes["stg_payments"]["class"] == "partial"
    assert changes["stg_payments"]["columns"] == {"amount": "retyped"}
    assert changes["stg_customers"]["columns"] == {"country_code": "removed"}
    assert changes["shared_email_accounts"]["class"] == "partial"
    assert changes["shared_email_accounts"]["columns"] == {
        "older_customer_id": "renamed_from:first_customer_id"
    }
    assert changes["customers"]["class"] == "non_breaking"
    assert changes["customers"]["columns"] == {"full_name": "added"}
    assert changes["int_customer_orders"]["class"] == "none"
    assert changes["customer_contacts"]["class"] == "metadata"
    assert set(changes) == {
        "orders", "stg_payments", "stg_customers", "shared_email_accounts", "customers",
        "int_customer_orders", "customer_contacts",
    }  # fmt: skip


def test_a_dropped_column_still_read_downstream_blocks(
    template_project: Path, pull_request: Path
) -> None:
    document = _document(template_project, pull_request)
    assert document["verdict"] == "block"
    broken = {(b["node"], b["reference"]["column"]) for b in document["broken_references"]}
    assert ("model.shop.signups_by_country", "country_code") in broken
    assert all(b["path"].startswith("models/") for b in document["broken_references"])


def test_impact_reaches_exposures_at_column_precision(
    template_project: Path, pull_request: Path
) -> None:
    document = _document(template_project, pull_request)
    impacted = document["impacted"]
    exposure = {e["node"]: e for e in impacted["exposures"]}["exposure.shop.weekly_revenue"]
    assert exposure["type"] == "dashboard"
    assert exposure["owner"]["name"] == "Finance Analytics"
    columns = {(c["node"], c["column"]): c for c in impacted["columns"]}
    # orders' join became inner: every column downstream of orders changes, customers' too
    assert ("model.shop.customers", "lifetime_value") in columns
    assert ("model.shop.fct_daily_revenue", "revenue") in columns
    # a renamed column nobody reads impacts nothing
    assert not any(node == "model.shop.shared_email_accounts" for node, _ in columns)


def test_select_limits_the_comparison(template_project: Path, pull_request: Path) -> None:
    document = _document(template_project, pull_request, "--select", "shared_email_accounts")
    assert [c["node"] for c in document["changes"]] == ["model.shop.shared_email_accounts"]
    # a renamed column of a model nothing reads: no one downstream is hit
    assert document["verdict"] == "info"
    (change,) = document["changes"]
    assert any(r.startswith("no downstream reader") for r in change["reasons"])


def test_fail_on_and_formats(template_project: Path, pull_request: Path, tmp_path: Path) -> None:
    assert _diff(template_project, pull_request, "--fail-on", "block").exit_code == 1
    assert _diff(template_project, pull_request, "--fail-on", "review").exit_code == 1
    markdown = _diff(template_project, pull_request, "--format", "markdown")
    assert markdown.exit_code == 0
    lines = markdown.stdout.splitlines()
    assert lines[0] == MARKER and "block" in lines[1]
    assert "```mermaid" in markdown.stdout and len(markdown.stdout) <= BUDGET
    text = _diff(template_project, pull_request)
    assert text.stdout.startswith("Verdict: block")
    page = tmp_path / "diff.html"
    html = _diff(template_project, pull_request, "--format", "html", "--output", str(page))
    assert html.exit_code == 1 or html.exit_code == 0
    assert "dbt-lineage-data" in page.read_text()


def test_a_base_manifest_alone_is_enough(
    template_project: Path, pull_request: Path, tmp_path: Path
) -> None:
    downloaded = tmp_path / "prod-manifest.json"
    shutil.copy(template_project / "target" / "manifest.json", downloaded)
    result = CliRunner().invoke(
        main.cli,
        ["diff", "--base", str(downloaded), "--head", str(pull_request / "target"),
         "--project-dir", str(pull_request), "--format", "json"],
        catch_exceptions=False,
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["verdict"] == "block"


def test_bad_input_is_one_line(pull_request: Path, tmp_path: Path) -> None:
    result = _diff(tmp_path / "nowhere", pull_request)
    assert result.exit_code == 2
    # a diff that could not answer is not a gate that said no: CI tells them apart
    assert _diff(tmp_path / "nowhere", pull_request, "--fail-on", "review").exit_code == 2
    assert result.stderr.count("\n") == 1 and "--base" in result.stderr
    assert _diff(pull_request, pull_request, "--fail-on", "maybe").exit_code == 2
    # a broken manifest given alone is named as the user gave it
    broken = tmp_path / "prod-manifest.json"
    broken.write_text('{"metadata":')
    result = CliRunner().invoke(
        main.cli,
        ["diff", "--base", str(broken), "--head", str(pull_request / "target"),
         "--project-dir", str(pull_request)],
    )  # fmt: skip
    assert result.exit_code == 2
    (line,) = result.stderr.strip().splitlines()
    assert "not valid JSON" in line and line.endswith(f"({broken})")


def test_a_broken_contract_and_a_test_on_a_dropped_column_block(
    template_project: Path, contract_pr: Path
) -> None:
    document = _document(template_project, contract_pr)
    assert document["verdict"] == "block"
    broken = {
        (b["reference"]["kind"], b["reference"]["column"]): b for b in document["broken_references"]
    }
    contract = broken["contract", "masked_email"]
    assert contract["node"] == "model.shop.customer_contacts"
    assert contract["path"] == "models/marts/customer_contacts.sql"
    test = broken["test", "status"]
    assert test["node"].startswith("test.shop.accepted_values_stg_orders_status")
    reader = broken["removed", "status"]
    assert reader["node"] == "model.shop.int_customer_orders"
