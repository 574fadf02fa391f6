"""Whether a catalog.json belongs to the manifest beside it, and covers its relations.

``dbt docs generate`` writes the catalog of the relations that exist in the warehouse at
that moment. A catalog copied from another project, or written before models were added,
is still valid JSON of the right version; only its contents say it does not fit.
"""

from __future__ import annotations

import typing as t

from dbt_lineage.artifacts.catalog import Catalog
from dbt_lineage.artifacts.manifest import Manifest


class Fit(t.NamedTuple):
    """The catalog to use (None when it belongs elsewhere) and what to tell the user."""

    catalog: Catalog | None
    warnings: tuple[str, ...]


def consistency(manifest: Manifest, catalog: Catalog) -> Fit:
    """Module entry: check ``catalog`` against ``manifest``.

    A catalog none of whose relations the manifest has belongs to another project: it is
    set aside, with a warning. One that misses some of the manifest's relations (other than
    ephemeral models, which never exist in the warehouse) is kept, with a warning naming
    how many and a few of them.
    """
    relations = {
        node_id: node
        for node_id, node in manifest.relation_nodes().items()
        if not node.is_ephemeral
    }
    listed = set(catalog.nodes) | set(catalog.sources)
    regenerate = "rerun `dbt docs generate` for this project"
    if listed and not listed & set(relations):
        return Fit(
            None,
            (
                f"catalog.json lists {len(listed)} relation(s), none of them in the manifest: "
                f"it belongs to another project and is not used; {regenerate}",
            ),
        )
    missing = sorted(set(relations) - listed)
    if not missing:
        return Fit(catalog, ())
    if not listed:
        warning = f"catalog.json lists no relation: it is not used; {regenerate}"
        return Fit(None, (warning,))
    shown = ", ".join(missing[:3]) + (" ..." if len(missing) > 3 else "")
    return Fit(
        catalog,
        (
            f"catalog.json misses {len(missing)} of the manifest's {len(relations)} relations "
            f"({shown}): their columns come from SQL and YAML instead; {regenerate}",
        ),
    )
