"""The ``--dbt-lineage`` option the benchmarks share: which executable they time."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def dbt_lineage_option(parser: argparse.ArgumentParser) -> None:
    """Module entry: add ``--dbt-lineage`` (default: the one beside this Python)."""
    parser.add_argument(
        "--dbt-lineage",
        default=str(Path(sys.executable).parent / "dbt-lineage"),
        help="the dbt-lineage executable (default: beside this Python)",
    )
