"""Small statistics for benchmark figures."""

from __future__ import annotations

import math
import statistics
import typing as t


def percentile(values: t.Sequence[float], pct: float) -> float:
    """The ``pct``-th percentile of ``values`` by the nearest-rank method.

    >>> percentile([5, 1, 4, 2, 3], 50), percentile(range(1, 101), 95), percentile([7], 99)
    (3, 95, 7)
    """
    if not values:
        raise ValueError("no values")
    ordered = sorted(values)
    rank = max(1, math.ceil(pct / 100 * len(ordered)))
    return ordered[rank - 1]


def median(values: t.Sequence[float]) -> float:
    """The median of ``values``.

    >>> median([3.0, 1.0, 2.0])
    2.0
    """
    return float(statistics.median(values))
