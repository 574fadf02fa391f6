"""Relation names as compiled SQL writes them, mapped back to dbt node ids."""

from __future__ import annotations

from dbt_lineage.resolve.relations import RelationIndex


def test_bigquery_qualified_names_match_only_in_their_own_case() -> None:
    index = RelationIndex("bigquery")
    index.add_name("`proj`.`ds`.`MyTable`", "model.p.my_table")
    assert index.lookup(("proj", "ds", "MyTable")) == "model.p.my_table"
    assert index.lookup(("ds", "MyTable")) == "model.p.my_table"
    assert index.lookup(("proj", "ds", "mytable")) is None
    assert index.lookup(("DS", "MyTable")) is None


def test_other_warehouses_still_match_ignoring_case() -> None:
    index = RelationIndex("snowflake")
    index.add_name('"ANALYTICS"."PUBLIC"."ORDERS"', "model.p.orders")
    assert index.lookup(("analytics", "public", "orders")) == "model.p.orders"
