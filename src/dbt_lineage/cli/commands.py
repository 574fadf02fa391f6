"""The list of commands the CLI offers; each lives in its own module."""

from __future__ import annotations

from dbt_lineage.cli.build import build
from dbt_lineage.cli.downstream import downstream
from dbt_lineage.cli.impact import impact
from dbt_lineage.cli.publish import publish
from dbt_lineage.cli.report import report
from dbt_lineage.cli.trace import trace
from dbt_lineage.cli.upstream import upstream

COMMANDS = [build, upstream, downstream, impact, publish, trace, report]
