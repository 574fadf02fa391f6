"""Which CTE steps a model of each layer gets, within the budget of 3 to 6 CTEs.

Staging models import one source (sometimes two), rename and cast, and may dedupe with a
window. Intermediate models and marts join their upstreams, aggregate (joined back to the
rows, or changing the grain), add window functions and filter.
"""

from __future__ import annotations

import random

from .sqlgen import MIN_COLUMNS, ModelBuilder, ModelSql, Relation, Upstream

MIN_CTES, MAX_CTES = 3, 6


def build_model_sql(
    rng: random.Random, layer: str, upstreams: list[Upstream], key_name: str
) -> ModelSql:
    """Write the compiled SQL (with placeholders) of one model.

    Args:
        rng: the generator's seeded random source.
        layer: ``staging``, ``intermediate`` or ``marts``.
        upstreams: the model's inputs, the first one being its main input.
        key_name: the name staging models give the key (column 0) of their source.

    Returns:
        The SQL with placeholders and the model's output columns.
    """
    b = ModelBuilder(rng)
    imports = []
    for i, up in enumerate(upstreams):
        base = ("source" if i == 0 else up.name) if layer == "staging" else up.name
        explicit = layer != "staging" and rng.random() < 0.15
        imports.append(b.import_(up, base, explicit))
    main = imports[0]
    # CTEs every model of this shape has: imports, the join of several, staging's rename, final.
    fixed = len(imports) + (len(imports) > 1) + (layer == "staging") + 1
    needs_step = layer != "staging" and len(imports) == 1
    low = max(MIN_CTES, fixed + needs_step)
    spare = max(rng.randint(low, MAX_CTES), rng.randint(low, MAX_CTES)) - fixed

    if layer == "staging":
        main = b.rename(main, key_name)
    if len(imports) > 1:
        main = b.join(main, imports[1:])
    if layer == "staging":
        if spare >= 1 and rng.random() < 0.75:
            main = b.window(main, "deduplicated")
            spare -= 1
            if spare >= 1:
                main = b.filter(main)
                spare -= 1
        return _finish(b, main, spare)

    # Decide by priority (aggregate, window, filter, cleaning), then write in query order.
    aggregate = ""
    if spare >= 2 and rng.random() < 0.75:
        aggregate, spare = "join_back", spare - 2
    elif spare >= 1 and rng.random() < 0.6:
        aggregate, spare = "grain", spare - 1
    window = spare >= 1 and rng.random() < 0.8
    spare -= window
    filter_ = spare >= 1 and rng.random() < 0.7
    spare -= filter_
    clean = spare >= 1
    spare -= clean

    if clean:
        main = b.rename(main, None, "cleaned", 0.25)
    if aggregate == "join_back":
        agg = b.aggregate(main, rng.randint(3, 8), "aggregated")
        main = b.join(main, [agg], "enriched", on_key=True)
    elif aggregate == "grain":
        main = b.aggregate(main, rng.randint(MIN_COLUMNS, MIN_COLUMNS + 10), "summary")
    if window:
        main = b.window(main)
    if filter_:
        main = b.filter(main)
    return _finish(b, main, spare)


def _finish(b: ModelBuilder, main: Relation, spare: int) -> ModelSql:
    """Spend what is left of the budget on renames, then the ``final`` CTE."""
    while spare > 0 or len(b.ctes) < MIN_CTES - 1:
        main = b.rename(main, None, "prepared", 0.15)
        spare -= 1
    last = b.final(main)
    return b.render(last)
