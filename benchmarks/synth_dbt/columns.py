"""Typed columns and the SQL expressions the generator may write over them.

Every template here has a result type that DuckDB really gives it (the generator's test runs the
SQL and compares), so the catalog the generator writes is the one ``dbt docs generate`` would.
Sums of integers are cast to BIGINT because DuckDB widens them to HUGEINT.
"""

from __future__ import annotations

import random
import typing as t
from dataclasses import dataclass

INTEGER = "INTEGER"
BIGINT = "BIGINT"
DOUBLE = "DOUBLE"
MONEY = "DECIMAL(18,2)"
VARCHAR = "VARCHAR"
DATE = "DATE"
TIMESTAMP = "TIMESTAMP"
BOOLEAN = "BOOLEAN"

INTEGERS = (INTEGER, BIGINT)
TEMPORAL = (DATE, TIMESTAMP)


@dataclass(frozen=True)
class Col:
    """One output column: its name and its DuckDB type as the catalog reports it."""

    name: str
    type: str


# A template is (sql with {c}, result type, name affix). An affix ending in "_" is a prefix.
Template = tuple[str, str, str]

VOCAB: dict[str, tuple[str, ...]] = {
    INTEGER: ("quantity", "units", "priority", "attempts", "age_days", "line_count", "score"),
    BIGINT: ("page_views", "clicks", "bytes_used", "sessions", "impressions"),
    DOUBLE: ("amount", "price", "discount", "tax", "revenue", "cost", "weight", "margin"),
    MONEY: ("balance", "list_price", "fee", "credit_limit"),
    VARCHAR: (
        "status",
        "customer_name",
        "email",
        "country",
        "city",
        "channel",
        "category",
        "currency",
        "sku",
        "region",
        "segment",
        "plan_name",
        "source_system",
        "device",
    ),
    DATE: ("order_date", "signup_date", "ship_date", "birth_date", "invoice_date"),
    TIMESTAMP: ("created_at", "updated_at", "shipped_at", "loaded_at", "deleted_at"),
    BOOLEAN: ("is_active", "is_deleted", "is_test", "has_discount", "is_verified"),
}
TYPE_WEIGHTS: dict[str, int] = {
    INTEGER: 3,
    BIGINT: 1,
    DOUBLE: 3,
    MONEY: 1,
    VARCHAR: 5,
    DATE: 2,
    TIMESTAMP: 2,
    BOOLEAN: 1,
}
ENTITIES = (
    "orders",
    "customers",
    "payments",
    "products",
    "invoices",
    "shipments",
    "sessions",
    "accounts",
    "subscriptions",
    "refunds",
    "events",
    "campaigns",
    "suppliers",
    "tickets",
)

TRANSFORMS: dict[str, tuple[Template, ...]] = {
    INTEGER: (
        ("coalesce({c}, 0)", INTEGER, ""),
        ("{c} * 2", INTEGER, "doubled"),
        ("cast({c} as bigint)", BIGINT, "big"),
        ("cast({c} as double) / 100", DOUBLE, "ratio"),
        ("case when {c} > 10 then 'high' when {c} > 0 then 'low' else 'none' end", VARCHAR, "band"),
        ("abs({c})", INTEGER, "abs"),
    ),
    BIGINT: (
        ("coalesce({c}, 0)", BIGINT, ""),
        ("{c} + 1", BIGINT, "next"),
        ("cast({c} as varchar)", VARCHAR, "text"),
    ),
    DOUBLE: (
        ("round({c}, 2)", DOUBLE, ""),
        ("coalesce({c}, 0)", DOUBLE, ""),
        ("{c} * 1.1", DOUBLE, "adjusted"),
        ("cast({c} as decimal(18, 2))", MONEY, "money"),
        ("case when {c} is null then 0 else {c} end", DOUBLE, "filled"),
    ),
    MONEY: (("coalesce({c}, 0)", MONEY, ""), ("cast({c} as double)", DOUBLE, "float")),
    VARCHAR: (
        ("lower({c})", VARCHAR, ""),
        ("upper(trim({c}))", VARCHAR, ""),
        ("coalesce({c}, 'unknown')", VARCHAR, ""),
        ("length({c})", BIGINT, "length"),
        ("nullif({c}, '')", VARCHAR, ""),
        ("left({c}, 3)", VARCHAR, "prefix"),
    ),
    DATE: (
        ("cast(date_trunc('month', {c}) as date)", DATE, "month"),
        ("year({c})", BIGINT, "year"),
        ("cast({c} as timestamp)", TIMESTAMP, "ts"),
        ("{c} + 7", DATE, "plus_week"),
    ),
    TIMESTAMP: (
        ("cast({c} as date)", DATE, "date"),
        ("date_trunc('day', {c})", TIMESTAMP, "day"),
        ("extract(hour from {c})", BIGINT, "hour"),
        ("coalesce({c}, timestamp '1970-01-01 00:00:00')", TIMESTAMP, ""),
    ),
    BOOLEAN: (
        ("coalesce({c}, false)", BOOLEAN, ""),
        ("case when {c} then 1 else 0 end", INTEGER, "flag"),
        ("not {c}", BOOLEAN, "negated"),
    ),
}

AGGREGATES: dict[str, tuple[Template, ...]] = {
    INTEGER: (
        ("cast(sum({c}) as bigint)", BIGINT, "total_"),
        ("max({c})", INTEGER, "max_"),
        ("avg({c})", DOUBLE, "avg_"),
        ("count(*) filter (where {c} > 0)", BIGINT, "n_positive_"),
    ),
    BIGINT: (("cast(sum({c}) as bigint)", BIGINT, "total_"), ("min({c})", BIGINT, "min_")),
    DOUBLE: (
        ("sum({c})", DOUBLE, "total_"),
        ("avg({c})", DOUBLE, "avg_"),
        ("max({c})", DOUBLE, "max_"),
    ),
    MONEY: (("sum({c})", "DECIMAL(38,2)", "total_"), ("max({c})", MONEY, "max_")),
    VARCHAR: (
        ("count(distinct {c})", BIGINT, "n_distinct_"),
        ("max({c})", VARCHAR, "last_"),
        ("min({c})", VARCHAR, "first_"),
    ),
    DATE: (("min({c})", DATE, "first_"), ("max({c})", DATE, "last_")),
    TIMESTAMP: (("min({c})", TIMESTAMP, "first_"), ("max({c})", TIMESTAMP, "last_")),
    BOOLEAN: (("bool_or({c})", BOOLEAN, "any_"), ("count(*) filter (where {c})", BIGINT, "n_")),
}

FILTERS: dict[str, tuple[str, ...]] = {
    INTEGER: ("{c} is not null", "{c} >= 0"),
    BIGINT: ("{c} is not null",),
    DOUBLE: ("({c} > 0 or {c} is null)",),
    VARCHAR: ("{c} <> 'test'", "{c} is not null"),
    DATE: ("{c} >= date '2015-01-01'",),
    TIMESTAMP: ("{c} >= timestamp '2015-01-01 00:00:00'",),
    BOOLEAN: ("not coalesce({c}, false)",),
}


def window_templates(col: Col) -> tuple[Template, ...]:
    """Window expressions over ``col``, with ``{k}`` the partition and ``{o}`` the order key.

    Args:
        col: the column the window function reads.

    Returns:
        Templates whose ``{c}`` is ``col``; each also uses ``{k}`` and ``{o}``.
    """
    out: list[Template] = [
        ("lag({c}) over (partition by {k} order by {o})", col.type, "prev_"),
        ("first_value({c}) over (partition by {k} order by {o})", col.type, "first_"),
    ]
    if col.type in INTEGERS:
        out.append(("cast(sum({c}) over (partition by {k}) as bigint)", BIGINT, "partition_total_"))
    if col.type == DOUBLE:
        out.append(
            (
                "avg({c}) over (partition by {k} order by {o}"
                " rows between 2 preceding and current row)",
                DOUBLE,
                "moving_avg_",
            )
        )
        out.append(("rank() over (partition by {k} order by {c} desc)", BIGINT, "rank_"))
    return tuple(out)


PII_NAMES = ("email", "customer_name")
"""Column names that hold personal data: their YAML entries are tagged ``pii``."""


def masked_for_pii(col: Col, template: Template) -> Template:
    """``template`` for ``col``, with a truncation of personal data replaced by a hash.

    Keeping the first characters of an email is no masking; projects hash it instead, so the
    synthetic projects have masked columns for classification to find. The result type and
    the random choices are the same, so every other figure of a project is unchanged.

    >>> masked_for_pii(Col("email", VARCHAR), ("left({c}, 3)", VARCHAR, "prefix"))
    ('md5({c})', 'VARCHAR', 'hash')
    >>> masked_for_pii(Col("city", VARCHAR), ("left({c}, 3)", VARCHAR, "prefix"))
    ('left({c}, 3)', 'VARCHAR', 'prefix')
    """
    if template[2] == "prefix" and any(name in col.name for name in PII_NAMES):
        return ("md5({c})", VARCHAR, "hash")
    return template


def affixed(name: str, affix: str) -> str:
    """The output name of a template applied to ``name``.

    >>> affixed("amount", "total_"), affixed("amount", "ratio"), affixed("amount", "")
    ('total_amount', 'amount_ratio', 'amount')
    """
    if not affix:
        return name
    return affix + name if affix.endswith("_") else f"{name}_{affix}"


class Names:
    """The output names already used in one select list; hands out fresh ones."""

    def __init__(self, taken: t.Iterable[str] = ()) -> None:
        self.taken = set(taken)

    def fresh(self, base: str) -> str:
        """Reserve and return ``base``, or ``base_2``, ``base_3``... if it is taken.

        Names over 48 characters are cut to 40, so names stay short however deep the DAG;
        a name that was handed out before (48 characters at most) comes back unchanged.
        """
        if len(base) > 48:
            base = base[:40].rstrip("_")
        name, n = base, 1
        while name in self.taken:
            n += 1
            name = f"{base}_{n}"
        self.taken.add(name)
        return name


def random_columns(rng: random.Random, count: int, names: Names) -> list[Col]:
    """``count`` columns of weighted random types with names from the vocabulary."""
    types = list(TYPE_WEIGHTS)
    weights = list(TYPE_WEIGHTS.values())
    cols = []
    for ty in rng.choices(types, weights, k=count):
        cols.append(Col(names.fresh(rng.choice(VOCAB[ty])), ty))
    return cols
