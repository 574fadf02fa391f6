"""What ``dbt-lineage`` exits with, the same for every command, so that CI can tell a gate
that said no from a tool that could not answer.

- ``OK`` (0): the command answered, and no gate it was given failed.
- ``GATE`` (1): the command answered, and a gate said no: ``diff --fail-on``, ``build
  --strict``, ``coverage --min-resolved/--min-documented/--fail-on-break``, ``classify
  --fail-on-unmasked/--fail-on-exposure``. Like ``dbt test`` with a failing test.
- ``ERROR`` (2): the command could not answer: bad input (a missing manifest, an unknown
  node), a wrong command line, an internal error, an interrupt. Like dbt's own exit code 2.
  Its one ``Error: ...`` line on standard error says what, where and what to do.
"""

from __future__ import annotations

OK = 0
GATE = 1
ERROR = 2
