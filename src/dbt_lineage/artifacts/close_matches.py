"""The "did you mean" of a name: ``difflib.get_close_matches``'s answer, in a fraction of its
time over the names of a large project."""

from __future__ import annotations

import difflib
import heapq
import typing as t


def close_matches(
    word: str, possibilities: t.Iterable[str], n: int = 3, cutoff: float = 0.6
) -> list[str]:
    """The ``n`` best of ``possibilities`` whose similarity to ``word`` is at least
    ``cutoff``, best first: exactly what ``difflib.get_close_matches`` returns.

    difflib compares each possibility in turn, and most of them pass its cheap bounds when
    a project's names share their characters (``stg_billing__accounts_1113_1113`` and its
    10,000 neighbours): then it aligns thousands of them, 0.1 to 0.2 s per call at 10,000
    nodes. Here every possibility gets the same bound as difflib's ``quick_ratio`` (the
    characters the two have in common, counted with ``str.count``), and only the best bounds
    are aligned, best first, until no bound left can beat the ``n`` found: the same answer,
    from a few dozen alignments.

    >>> close_matches("ordrs", ["orders", "order_items", "customers", "ordres"])
    ['ordres', 'orders', 'order_items']
    >>> close_matches("ordrs", ["orders", "ordres"]) == difflib.get_close_matches(
    ...     "ordrs", ["orders", "ordres"])
    True
    """
    if n <= 0:
        raise ValueError(f"n must be > 0: {n!r}")
    counts: dict[str, int] = {}
    for char in word:
        counts[char] = counts.get(char, 0) + 1
    shared_chars = list(counts.items())
    length = len(word)
    bounds: list[tuple[float, str]] = []
    for candidate in possibilities:
        total = length + len(candidate)
        if not total:
            bounds.append((1.0, candidate))
            continue
        # difflib's real_quick_ratio, then quick_ratio, computed as difflib does
        if 2.0 * min(length, len(candidate)) / total < cutoff:
            continue
        common = 0
        for char, wanted in shared_chars:
            found = candidate.count(char)
            common += found if found < wanted else wanted
        bound = 2.0 * common / total
        if bound >= cutoff:
            bounds.append((bound, candidate))
    bounds.sort(reverse=True)
    matcher = difflib.SequenceMatcher()
    matcher.set_seq2(word)
    best: list[tuple[float, str]] = []  # a heap of the n best (score, candidate) so far
    for bound, candidate in bounds:
        if len(best) == n and bound < best[0][0]:
            break  # no candidate left can score above the n found
        matcher.set_seq1(candidate)
        score = matcher.ratio()
        if score >= cutoff:
            if len(best) < n:
                heapq.heappush(best, (score, candidate))
            else:
                heapq.heappushpop(best, (score, candidate))
    return [candidate for _, candidate in heapq.nlargest(n, best)]
