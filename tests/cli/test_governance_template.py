"""``classify``, ``docs --inherit`` and ``coverage`` end to end on the template, built by dbt.

The template's PII: ``raw_customers.email`` (``meta: {classification: pii}``, again on
``stg_customers.email``) and ``raw_customers.last_name`` (tag ``pii``, a class through the
var ``dbt_lineage_classification_tags``). ``customers`` copies both, and the
``weekly_revenue`` dashboard reads it; ``customer_contacts`` renames the email, hashes it
and masks it with the ``mask_email`` macro; ``signups_by_country`` counts it;
``shared_email_accounts`` only joins on it.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from tests.dbt_projects import REPO, dbt

from dbt_lineage.cli import main

pytestmark = pytest.mark.slow

SHOP = "model.shop"


def _run(project: Path, *args: str) -> Result:
    return CliRunner().invoke(main.cli, [*args, "--project-dir", str(project)])


def _json(project: Path, *args: str, code: int = 0) -> dict:
    result = _run(project, *args, "--format", "json")
    assert result.exit_code == code, result.output
    return json.loads(result.stdout)


def _private(built: Path, tmp_path_factory: pytest.TempPathFactory, name: str) -> Path:
    """A copy of the built template (artifacts and database too) that a test may change;
    its parent mirrors the repository so ``local: ../`` still finds our dbt package."""
    root = tmp_path_factory.mktemp(name)
    for entry in REPO.iterdir():
        if entry.name not in {".git", built.name}:
            (root / entry.name).symlink_to(entry)
    project = root / built.name
    shutil.copytree(built, project, symlinks=True)
    return project


@pytest.fixture(scope="module")
def built(template_project: Path) -> Path:
    result = _run(template_project, "build")
    assert result.exit_code == 0, result.output
    return template_project


def _classes(document: dict) -> dict[tuple[str, str], dict]:
    return {(c["node"], c["column"]): c for c in document["columns"]}


def test_each_derivation_gives_the_expected_class(built: Path) -> None:
    document = _json(built, "classify")
    carried = _classes(document)
    # an identity chain: stg_customers.email (declared) -> customers.email
    email = carried[(f"{SHOP}.customers", "email")]
    assert (email["label"], email["hops"], email["path_kinds"]) == ("pii", 1, ["identity"])
    assert email["origin"] == {"node": f"{SHOP}.stg_customers", "column": "email"}
    # a rename: customers.email as contact_email
    renamed = carried[(f"{SHOP}.customer_contacts", "contact_email")]
    assert (renamed["label"], renamed["hops"]) == ("pii", 2)
    assert renamed["path_kinds"] == ["identity", "identity"]
    # a hash, and the masking macro
    hashed = carried[(f"{SHOP}.customer_contacts", "email_hash")]
    assert (hashed["label"], hashed["masked_by"]) == ("masked:pii", "md5")
    macro = carried[(f"{SHOP}.customer_contacts", "masked_email")]
    assert (macro["label"], macro["masked_by"]) == ("masked:pii", "macro mask_email")
    # a tag listed as a class, through a source
    last_name = carried[(f"{SHOP}.customers", "last_name")]
    assert last_name["origin"] == {"node": "source.shop.ecom.raw_customers", "column": "last_name"}
    assert carried[("source.shop.ecom.raw_customers", "last_name")]["declared"] == "tag"
    # a count declassifies
    assert (f"{SHOP}.signups_by_country", "customers_with_email") not in carried
    [count] = document["declassified"]
    assert (count["node"], count["column"], count["reason"]) == (
        f"{SHOP}.signups_by_country",
        "customers_with_email",
        "count",
    )
    # a join key only: an inference risk, no class
    assert not any(node == f"{SHOP}.shared_email_accounts" for node, _ in carried)
    [risk] = document["inference_risks"]
    assert (risk["node"], risk["column"], risk["kind"], risk["source"]) == (
        f"{SHOP}.shared_email_accounts",
        None,
        "join",
        {"node": f"{SHOP}.stg_customers", "column": "email"},
    )
    # nothing else carries pii: ids, dates and amounts stay unclassified
    assert sorted(carried) == sorted(
        [
            ("source.shop.ecom.raw_customers", "email"),
            ("source.shop.ecom.raw_customers", "last_name"),
            (f"{SHOP}.stg_customers", "email"),
            (f"{SHOP}.stg_customers", "last_name"),
            (f"{SHOP}.customers", "email"),
            (f"{SHOP}.customers", "last_name"),
            (f"{SHOP}.customer_contacts", "contact_email"),
            (f"{SHOP}.customer_contacts", "email_hash"),
            (f"{SHOP}.customer_contacts", "masked_email"),
        ]
    )
    [reach] = document["exposures"]
    assert (reach["node"], reach["class"], reach["state"]) == (
        "exposure.shop.weekly_revenue",
        "pii",
        "unmasked",
    )


def test_text_lists_sources_and_the_dashboard(built: Path) -> None:
    result = _run(built, "classify", "--class", "pii")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "1 class on 9 columns, reaching 1 exposure"
    assert any(
        line.split()[:3] == ["model.shop.customer_contacts.email_hash", "masked:pii", "from"]
        and line.endswith("masked by md5")
        for line in lines
    )
    assert any(line.strip().startswith("exposure.shop.weekly_revenue") for line in lines)


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new))


def _rebuild(project: Path) -> None:
    dbt(project, "compile")
    result = _run(project, "build")
    assert result.exit_code == 0, result.output


def test_the_gate_fails_exactly_when_unmasked_pii_reaches_the_dashboard(
    built: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    gates = ("--fail-on-unmasked", "pii", "--fail-on-exposure", "phi")
    # the template: customers.email and last_name are read by the dashboard, unmasked
    failed = _run(built, "classify", *gates)
    assert failed.exit_code == 1
    assert failed.stderr.strip() == (
        "Error: --fail-on-unmasked pii: pii reaches an exposure unmasked: "
        "exposure.shop.weekly_revenue"
    )
    project = _private(built, tmp_path_factory, "gate")
    # the dashboard no longer reads customers: pii still exists unmasked, but reaches no
    # exposure
    marts = project / "models" / "marts" / "_marts.yml"
    _edit(marts, "      - ref('customers')\n", "")
    _rebuild(project)
    document = _json(project, "classify", *gates, "--fail-on-exposure", "pii")
    assert _classes(document)[(f"{SHOP}.customers", "email")]["label"] == "pii"
    assert [gate["passed"] for gate in document["gates"]] == [True, True, True]
    # it reads customers again, whose email and last name are now hashed: masked pii reaches
    # the dashboard, which --fail-on-unmasked accepts and --fail-on-exposure does not
    dashboard = "      - ref('fct_daily_revenue')\n"
    _edit(marts, dashboard, dashboard + "      - ref('customers')\n")
    _edit(
        project / "models" / "marts" / "customers.sql",
        "    customers.last_name,\n    customers.email,\n",
        "    md5(customers.last_name) as last_name,\n    md5(customers.email) as email,\n",
    )
    _rebuild(project)
    masked = _json(project, "classify", "--fail-on-unmasked", "pii")
    assert _classes(masked)[(f"{SHOP}.customers", "email")]["label"] == "masked:pii"
    assert [r["state"] for r in masked["exposures"]] == ["masked"]
    assert masked["gates"] == [
        {"option": "fail-on-unmasked", "class": "pii", "passed": True, "exposures": []}
    ]
    strict = _run(project, "classify", "--fail-on-exposure", "pii")
    assert strict.exit_code == 1
    assert "pii reaches an exposure: exposure.shop.weekly_revenue" in strict.stderr


def test_write_yaml_round_trips(built: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    project = _private(built, tmp_path_factory, "write")
    yaml_files = sorted(project.glob("models/**/*.yml")) + sorted(project.glob("snapshots/*.yml"))
    before = {path: path.read_text() for path in yaml_files}
    wrote = _run(project, "classify", "--write-yaml")
    assert wrote.exit_code == 0, wrote.output
    assert "Wrote 6 changes to models/marts/_marts.yml, models/staging/_staging.yml." in (
        wrote.stdout
    )
    docs = _run(project, "docs", "--inherit", "--write-yaml")
    assert docs.exit_code == 0, docs.output
    marts = project / "models" / "marts" / "_marts.yml"
    text = marts.read_text()
    # comments survive, and no line a person wrote changed: only lines were added
    assert "        # Not classified here on purpose: `dbt-lineage classify` finds that" in text
    for path, old in before.items():
        new = path.read_text().splitlines()
        kept = iter(new)
        assert all(line in kept for line in old.splitlines()), f"{path} lost or changed a line"
    assert (
        "      - name: email\n"
        "        # Not classified here on purpose: `dbt-lineage classify` finds that it "
        "inherits pii.\n"
        "        description: Contact email.\n"
        "        meta:\n"
        "          classification: pii\n"
        "          dbt_lineage:\n"
        "            classification_from: {node: model.shop.stg_customers, column: email}\n"
        "            hops: 1\n"
    ) in text
    assert "          classification: masked:pii\n" in text
    # a person's value is never touched: stg_customers.email keeps its flow mapping
    staging = (project / "models" / "staging" / "_staging.yml").read_text()
    assert "        meta: {classification: pii}\n" in staging
    # dbt reads what was written; a second run, on the new manifest, changes nothing
    _rebuild(project)
    written = {path: path.read_text() for path in yaml_files}
    for command in (["classify", "--write-yaml"], ["docs", "--inherit", "--write-yaml"]):
        again = _run(project, *command)
        assert again.exit_code == 0, again.output
        assert "YAML already up to date: nothing written." in again.stdout
    assert {path: path.read_text() for path in yaml_files} == written
    # and what was written reads back as inherited, not as declared
    document = _json(project, "classify")
    email = _classes(document)[(f"{SHOP}.customers", "email")]
    assert (email["declared"], email["hops"]) == (None, 1)


def test_docs_inherit_proposes_identity_copies(built: Path) -> None:
    document = _json(built, "docs", "--inherit")
    proposals = {(p["node"], p["column"]): p for p in document["proposals"]}
    renamed = proposals[(f"{SHOP}.customer_contacts", "contact_email")]
    assert renamed["description"] == "Contact email."
    assert (renamed["source"], renamed["hops"]) == (
        {"node": f"{SHOP}.customers", "column": "email"},
        1,
    )
    two_hops = proposals[(f"{SHOP}.orders", "order_date")]
    assert (two_hops["source"]["node"], two_hops["hops"]) == (f"{SHOP}.stg_orders", 2)
    # computed columns inherit nothing: a hash, a count, a cast
    computed = [
        ("customer_contacts", "email_hash"),
        ("customer_contacts", "masked_email"),
        ("signups_by_country", "customers_with_email"),
    ]
    for model, column in computed:
        assert (f"{SHOP}.{model}", column) not in proposals
    assert document["summary"] == {"proposals": 12}
    text = _run(built, "docs", "--inherit")
    assert "  model.shop.customer_contacts.contact_email" in text.stdout
    assert _run(built, "docs").exit_code == 2  # --inherit is the only mode


def test_impact_marks_inherited_descriptions(built: Path) -> None:
    document = _json(built, "impact", "stg_orders.order_date")
    columns = {(c["node"], c["column"]): c for c in document["columns"]}
    inherited = columns[(f"{SHOP}.orders", "order_date")]["description"]
    assert inherited == {
        "text": "Day the order was placed.",
        "inherited_from": {"node": f"{SHOP}.stg_orders", "column": "order_date"},
        "hops": 2,
    }
    own = columns[(f"{SHOP}.fct_daily_revenue", "order_date")]["description"]
    assert own == {"text": "Day.", "inherited_from": None, "hops": 0}
    text = _run(built, "impact", "stg_orders.order_date").stdout
    assert "      Day the order was placed. (inherited from model.shop.stg_orders.order_date)" in (
        text.splitlines()
    )


def test_coverage_json(built: Path) -> None:
    document = _json(built, "coverage", "--by", "layer")
    groups = {group["group"]: group for group in document["groups"]}
    assert sorted(groups) == ["intermediate", "marts", "seeds", "snapshots", "sources", "staging"]
    staging = groups["staging"]
    assert (staging["relations"], staging["columns"], staging["resolved"]) == (3, 17, 17)
    assert staging["documented"] == 17 and staging["percent"]["documented"] == 100.0
    # unique/not_null/accepted_values/relationships tests on 7 staging columns
    assert staging["tested"] == 7
    assert staging["classified"] == 2  # stg_customers.email and last_name
    marts = groups["marts"]
    assert marts["no_exposure"] == [
        f"{SHOP}.customer_contacts",
        f"{SHOP}.shared_email_accounts",
        f"{SHOP}.signups_by_country",
    ]
    assert marts["inherited_docs"] == 8
    assert groups["sources"]["percent"]["resolved"] is None  # lineage starts there
    # seeds: read by nothing but depends_on comments, their columns feed no column
    assert groups["seeds"]["orphans"] == groups["seeds"]["columns"] == 17
    total = document["total"]
    assert (total["relations"], total["models"], total["columns"]) == (18, 11, 107)
    assert (total["lineage_columns"], total["resolved"]) == (90, 90)
    assert (total["documented"], total["inherited_docs"]) == (61, 12)
    assert (total["tested"], total["classified"]) == (14, 9)
    assert document["thresholds"] == []


def test_coverage_thresholds_exit_codes(built: Path) -> None:
    passed = _run(built, "coverage", "--min-resolved", "100", "--min-documented", "50")
    assert passed.exit_code == 0, passed.output
    assert "--min-resolved 100: passed (resolved 100.0%)" in passed.stdout
    failed = _run(built, "coverage", "--min-resolved", "100", "--min-documented", "60")
    assert failed.exit_code == 1
    assert failed.stderr.strip() == "Error: --min-documented 60: documented is 57.0%"
    markdown = _run(built, "coverage", "--by", "resource_type", "--format", "markdown")
    assert "| **total** | **18** | **107** |" in markdown.stdout


def test_coverage_base_lists_lineage_breaks(
    built: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    base = tmp_path_factory.mktemp("breaks_base") / "target"
    shutil.copytree(built / "target", base)
    same = _run(built, "coverage", "--base", str(base), "--fail-on-break")
    assert same.exit_code == 0, same.output
    assert "Lineage breaks since the base: 0" in same.stdout

    # A pull request renames stg_customers.email; customers still reads `email`.
    head = _private(built, tmp_path_factory, "breaks_head")
    model = head / "models" / "staging" / "stg_customers.sql"
    model.write_text(model.read_text().replace("as email,", "as email_address,"))
    dbt(head, "run", "-s", "stg_customers")
    dbt(head, "docs", "generate")
    assert _run(head, "build").exit_code == 0

    document = _json(head, "coverage", "--base", str(base), code=0)
    breaks = {(b["node"], b["column"]): b for b in document["lineage_breaks"]}
    assert breaks[(f"{SHOP}.customers", "email")]["kind"] == "newly_unresolved"
    assert breaks[(f"{SHOP}.customers", "email")]["detail"].startswith("unknown_column")
    # the renamed model changed its SQL: the upstreams it lost are not breaks, but a
    # downstream model still reads the old name
    assert breaks[(f"{SHOP}.stg_customers", "email")]["detail"] == (
        f"unknown_column: read by {SHOP}.shared_email_accounts, not an output"
    )
    assert not any(b["kind"] == "lost_upstream" for b in breaks.values())

    gated = _run(head, "coverage", "--base", str(base), "--fail-on-break")
    assert gated.exit_code == 1
    assert f"{SHOP}.customers.email  newly_unresolved" in gated.stdout
    assert gated.stderr.strip().endswith("column(s) lost lineage since the base")
    assert _run(head, "coverage", "--fail-on-break").exit_code == 2
