"""Hard shapes of BigQuery, Databricks and Snowflake projects, for the shapes generator:

- **arrays of structs**: BigQuery ``CROSS JOIN UNNEST(o.items) AS item`` then ``item.sku``;
  Databricks ``LATERAL VIEW explode(o.items) t AS item``; Snowflake
  ``TABLE(FLATTEN(INPUT => ...))`` (not ``LATERAL FLATTEN``) with ``f.value:sku``;
- **struct stars**: ``c.profile.address.*`` (BigQuery), ``c.profile.*`` (Databricks);
- **PIVOT and UNPIVOT over a CTE**, in each dialect's syntax;
- **unions of different widths**: ``SELECT *`` of two base models of different widths.

Each maker takes ``(rng, adapter, bases, sources, index)`` and returns the model's name, its
upstream ids and its SQL with ``__REL__<unique_id>__`` placeholders. The raw tables declare
no columns, and there is no catalog: a tool infers them from the SQL or says it cannot.
"""

from __future__ import annotations

import random
import typing as t

Maker = t.Callable[[random.Random, str, list, list, int], tuple[str, list[str], str]]

METRICS = ("clicks", "views", "signups", "refunds")


def _rel(unique_id: str) -> str:
    return f"__REL__{unique_id}__"


def unnest_structs(
    rng: random.Random, adapter: str, bases: list, sources: list, index: int
) -> tuple[str, list[str], str]:
    """One row per element of an array of structs held by a raw table."""
    source = rng.choice(sources)
    fields = rng.sample(("sku", "label", "price", "qty", "kind"), 3)
    reads = ",\n    ".join(f"item.{field} as item_{field}" for field in fields)
    if adapter == "bigquery":
        joined = "cross join unnest(o.items) as item"
    elif adapter == "databricks":
        joined = "lateral view explode(o.items) exploded as item"
    else:
        joined = ", table(flatten(input => o.items)) as f"
        reads = ",\n    ".join(f"f.value:{field}::varchar as item_{field}" for field in fields)
        reads += ",\n    f.index as item_position"
    sql = (
        f"with orders as (\n    select * from {_rel(source.unique_id)}\n)\n"
        f"select\n    o.id,\n    o.updated_at,\n    {reads}\nfrom orders as o\n{joined}\n"
    )
    return f"unnested_{index}", [source.unique_id], sql


def struct_star(
    rng: random.Random, adapter: str, bases: list, sources: list, index: int
) -> tuple[str, list[str], str]:
    """The fields of a struct column, by a star over it (a nested one in BigQuery)."""
    source = rng.choice(sources)
    star = "c.profile.address.*" if adapter == "bigquery" else "c.profile.*"
    sql = f"select\n    c.id,\n    c.updated_at,\n    {star}\nfrom {_rel(source.unique_id)} as c\n"
    return f"struct_star_{index}", [source.unique_id], sql


def pivot_cte(
    rng: random.Random, adapter: str, bases: list, sources: list, index: int
) -> tuple[str, list[str], str]:
    """A PIVOT over a CTE: one column per listed metric, aggregating the value."""
    source = rng.choice(sources)
    metrics = rng.sample(METRICS, 2)
    listed = ", ".join(f"'{m}'" for m in metrics)
    sql = (
        f"with base as (\n    select id, metric, metric_value from {_rel(source.unique_id)}\n)\n"
        f"select * from base\npivot (max(metric_value) for metric in ({listed}))\n"
    )
    return f"pivoted_{index}", [source.unique_id], sql


def unpivot_cte(
    rng: random.Random, adapter: str, bases: list, sources: list, index: int
) -> tuple[str, list[str], str]:
    """An UNPIVOT over a CTE: quarter columns turned into rows."""
    source = rng.choice(sources)
    quarters = ["q1", "q2", "q3", "q4"][: rng.randint(2, 4)]
    listed = ", ".join(quarters)
    sql = (
        f"with wide as (\n    select id, {listed} from {_rel(source.unique_id)}\n)\n"
        f"select * from wide\nunpivot (amount for quarter in ({listed}))\n"
    )
    return f"unpivoted_{index}", [source.unique_id], sql


def union_widths(
    rng: random.Random, adapter: str, bases: list, sources: list, index: int
) -> tuple[str, list[str], str]:
    """``SELECT *`` of two base models of different widths, as ``star()`` without a catalog
    renders it."""
    ordered = sorted(bases, key=lambda spec: len(spec.columns))
    narrow, wide = ordered[0], ordered[-1]
    if len(narrow.columns) == len(wide.columns):
        wide = ordered[-2] if len(ordered) > 2 else wide
    sql = (
        f"select * from {_rel(narrow.unique_id)}\nunion all\nselect * from {_rel(wide.unique_id)}\n"
    )
    return f"union_widths_{index}", [narrow.unique_id, wide.unique_id], sql


MAKERS: dict[str, tuple[Maker, ...]] = {
    "bigquery": (unnest_structs, struct_star, pivot_cte, unpivot_cte, union_widths),
    "databricks": (unnest_structs, struct_star, pivot_cte, unpivot_cte, union_widths),
    "snowflake": (unnest_structs, pivot_cte, unpivot_cte, union_widths),
}
"""The dialect shapes of each adapter (Snowflake's: TABLE(FLATTEN), no struct star)."""

CASTS = {
    "snowflake": ("{}::varchar", "{}::number(38, 2)", "{}::timestamp_ntz", "{}::boolean", "{}"),
    "bigquery": ("cast({} as string)", "cast({} as numeric)", "cast({} as timestamp)", "{}"),
    "databricks": ("cast({} as string)", "{}::decimal(38, 2)", "cast({} as timestamp)", "{}"),
}
"""How each adapter's base models cast a raw column (``{}``)."""

TIMESTAMP = {
    "snowflake": "{}::timestamp_ntz",
    "bigquery": "cast({} as timestamp)",
    "databricks": "cast({} as timestamp)",
}
