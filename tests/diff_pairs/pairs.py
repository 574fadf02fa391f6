"""Pull requests against ``dbt_project_template/``, one per change class and column change.

Each pair is an edit of the template (a small function over the project directory), with an
optional edit applied to both sides first (the base of the pair, e.g. a contract to break),
and what ``dbt-lineage diff`` must say about it, from the rules of issue 9: the verdict, the
class and column changes of the node the pull request changes, and what it must find
downstream. Adding a case is adding a ``Pair`` here and its golden files.
"""

from __future__ import annotations

import typing as t
from dataclasses import dataclass
from pathlib import Path

Edit = t.Callable[[Path], None]

STG_ORDERS = "model.shop.stg_orders"
STG_CUSTOMERS = "model.shop.stg_customers"
STG_PAYMENTS = "model.shop.stg_payments"
EXPOSURE = "exposure.shop.weekly_revenue"


def replace(project: Path, path: str, old: str, new: str, count: int = 1) -> None:
    """Replaces ``old`` by ``new`` in ``project/path``; fails if ``old`` is not there
    ``count`` times (so that a change of the template does not silently void a pair)."""
    file = project / path
    text = file.read_text()
    assert text.count(old) == count, f"{path}: expected {count} x {old!r}"
    file.write_text(text.replace(old, new))


def edits(*steps: tuple[str, str, str] | tuple[str, str, str, int]) -> Edit:
    """An edit made of ``replace`` steps: (path, old, new[, count])."""

    def apply(project: Path) -> None:
        for step in steps:
            replace(project, *step)

    return apply


def _remove_model(project: Path) -> None:
    (project / "models/marts/customer_contacts.sql").unlink()
    replace(
        project,
        "models/marts/_marts.yml",
        "  - name: customer_contacts\n"
        "    description: Customers marketing may write to.\n"
        "    columns:\n"
        "      - name: email_hash\n"
        "        description: MD5 of the email, to match audiences without sharing addresses.\n",
        "",
    )


def _add_model(project: Path) -> None:
    (project / "models/marts/order_status_counts.sql").write_text(
        "-- Orders per fulfilment status.\n"
        "select status, count(*) as order_count\n"
        "from {{ ref('orders') }}\n"
        "group by status\n"
    )


_CONTRACT = """
  - name: signups_by_country
    description: Customers per country.
    config:
      contract: {enforced: true}
    columns:
      - name: country_code
        data_type: varchar
      - name: customers
        data_type: bigint
      - name: customers_with_email
        data_type: bigint
"""


def _add_contract(project: Path) -> None:
    replace(project, "models/marts/_marts.yml", "\nexposures:\n", _CONTRACT + "\nexposures:\n")


_ORDER_DATE_YAML = (
    "models/staging/_staging.yml",
    "      - name: order_date\n        description: Day the order was placed.",
    "      - name: ordered_on\n        description: Day the order was placed.",
)
_ORDER_DATE_SQL = (
    "models/staging/stg_orders.sql",
    "cast(order_date as date) as order_date",
    "cast(order_date as date) as ordered_on",
)


@dataclass(frozen=True)
class Pair:
    """One pull request and what the diff must say about it."""

    name: str
    summary: str
    head: Edit
    verdict: str
    node: str | None = None  # the node the pull request changes
    change: str = "modified"
    node_class: str | None = None
    columns: dict[str, str] | None = None  # exact column changes of ``node``; None: not checked
    only_columns_of: frozenset[str] | None = None  # or: allowed values of its column changes
    base: Edit | None = None  # applied to both sides
    # (node that reads, column it reads, kind: renamed | removed | contract) that block
    broken: frozenset[tuple[str, str, str]] = frozenset()
    impacted_columns: frozenset[tuple[str, str]] = frozenset()
    impacted_exposures: frozenset[str] = frozenset()
    other_changes: bool = True  # may other nodes be listed as changed?
    # columns downstream that must not be impacted (they do not read the change)
    not_impacted: frozenset[tuple[str, str]] = frozenset()
    # nodes whose SQL changed without changing their data: listed as `none`, or not at all
    same_data: frozenset[str] = frozenset()
    schema: str | None = None  # head built in this target schema (environment noise)
    no_reader: bool = False  # its data changes, and nothing downstream reads it
    reasons: tuple[str, ...] = ()  # reasons the changed node must give
    not_changed: frozenset[str] = frozenset()  # nodes that must not be listed as changed
    added_columns: frozenset[tuple[str, str]] = frozenset()  # passed on downstream
    not_broken: frozenset[str] = frozenset()  # nodes that must not be broken references
    # (node, column) that must not be broken references
    not_broken_columns: frozenset[tuple[str, str]] = frozenset()
    # other changed nodes: (node, class, reasons it must give among its own)
    other_classes: tuple[tuple[str, str, tuple[str, ...]], ...] = ()


_FOLLOW_RENAME = (
    (
        "models/intermediate/int_customer_orders.sql",
        "        order_date,\n",
        "        ordered_on as order_date,\n",
    ),
    (
        "models/intermediate/int_customer_orders.sql",
        "order by order_date, order_id",
        "order by ordered_on, order_id",
        2,
    ),
    ("models/intermediate/int_customer_orders.sql", "lag(order_date)", "lag(ordered_on)"),
)
_NEW_FILTER = (
    "models/intermediate/int_customer_orders.sql",
    "    select * from {{ ref('stg_orders') }}\n",
    "    select * from {{ ref('stg_orders') }}\n    where status <> 'returned'\n",
)
INT_CUSTOMER_ORDERS = "model.shop.int_customer_orders"
_IS_RETURNED = (
    "models/staging/stg_orders.sql",
    "    status,\n",
    "    status,\n    status = 'returned' as is_returned,\n",
)

PAIRS: tuple[Pair, ...] = (
    Pair(
        "rename_with_downstream_update",
        "stg_orders.order_date renamed ordered_on; int_customer_orders reads the new name",
        edits(_ORDER_DATE_SQL, _ORDER_DATE_YAML, *_FOLLOW_RENAME),
        # its only reader follows it in the same pull request: nothing downstream changes
        verdict="info",
        node=STG_ORDERS,
        node_class="partial",
        columns={"ordered_on": "renamed_from:order_date"},
        no_reader=True,
        # int_customer_orders follows the rename: it returns the same data, so nothing
        # downstream of it changes
        same_data=frozenset({"model.shop.int_customer_orders"}),
        not_impacted=frozenset(
            {
                ("model.shop.int_customer_orders", "order_date"),
                ("model.shop.orders", "order_date"),
                ("model.shop.fct_daily_revenue", "revenue"),
            }
        ),
    ),
    Pair(
        "rename_without_downstream_update",
        "stg_orders.order_date renamed ordered_on; int_customer_orders still reads order_date",
        edits(_ORDER_DATE_SQL, _ORDER_DATE_YAML),
        verdict="block",
        node=STG_ORDERS,
        node_class="partial",
        columns={"ordered_on": "renamed_from:order_date"},
        broken=frozenset({("model.shop.int_customer_orders", "order_date", "renamed")}),
    ),
    Pair(
        "rename_followed_with_a_new_filter",
        "stg_orders.order_date renamed; int_customer_orders follows it and drops returned orders",
        edits(_ORDER_DATE_SQL, _ORDER_DATE_YAML, *_FOLLOW_RENAME, _NEW_FILTER),
        verdict="review",
        node=STG_ORDERS,
        node_class="partial",
        columns={"ordered_on": "renamed_from:order_date"},
        # following the rename takes away the rename's difference, not the new WHERE
        other_classes=(
            (
                INT_CUSTOMER_ORDERS,
                "breaking",
                (
                    "row set changes: WHERE added",
                    "follows the rename of model.shop.stg_orders.order_date -> ordered_on",
                ),
            ),
        ),
        impacted_columns=frozenset(
            {("model.shop.orders", "order_id"), ("model.shop.customers", "number_of_orders")}
        ),
    ),
    Pair(
        "rename_unfollowed_with_a_new_filter",
        "stg_orders.order_date renamed; int_customer_orders still reads order_date, and drops "
        "returned orders",
        edits(_ORDER_DATE_SQL, _ORDER_DATE_YAML, _NEW_FILTER),
        verdict="block",
        node=STG_ORDERS,
        node_class="partial",
        columns={"ordered_on": "renamed_from:order_date"},
        broken=frozenset({(INT_CUSTOMER_ORDERS, "order_date", "renamed")}),
        # it reads a column that is gone (unresolved): unknown, its new WHERE still said
        other_classes=((INT_CUSTOMER_ORDERS, "unknown", ("row set changes: WHERE added",)),),
    ),
    Pair(
        "type_change",
        "stg_payments.amount cast to double instead of decimal(12, 2)",
        edits(
            (
                "models/staging/stg_payments.sql",
                "cast(amount_cents as decimal(12, 2)) / 100 as amount",
                "cast(amount_cents as double) / 100 as amount",
            )
        ),
        verdict="review",
        node=STG_PAYMENTS,
        node_class="partial",
        columns={"amount": "retyped"},
        impacted_columns=frozenset(
            {
                ("model.shop.orders", "amount"),
                ("model.shop.customers", "lifetime_value"),
                ("model.shop.fct_daily_revenue", "revenue"),
            }
        ),
        impacted_exposures=frozenset({EXPOSURE}),
        not_impacted=frozenset(
            {("model.shop.orders", "order_id"), ("model.shop.customers", "first_name")}
        ),
    ),
    Pair(
        "logic_change",
        "stg_customers.country_code lower-cased instead of upper-cased",
        edits(
            (
                "models/staging/stg_customers.sql",
                "upper(country_code) as country_code",
                "lower(country_code) as country_code",
            )
        ),
        verdict="review",
        node=STG_CUSTOMERS,
        node_class="partial",
        columns={"country_code": "logic"},
        # signups_by_country groups by it: every column of it changes, not only country_code
        impacted_columns=frozenset(
            {
                ("model.shop.customers", "country_code"),
                ("model.shop.signups_by_country", "country_code"),
                ("model.shop.signups_by_country", "customers"),
                ("model.shop.signups_by_country", "customers_with_email"),
            }
        ),
        impacted_exposures=frozenset({EXPOSURE}),
        not_impacted=frozenset(
            {("model.shop.customers", "first_name"), ("model.shop.customers", "lifetime_value")}
        ),
    ),
    Pair(
        "removed_filter",
        "stg_payments no longer keeps only the latest copy of each payment",
        edits(("models/staging/stg_payments.sql", "\nwhere copy_number = 1", "")),
        verdict="review",
        node=STG_PAYMENTS,
        node_class="breaking",
        only_columns_of=frozenset({"logic"}),
        impacted_columns=frozenset(
            {
                ("model.shop.orders", "amount"),
                ("model.shop.orders", "credit_card_amount"),
                ("model.shop.customers", "lifetime_value"),
                ("model.shop.fct_daily_revenue", "revenue"),
            }
        ),
        impacted_exposures=frozenset({EXPOSURE}),
    ),
    Pair(
        "left_to_inner_join",
        "orders: orders without a successful payment are dropped (LEFT JOIN -> INNER JOIN)",
        edits(
            (
                "models/marts/orders.sql",
                "left join payments on orders.order_id",
                "inner join payments on orders.order_id",
            )
        ),
        verdict="review",
        node="model.shop.orders",
        node_class="breaking",
        only_columns_of=frozenset({"logic"}),
        # customers groups and joins on orders.customer_id: all its columns change
        impacted_columns=frozenset(
            {
                ("model.shop.customers", "customer_id"),
                ("model.shop.customers", "first_name"),
                ("model.shop.customers", "number_of_orders"),
                ("model.shop.fct_daily_revenue", "order_date"),
                ("model.shop.fct_daily_revenue", "revenue"),
            }
        ),
        impacted_exposures=frozenset({EXPOSURE}),
    ),
    Pair(
        "join_key_change",
        "stg_customers.email no longer lower-cased: shared_email_accounts joins on it only",
        edits(
            (
                "models/staging/stg_customers.sql",
                "lower(trim(email)) as email",
                "trim(email) as email",
            )
        ),
        verdict="review",
        node=STG_CUSTOMERS,
        node_class="partial",
        columns={"email": "logic"},
        # neither column of shared_email_accounts reads email, but which pairs appear does
        impacted_columns=frozenset(
            {
                ("model.shop.shared_email_accounts", "customer_id"),
                ("model.shop.shared_email_accounts", "first_customer_id"),
                ("model.shop.customers", "email"),
            }
        ),
        not_impacted=frozenset({("model.shop.customers", "first_name")}),
    ),
    Pair(
        "drop_unused_column",
        "stg_orders.updated_at dropped; nothing downstream reads it",
        edits(
            (
                "models/staging/stg_orders.sql",
                "    status,\n    cast(updated_at as timestamp) as updated_at\n",
                "    status\n",
            )
        ),
        verdict="info",
        node=STG_ORDERS,
        node_class="partial",
        columns={"updated_at": "removed"},
        no_reader=True,
    ),
    Pair(
        "drop_used_column",
        "stg_customers.country_code dropped; customers and signups_by_country still read it",
        edits(
            (
                "models/staging/stg_customers.sql",
                ",\n        upper(country_code) as country_code",
                "",
            )
        ),
        verdict="block",
        node=STG_CUSTOMERS,
        node_class="partial",
        columns={"country_code": "removed"},
        broken=frozenset(
            {
                ("model.shop.customers", "country_code", "removed"),
                ("model.shop.signups_by_country", "country_code", "removed"),
            }
        ),
    ),
    Pair(
        "drop_column_a_cte_reads",
        "stg_customers.signup_date dropped; customers reads it in a CTE column it never returns",
        edits(
            ("models/staging/stg_customers.sql", "cast(signup_date as date) as signup_date,", "")
        ),
        base=edits(
            (
                "models/marts/customers.sql",
                "    select * from {{ ref('stg_customers') }}\n",
                "    select *, signup_date as signed_up_on from {{ ref('stg_customers') }}\n",
            )
        ),
        # the warehouse resolves every column of the query: customers fails to build
        verdict="block",
        node=STG_CUSTOMERS,
        node_class="partial",
        columns={"signup_date": "removed"},
        broken=frozenset({("model.shop.customers", "signup_date", "removed")}),
    ),
    Pair(
        "contract_broken",
        "signups_by_country (enforced contract) renames customers to customer_count",
        edits(
            (
                "models/marts/signups_by_country.sql",
                "count(*) as customers,",
                "count(*) as customer_count,",
            )
        ),
        base=_add_contract,
        verdict="block",
        node="model.shop.signups_by_country",
        node_class="partial",
        columns={"customer_count": "renamed_from:customers"},
        broken=frozenset({("model.shop.signups_by_country", "customers", "contract")}),
        no_reader=True,  # no model reads it: what blocks is its own contract
    ),
    Pair(
        "added_column",
        "stg_orders gains is_returned",
        edits(_IS_RETURNED),
        verdict="info",
        node=STG_ORDERS,
        node_class="non_breaking",
        columns={"is_returned": "added"},
    ),
    Pair(
        "added_model",
        "a new model, order_status_counts, reads orders",
        _add_model,
        verdict="info",
        node="model.shop.order_status_counts",
        change="added",
        node_class="non_breaking",
        only_columns_of=frozenset({"added"}),
        other_changes=False,
    ),
    Pair(
        "removed_model",
        "customer_contacts (nothing reads it) is removed",
        _remove_model,
        verdict="info",
        node="model.shop.customer_contacts",
        change="removed",
        node_class="breaking",
        only_columns_of=frozenset({"removed"}),
        other_changes=False,
        no_reader=True,
    ),
    Pair(
        "config_only",
        "customer_contacts materialized as a view instead of a table",
        edits(
            (
                "models/marts/customer_contacts.sql",
                "-- Customers marketing",
                "{{ config(materialized='view') }}\n-- Customers marketing",
            )
        ),
        verdict="info",
        node="model.shop.customer_contacts",
        node_class="metadata",
        columns={},
        other_changes=False,
    ),
    Pair(
        "docs_only",
        "a column description of orders reworded",
        edits(
            (
                "models/marts/_marts.yml",
                "description: Total of successful payments.",
                "description: Sum of the order's successful payments.",
            )
        ),
        verdict="info",
        node="model.shop.orders",
        node_class="metadata",
        columns={},
        other_changes=False,
    ),
    Pair(
        "comment_only",
        "stg_payments: a comment reworded and the final select re-indented",
        edits(
            (
                "models/staging/stg_payments.sql",
                "-- The loader can deliver a payment twice: keep the latest copy of each.",
                "-- Payments may arrive twice from the loader; the latest copy wins.",
            ),
            (
                "models/staging/stg_payments.sql",
                "select payment_id, order_id, payment_method, is_successful, amount, created_at\n",
                "select\n    payment_id, order_id, payment_method,\n"
                "    is_successful, amount, created_at\n",
            ),
        ),
        verdict="info",
        node=STG_PAYMENTS,
        node_class="none",
        columns={},
        other_changes=False,
    ),
    Pair(
        "unparsable_sql",
        "customer_contacts with a missing parenthesis (dbt compiles it; no parser reads it)",
        edits(
            (
                "models/marts/customer_contacts.sql",
                "md5(email) as email_hash",
                "md5(email as email_hash",
            )
        ),
        verdict="unknown",
        node="model.shop.customer_contacts",
        node_class="unknown",
        other_changes=False,
    ),
    Pair(
        "schema_noise",
        "nothing changed: the same project built into another target schema (ci_pr_42)",
        lambda project: None,
        verdict="info",
        schema="ci_pr_42",
        other_changes=False,
    ),
)

_UDF = edits(
    (
        "dbt_project.yml",
        "on-run-end:",
        "on-run-start:\n"
        '  - "create schema if not exists {{ target.schema }}"\n'
        '  - "create or replace macro {{ target.database }}.{{ target.schema }}.email_domain'
        "(address) as split_part(address, '@', 2)\"\n"
        "on-run-end:",
    ),
    (
        "models/marts/customer_contacts.sql",
        "    md5(email) as email_hash,\n",
        "    md5(email) as email_hash,\n"
        "    {{ target.database }}.{{ target.schema }}.email_domain(email) as email_domain,\n",
    ),
)

PAIRS = (
    *PAIRS,
    Pair(
        "udf_in_another_schema",
        "nothing changed: a model calls a user function qualified by the target schema, and "
        "the head is built in another one (ci_pr_42)",
        lambda project: None,
        base=_UDF,
        verdict="info",
        schema="ci_pr_42",
        other_changes=False,
    ),
    Pair(
        "macro_change",
        "mask_email masks the whole local part: customer_contacts' code is unchanged",
        edits(("macros/mask_email.sql", "'^[^@]+'", "'^.+@'")),
        verdict="info",  # nothing downstream reads customer_contacts
        node="model.shop.customer_contacts",
        node_class="partial",
        columns={"masked_email": "logic"},
        reasons=(
            "its code is unchanged: the difference comes from macro(s) macro.shop.mask_email",
        ),
        no_reader=True,
    ),
)

PAIRS = (
    *PAIRS,
    Pair(
        "ephemeral_change",
        "int_order_payments (ephemeral, inlined into orders) rounds total_amount",
        edits(
            (
                "models/intermediate/int_order_payments.sql",
                "sum(amount) as total_amount",
                "round(sum(amount), 0) as total_amount",
            )
        ),
        verdict="review",
        node="model.shop.int_order_payments",
        node_class="partial",
        columns={"total_amount": "logic"},
        # orders' code did not change: it is impacted, not modified
        not_changed=frozenset({"model.shop.orders"}),
        impacted_columns=frozenset(
            {
                ("model.shop.orders", "amount"),
                ("model.shop.customers", "lifetime_value"),
                ("model.shop.fct_daily_revenue", "revenue"),
            }
        ),
        not_impacted=frozenset({("model.shop.orders", "credit_card_amount")}),
        impacted_exposures=frozenset({EXPOSURE}),
    ),
)


def _passthrough_views(project: Path) -> None:
    """Two ``select *`` views over stg_orders, one over the other."""
    (project / "models/marts/orders_view.sql").write_text("select * from {{ ref('stg_orders') }}\n")
    (project / "models/marts/orders_view_again.sql").write_text(
        "select * from {{ ref('orders_view') }}\n"
    )


PAIRS = (
    *PAIRS,
    Pair(
        "added_column_through_star_views",
        "stg_orders gains is_returned; two select-star views pass it on",
        edits(_IS_RETURNED),
        base=_passthrough_views,
        verdict="info",
        node=STG_ORDERS,
        node_class="non_breaking",
        columns={"is_returned": "added"},
        # their schema grows, through the chain; their data does not change
        added_columns=frozenset(
            {
                ("model.shop.orders_view", "is_returned"),
                ("model.shop.orders_view_again", "is_returned"),
            }
        ),
    ),
)


def _view_and_reader(project: Path) -> None:
    """A ``select *`` view over stg_orders, and a model that names its columns."""
    (project / "models/marts/orders_view.sql").write_text("select * from {{ ref('stg_orders') }}\n")
    (project / "models/marts/order_days.sql").write_text(
        "select order_id, order_date from {{ ref('orders_view') }}\n"
    )


PAIRS = (
    *PAIRS,
    Pair(
        "rename_through_a_star_view",
        "stg_orders.order_date renamed; a select-star view passes ordered_on on, and "
        "order_days, which reads the view, still names order_date",
        edits(_ORDER_DATE_SQL, _ORDER_DATE_YAML, *_FOLLOW_RENAME),
        base=_view_and_reader,
        verdict="block",
        node=STG_ORDERS,
        node_class="partial",
        columns={"ordered_on": "renamed_from:order_date"},
        # the view does not name the column: the reader does, and breaks
        broken=frozenset({("model.shop.order_days", "order_date", "renamed")}),
        not_broken=frozenset({"model.shop.orders_view"}),
    ),
)

PAYMENT_AMOUNTS = "model.shop.payment_amounts"


def _enforced(model: str, **columns: str) -> str:
    """A model's YAML entry with an enforced contract declaring ``columns`` (name=type)."""
    declared = "".join(
        f"      - name: {name}\n        data_type: {kind}\n" for name, kind in columns.items()
    )
    head = f"  - name: {model}\n    config:\n      contract: {{enforced: true}}\n    columns:\n"
    return head + declared


_PAYMENT = {"payment_id": "integer", "amount": "decimal(12, 2)"}
_PAYMENT_CONTRACTS = (
    "version: 2\n\nmodels:\n"
    + _enforced("payment_amounts", **_PAYMENT, paid_at="timestamp", doubled_amount="double")
    + _enforced("latest_payment_amounts", **_PAYMENT)
    + _enforced("largest_payment", largest_amount="decimal(12, 2)", payments="bigint")
)


def _payment_contracts(project: Path) -> None:
    """payment_amounts, with an enforced contract, and two models with enforced contracts
    that carry its amount on: one as it is, one through max()."""
    marts = project / "models/marts"
    (marts / "_payment_contracts.yml").write_text(_PAYMENT_CONTRACTS)
    (marts / "payment_amounts.sql").write_text(
        "select\n"
        "    payment_id,\n"
        "    cast(amount as decimal(12, 2)) as amount,\n"
        "    created_at as paid_at,\n"
        "    amount * 2 as doubled_amount\n"
        "from {{ ref('stg_payments') }}\n"
    )
    (marts / "latest_payment_amounts.sql").write_text(
        "select payment_id, amount from {{ ref('payment_amounts') }}\nwhere payment_id > 0\n"
    )
    (marts / "largest_payment.sql").write_text(
        "select max(amount) as largest_amount, count(*) as payments\n"
        "from {{ ref('payment_amounts') }}\n"
    )


PAIRS = (
    *PAIRS,
    Pair(
        "contract_type_broken",
        "payment_amounts (enforced contract, amount declared decimal(12, 2)) casts amount to "
        "varchar: its own contract and two downstream contracts that carry amount break; "
        "paid_at becomes a cast to datetime, the same type as the declared timestamp; "
        "doubled_amount changes its arithmetic, whose type the SQL does not say",
        edits(
            (
                "models/marts/payment_amounts.sql",
                "cast(amount as decimal(12, 2)) as amount",
                "cast(amount as varchar) as amount",
            ),
            (
                "models/marts/payment_amounts.sql",
                "    created_at as paid_at,",
                "    cast(created_at as datetime) as paid_at,",
            ),
            ("models/marts/payment_amounts.sql", "amount * 2", "amount * 3"),
        ),
        base=_payment_contracts,
        verdict="block",
        node=PAYMENT_AMOUNTS,
        node_class="partial",
        only_columns_of=frozenset({"retyped", "logic"}),
        broken=frozenset(
            {
                (PAYMENT_AMOUNTS, "amount", "contract"),
                ("model.shop.latest_payment_amounts", "amount", "contract"),
                ("model.shop.largest_payment", "amount", "contract"),
            }
        ),
        not_broken_columns=frozenset({(PAYMENT_AMOUNTS, "paid_at")}),
        reasons=(
            "the enforced contract of model.shop.payment_amounts declares doubled_amount as "
            "double: its type cannot be inferred from the SQL, not checked",
        ),
    ),
)

BY_NAME = {pair.name: pair for pair in PAIRS}
