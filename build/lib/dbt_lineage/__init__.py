"""dbt-lineage: column-level lineage, pre-merge impact and run provenance for dbt.

The single-query API is imported lazily so that commands which never parse SQL do not
pay for importing sqlglot.
"""

from __future__ import annotations

import typing as t

from dbt_lineage._version import __version__

if t.TYPE_CHECKING:
    from dbt_lineage.sql.column_lineage import QueryLineage, Upstream, column_lineage

__all__ = ["QueryLineage", "Upstream", "column_lineage", "__version__"]


def __getattr__(name: str) -> t.Any:
    if name in ("QueryLineage", "Upstream", "column_lineage"):
        from dbt_lineage.sql import column_lineage as module

        return getattr(module, name)
    raise AttributeError(f"module 'dbt_lineage' has no attribute {name!r}")
