"""Classification propagation on graphs built in code: each rule of issue 10, one test each."""

from __future__ import annotations

import typing as t

import pytest

from dbt_lineage.errors import ConfigError
from dbt_lineage.graph.model import (
    ColumnNode,
    EdgeType,
    ExposureNode,
    LineageEdge,
    LineageGraph,
    LineageNode,
    NodeType,
    RelationNode,
)
from dbt_lineage.queries.classification import classification
from dbt_lineage.queries.classification_rules import classification_rules
from dbt_lineage.types import ColumnRef, EdgeKind

SRC = "source.p.crm.people"
STG = "model.p.stg_people"
MART = "model.p.mart"
DASH = "exposure.p.dashboard"


def _graph(
    edges: list[tuple[ColumnRef, ColumnRef | str, str, str]],
    *,
    meta: dict[ColumnRef, dict[str, t.Any]] | None = None,
    tags: dict[ColumnRef, tuple[str, ...]] | None = None,
    exposure_reads: tuple[str, ...] = (),
    adapter: str = "duckdb",
) -> LineageGraph:
    """Relations holding every column the edges name; ``edges`` are (source, target, kind,
    expression); a target that is a string is a relation (a row-set edge)."""
    from dbt_lineage.graph.model import GraphMetadata

    refs = {ref for source, target, _, _ in edges for ref in (source, target)}
    refs |= set(meta or {}) | set(tags or {})
    nodes: dict[str, LineageNode] = {}
    columns: dict[str, dict[str, ColumnNode]] = {}
    for ref in refs:
        node_id = ref.node_id if isinstance(ref, ColumnRef) else ref
        node_type = NodeType.SOURCE if node_id.startswith("source.") else NodeType.MODEL
        nodes.setdefault(node_id, RelationNode(node_id=node_id, type=node_type, name=node_id))
        columns.setdefault(node_id, {})
        if isinstance(ref, ColumnRef):
            columns[node_id][ref.column] = ColumnNode(
                node_id=node_id,
                column=ref.column,
                type=NodeType.COLUMN,
                name=ref.column,
                meta=(meta or {}).get(ref, {}),
                tags=(tags or {}).get(ref, ()),
            )
    graph_edges = []
    for source, target, kind, expression in edges:
        edge_kind = EdgeKind(kind)
        edge_type = EdgeType.DIRECT if edge_kind.is_direct else EdgeType.INDIRECT
        graph_edges.append(LineageEdge(source, target, edge_type, edge_kind, expression))
    if exposure_reads:
        nodes[DASH] = ExposureNode(
            node_id=DASH, type=NodeType.EXPOSURE, name="Dashboard", exposure_type="dashboard"
        )
        graph_edges += [LineageEdge(r, DASH, EdgeType.DEPENDS) for r in exposure_reads]
    return LineageGraph(
        metadata=GraphMetadata(adapter_type=adapter),
        nodes=nodes,
        columns=columns,
        edges=graph_edges,
    )


EMAIL = ColumnRef(SRC, "email")
PII = {EMAIL: {"classification": "pii"}}


def _labels(graph: LineageGraph, **kwargs: t.Any) -> dict[ColumnRef, set[str]]:
    found: dict[ColumnRef, set[str]] = {}
    for item in classification(graph, **kwargs).columns:
        found.setdefault(item.ref, set()).add(item.label)
    return found


def test_identity_chain_and_rename_inherit_with_origin_hops_and_path() -> None:
    stg, mart = ColumnRef(STG, "email"), ColumnRef(MART, "contact_email")
    graph = _graph(
        [(EMAIL, stg, "identity", "people.email"), (stg, mart, "identity", "s.email")], meta=PII
    )
    carried = {item.ref: item for item in classification(graph).columns}
    assert carried[mart].label == "pii"
    assert (carried[mart].origin, carried[mart].hops) == (EMAIL, 2)
    assert carried[mart].path_kinds == ("identity", "identity")
    assert carried[mart].via == stg
    assert carried[EMAIL].declared == "meta"


@pytest.mark.parametrize(
    ("expression", "adapter", "masked_by"),
    [
        ("MD5(s.email)", "duckdb", "md5"),
        ("SHA256(LOWER(s.email))", "duckdb", "sha256"),
        ("TO_HEX(SHA256(s.email))", "bigquery", "sha256"),
        ("FARM_FINGERPRINT(s.email)", "bigquery", "farm_fingerprint"),
        ("SHA2(s.email, 256)", "snowflake", "sha2"),
        ("HASH(s.email)", "snowflake", "hash"),
    ],
)
def test_a_hash_masks(expression: str, adapter: str, masked_by: str) -> None:
    hashed = ColumnRef(MART, "email_hash")
    graph = _graph([(EMAIL, hashed, "transform", expression)], meta=PII, adapter=adapter)
    [item] = [c for c in classification(graph).columns if c.ref == hashed]
    assert (item.label, item.masked_by) == ("masked:pii", masked_by)


def test_a_transform_that_does_not_hash_every_use_inherits() -> None:
    out = ColumnRef(MART, "key")
    graph = _graph([(EMAIL, out, "transform", "MD5(s.email) || s.email")], meta=PII)
    assert _labels(graph)[out] == {"pii"}


def test_lower_and_trim_inherit() -> None:
    out = ColumnRef(STG, "email")
    graph = _graph([(EMAIL, out, "transform", "LOWER(TRIM(people.email))")], meta=PII)
    assert _labels(graph)[out] == {"pii"}


def test_counts_declassify_and_say_why() -> None:
    count, distinct = ColumnRef(MART, "n"), ColumnRef(MART, "n_distinct")
    graph = _graph(
        [
            (EMAIL, count, "aggregate", "COUNT(s.email)"),
            (EMAIL, distinct, "aggregate", "COALESCE(COUNT(DISTINCT s.email), 0)"),
        ],
        meta=PII,
    )
    report = classification(graph)
    assert {item.ref for item in report.columns} == {EMAIL}
    assert {(d.ref, d.reason, d.source) for d in report.declassified} == {
        (count, "count", EMAIL),
        (distinct, "count", EMAIL),
    }


def test_other_aggregates_follow_the_policy() -> None:
    first, average = ColumnRef(MART, "first_email"), ColumnRef(MART, "avg_len")
    graph = _graph(
        [
            (EMAIL, first, "aggregate", "MIN(s.email)"),
            (EMAIL, average, "aggregate", "AVG(LENGTH(s.email))"),
        ],
        meta=PII,
    )
    assert _labels(graph)[first] == {"pii"} and _labels(graph)[average] == {"pii"}
    rules = classification_rules(
        {"dbt_lineage_aggregate_policy": {"default": "mask", "avg": "declassify"}}
    )
    labels = _labels(graph, rules=rules)
    assert labels[first] == {"masked:pii"}
    assert average not in labels


def test_indirect_use_only_is_an_inference_risk_not_a_class() -> None:
    key = ColumnRef(STG, "email")
    pair = ColumnRef(MART, "customer_id")
    graph = _graph(
        [
            (EMAIL, key, "identity", "people.email"),
            (ColumnRef(STG, "id"), pair, "identity", "a.id"),
            (key, MART, "join", "a.email = b.email"),
        ],
        meta=PII,
        exposure_reads=(MART,),
    )
    report = classification(graph)
    assert MART not in {item.ref.node_id for item in report.columns}
    [risk] = report.risks
    assert (risk.target, risk.name, risk.source, risk.kind) == (MART, "pii", key, "join")
    [reach] = report.exposures
    assert (reach.exposure, reach.state) == (DASH, "inference_risk")
    assert not report.gate("pii", masked=True).failed


def test_a_join_into_a_relation_that_carries_the_class_is_no_risk() -> None:
    key = ColumnRef(STG, "email")
    graph = _graph(
        [
            (EMAIL, key, "identity", "people.email"),
            (key, ColumnRef(MART, "email"), "identity", "a.email"),
            (key, MART, "join", "a.email = b.email"),
        ],
        meta=PII,
    )
    assert classification(graph).risks == ()


def test_meta_masks_and_masking_macros_mask_what_flows_in() -> None:
    redacted, by_macro = ColumnRef(MART, "redacted"), ColumnRef(MART, "by_macro")
    graph = _graph(
        [
            (EMAIL, redacted, "transform", "REGEXP_REPLACE(s.email, '.', '*')"),
            (EMAIL, by_macro, "transform", "REGEXP_REPLACE(s.email, '^[^@]+', '***')"),
        ],
        meta={**PII, redacted: {"masks": ["pii"]}},
    )
    report = classification(graph, masked_columns={by_macro: "mask_email"})
    by_ref = {item.ref: item for item in report.columns}
    assert (by_ref[redacted].label, by_ref[redacted].masked_by) == ("masked:pii", "meta masks")
    assert (by_ref[by_macro].label, by_ref[by_macro].masked_by) == (
        "masked:pii",
        "macro mask_email",
    )


def test_configured_masking_function() -> None:
    out = ColumnRef(MART, "token")
    graph = _graph([(EMAIL, out, "transform", "TOKENIZE(s.email)")], meta=PII)
    assert _labels(graph)[out] == {"pii"}
    rules = classification_rules({"dbt_lineage_masking_functions": ["tokenize"]})
    assert _labels(graph, rules=rules)[out] == {"masked:pii"}


def test_unmasked_path_wins_over_a_shorter_masked_one() -> None:
    stg, mart = ColumnRef(STG, "email"), ColumnRef(MART, "email")
    graph = _graph(
        [
            (EMAIL, stg, "identity", "people.email"),
            (EMAIL, mart, "transform", "MD5(people.email)"),
            (stg, mart, "identity", "s.email"),
        ],
        meta=PII,
    )
    [item] = [c for c in classification(graph).columns if c.ref == mart]
    assert (item.label, item.hops, item.path_kinds) == ("pii", 2, ("identity", "identity"))


def test_tags_listed_as_classes_and_subclasses() -> None:
    name, phone = ColumnRef(SRC, "name"), ColumnRef(SRC, "phone")
    graph = _graph(
        [
            (name, ColumnRef(STG, "name"), "identity", "p.name"),
            (phone, ColumnRef(STG, "phone"), "identity", "p.phone"),
        ],
        meta={phone: {"classification": ["pii:phone", "confidential"]}},
        tags={name: ("pii", "reviewed")},
    )
    assert ColumnRef(STG, "name") not in _labels(graph)  # the tag is not a class by default
    rules = classification_rules({"dbt_lineage_classification_tags": ["PII"]})
    labels = _labels(graph, rules=rules)
    assert labels[ColumnRef(STG, "name")] == {"pii"}
    assert labels[ColumnRef(STG, "phone")] == {"pii:phone", "confidential"}
    only_pii = _labels(graph, rules=rules, only=["pii"])
    assert only_pii[ColumnRef(STG, "phone")] == {"pii:phone"}


def test_gates_fail_on_the_exposures_the_class_reaches() -> None:
    plain, hashed = ColumnRef(MART, "email"), ColumnRef(MART, "email_hash")
    edges = [(EMAIL, hashed, "transform", "MD5(s.email)")]
    masked_only = classification(_graph(edges, meta=PII, exposure_reads=(MART,)))
    assert not masked_only.gate("pii", masked=False).failed
    assert [r.state for r in masked_only.gate("pii", masked=True).failed] == ["masked"]
    edges.append((EMAIL, plain, "identity", "s.email"))
    unmasked = classification(_graph(edges, meta=PII, exposure_reads=(MART,)))
    [reach] = unmasked.gate("pii", masked=False).failed
    assert (reach.exposure, reach.state, reach.columns) == (DASH, "unmasked", (plain,))
    assert not unmasked.gate("phi", masked=True).failed


def test_values_written_by_write_yaml_are_recomputed_not_declared() -> None:
    stg = ColumnRef(STG, "email")
    ours = {"classification": "pii", "dbt_lineage": {"classification_from": {}, "hops": 1}}
    graph = _graph([(EMAIL, stg, "identity", "s.email")], meta={stg: ours})
    assert _labels(graph) == {}  # the origin is gone: what we wrote declares nothing


def test_bad_rules_say_which_var() -> None:
    with pytest.raises(ConfigError, match="dbt_lineage_aggregate_policy"):
        classification_rules({"dbt_lineage_aggregate_policy": "forget"})
    with pytest.raises(ConfigError, match="dbt_lineage_classification_tags"):
        classification_rules({"dbt_lineage_classification_tags": {"pii": True}})
