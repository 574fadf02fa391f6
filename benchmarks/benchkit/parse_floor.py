"""The parse floor: the CPU seconds sqlglot needs only to parse a manifest's compiled SQL,
in a process of its own, timed around the parse loop. Benchmarks quote their own CPU over
it, measured in the same run, so that a figure carries over between machines whose speeds
differ (two of this workplace's machines differ by about half)."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

_PARSE_FLOOR = textwrap.dedent(
    """
    import gc, json, sys, time
    import sqlglot
    from dbt_lineage.sql.dialects import dialect_for
    document = json.load(open(sys.argv[1]))
    dialect = dialect_for(document["metadata"].get("adapter_type"))
    sqls = [node["compiled_code"] for node in document["nodes"].values()
            if node.get("resource_type") in ("model", "snapshot") and node.get("compiled_code")]
    if sys.argv[2] == "alone":
        del document  # only the SQL text stays: the collector has nothing else to scan
        gc.collect()
    start = time.process_time()
    failed = 0
    for sql in sqls:
        try:
            sqlglot.parse(sql, dialect=dialect)
        except Exception:
            failed += 1
    print(json.dumps({"cpu": time.process_time() - start, "queries": len(sqls),
                      "failed": failed, "megabytes": sum(map(len, sqls)) / 1e6}))
    """
)


def parse_floor(manifest: Path, how: str = "alone") -> dict[str, float]:
    """Module entry: parse-only CPU of one process, with how many queries, megabytes and
    failures. ``how``: ``alone`` holds only the SQL text while it parses (the floor);
    ``loaded`` keeps the whole manifest in memory, as the floor was measured before
    2026-12-01, when Python's cycle collector scanning that manifest again and again made up
    about a third of it."""
    completed = subprocess.run(
        [sys.executable, "-c", _PARSE_FLOOR, str(manifest), how],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(completed.stdout)
