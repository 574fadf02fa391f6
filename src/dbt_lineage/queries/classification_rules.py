"""The rules classification follows, read from the project's vars.

| var | default | meaning |
|---|---|---|
| ``dbt_lineage_classification_tags`` | ``[]`` | column tags that are classes (``[pii, phi]``) |
| ``dbt_lineage_masking_functions`` | hashes | more SQL functions whose result masks their input |
| ``dbt_lineage_masking_macros`` | ``[]`` | macros whose output column is masked |
| ``dbt_lineage_aggregate_policy`` | ``inherit`` | what aggregates other than counts do |

The aggregate policy is ``inherit``, ``mask`` or ``declassify``, or a mapping from aggregate
function name to one of those, with ``default`` for the rest
(``{default: inherit, avg: declassify}``). Counts always declassify.
"""

from __future__ import annotations

import dataclasses
import enum
import typing as t

from dbt_lineage.errors import ConfigError

TAGS_VAR = "dbt_lineage_classification_tags"
FUNCTIONS_VAR = "dbt_lineage_masking_functions"
MACROS_VAR = "dbt_lineage_masking_macros"
AGGREGATES_VAR = "dbt_lineage_aggregate_policy"

MASKING_FUNCTIONS = frozenset(
    {
        # digests, by the names warehouses give them
        "md5", "md5_hex", "md5_binary", "md5_number", "md5_number_lower64",
        "md5_number_upper64", "md5_digest", "sha", "sha1", "sha1_hex", "sha1_binary",
        "sha2", "sha2_hex", "sha2_binary", "sha224", "sha256", "sha384", "sha512",
        "sha2digest", "sha1digest", "func_sha1", "digest", "hmac", "standard_hash",
        "hashbytes", "farm_fingerprint", "farmfingerprint", "fingerprint", "hash",
        "xxhash64", "xxhash32", "murmur_hash", "murmur3", "fnv_hash", "crc32",
        # masking and encryption functions
        "mask", "mask_hash", "encrypt", "aes_encrypt", "encrypt_raw",
    }
)  # fmt: skip
"""Functions whose result does not reveal their input (a hash, a mask, a cipher)."""

COUNT_FUNCTIONS = frozenset(
    {
        "count", "count_if", "countif", "approx_distinct", "approx_count_distinct",
        "approxdistinct", "hll_count_distinct", "hll_count", "count_big", "approx_count",
    }
)  # fmt: skip
"""Aggregates that count values: their result never carries a class."""


class AggregatePolicy(str, enum.Enum):
    """What an aggregate other than a count does to a class."""

    INHERIT = "inherit"
    MASK = "mask"
    DECLASSIFY = "declassify"


@dataclasses.dataclass(frozen=True)
class ClassificationRules:
    """How classes are found and how they propagate.

    Attributes:
        tags: column tags that are classes.
        masking_functions: lower-case names of functions that mask their input.
        masking_macros: names of dbt macros whose output column is masked.
        aggregate_default: the policy of aggregates not in ``aggregates`` (counts aside).
        aggregates: the policy of some aggregates, by lower-case function name.
    """

    tags: frozenset[str] = frozenset()
    masking_functions: frozenset[str] = MASKING_FUNCTIONS
    masking_macros: frozenset[str] = frozenset()
    aggregate_default: AggregatePolicy = AggregatePolicy.INHERIT
    aggregates: t.Mapping[str, AggregatePolicy] = dataclasses.field(default_factory=dict)

    def aggregate_policy(self, names: t.Collection[str]) -> AggregatePolicy:
        """The policy of an aggregate known by ``names``."""
        for name in names:
            found = self.aggregates.get(name)
            if found is not None:
                return found
        return self.aggregate_default


def classification_rules(settings: t.Mapping[str, t.Any]) -> ClassificationRules:
    """The rules the project's vars (see ``project_vars``) set; defaults for the rest.

    >>> rules = classification_rules({"dbt_lineage_classification_tags": ["PII"],
    ...                               "dbt_lineage_aggregate_policy": {"avg": "declassify"}})
    >>> sorted(rules.tags), rules.aggregate_policy({"avg"}).value, "md5" in rules.masking_functions
    (['pii'], 'declassify', True)

    Raises:
        ConfigError: a var of the wrong shape, or an unknown aggregate policy.
    """
    tags = _names(settings, TAGS_VAR)
    functions = MASKING_FUNCTIONS | _names(settings, FUNCTIONS_VAR)
    macros = _names(settings, MACROS_VAR, fold=False)
    default, by_function = _policies(settings.get(AGGREGATES_VAR))
    return ClassificationRules(tags, functions, macros, default, by_function)


def _names(settings: t.Mapping[str, t.Any], var: str, *, fold: bool = True) -> frozenset[str]:
    value = settings.get(var)
    if value is None:
        return frozenset()
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ConfigError(f"var {var} must be a list of names, e.g. `{var}: [pii]`")
    return frozenset(item.strip().lower() if fold else item.strip() for item in value)


def _policies(value: t.Any) -> tuple[AggregatePolicy, dict[str, AggregatePolicy]]:
    if value is None:
        return AggregatePolicy.INHERIT, {}
    if isinstance(value, str):
        return _policy(value, "default"), {}
    if not isinstance(value, dict):
        raise ConfigError(
            f"var {AGGREGATES_VAR} must be inherit, mask or declassify, or a mapping such as "
            "`{default: inherit, avg: declassify}`"
        )
    policies = {str(name).lower(): _policy(policy, str(name)) for name, policy in value.items()}
    default = policies.pop("default", AggregatePolicy.INHERIT)
    return default, policies


def _policy(value: t.Any, name: str) -> AggregatePolicy:
    try:
        return AggregatePolicy(str(value).strip().lower())
    except ValueError:
        raise ConfigError(
            f"var {AGGREGATES_VAR}: '{value}' for {name} is not a policy; "
            "use inherit, mask or declassify"
        ) from None
