"""close_matches: difflib's "did you mean", the same answer however many names there are."""

from __future__ import annotations

import difflib

from hypothesis import given, settings
from hypothesis import strategies as st

from dbt_lineage.artifacts.close_matches import close_matches

# Names made of few letters, so that many share their characters and scores tie.
_NAMES = st.text(alphabet="ab_c1", max_size=8)


@settings(max_examples=300, deadline=None)
@given(
    word=_NAMES,
    names=st.lists(_NAMES, max_size=40),
    n=st.integers(min_value=1, max_value=4),
    cutoff=st.sampled_from([0.0, 0.4, 0.6, 0.8, 1.0]),
)
def test_the_answer_is_difflibs(word: str, names: list[str], n: int, cutoff: float) -> None:
    assert close_matches(word, names, n, cutoff) == difflib.get_close_matches(
        word, names, n, cutoff
    )


def test_the_answer_is_difflibs_among_10000_similar_names() -> None:
    names = [f"stg_{domain}__{entity}_{i}" for i, (domain, entity) in enumerate(_pairs(10000))]
    for word in ("stg_billing__acounts_77", "stg_biling__invoices_1234", "zzzz", "stg_"):
        assert close_matches(word, names) == difflib.get_close_matches(word, names)


def _pairs(count: int) -> list[tuple[str, str]]:
    domains = ["billing", "sales", "support", "marketing", "finance", "product"]
    entities = ["accounts", "invoices", "payments", "tickets", "leads", "events", "users"]
    return [(domains[i % len(domains)], entities[i // 7 % len(entities)]) for i in range(count)]
