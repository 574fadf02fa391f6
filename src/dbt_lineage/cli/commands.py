"""The commands the CLI offers, each in its own module, imported only when it runs."""

from __future__ import annotations

COMMANDS = {
    "build": "dbt_lineage.cli.build:build",
    "upstream": "dbt_lineage.cli.upstream:upstream",
    "downstream": "dbt_lineage.cli.downstream:downstream",
    "impact": "dbt_lineage.cli.impact:impact",
    "publish": "dbt_lineage.cli.publish:publish",
    "trace": "dbt_lineage.cli.trace:trace",
    "openlineage": "dbt_lineage.cli.openlineage:openlineage",
    "report": "dbt_lineage.cli.report:report",
    "classify": "dbt_lineage.cli.classify:classify",
    "docs": "dbt_lineage.cli.docs:docs",
    "coverage": "dbt_lineage.cli.coverage:coverage",
    "diff": "dbt_lineage.cli.diff:diff",
}
"""Command name -> ``module:attribute`` of its click command."""
