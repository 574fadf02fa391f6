"""The ``dbt-lineage diff`` document as JSON text (the layout the README documents)."""

from __future__ import annotations

import json
import typing as t


def diff_json(document: t.Mapping[str, t.Any]) -> str:
    """The document as indented JSON, keys in the order ``diff`` gives them.

    >>> print(diff_json({"schema_version": 1, "verdict": "info", "changes": []}), end="")
    {
      "schema_version": 1,
      "verdict": "info",
      "changes": []
    }
    """
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"
