"""The project's errors: one base class, a few subclasses that carry where.

Per-model failures become diagnostics, not exceptions; these are for what stops a command.
The CLI turns them into one red ``Error: ...`` line and exit code 1 (``--debug`` shows the
traceback).
"""

from __future__ import annotations

import typing as t
from pathlib import Path


class DbtLineageError(Exception):
    """Base for every error the project raises on purpose.

    Args:
        message: what went wrong, where, and what to do, on one line.
        path: the file involved, when there is one.
        node_id: the dbt node involved, when there is one.
    """

    def __init__(
        self,
        message: str,
        *,
        path: str | Path | None = None,
        node_id: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.path = str(path) if path is not None else None
        self.node_id = node_id

    def one_line(self) -> str:
        """The message with its location, on one line."""
        where = [part for part in (self.node_id, self.path) if part]
        text = " ".join(self.message.split())
        return f"{text} ({', '.join(where)})" if where else text


class ArtifactError(DbtLineageError):
    """A dbt artifact is missing, unreadable, or of an unsupported version."""


class SqlError(DbtLineageError):
    """SQL that does not parse or cannot be resolved (wrapped at the ``sql/`` boundary)."""


class SelectionError(DbtLineageError):
    """A node or column name the user gave does not exist."""

    def __init__(self, message: str, *, suggestions: t.Sequence[str] = ()) -> None:
        if suggestions:
            message = f"{message}; did you mean {', '.join(suggestions)}?"
        super().__init__(message)
        self.suggestions = list(suggestions)


class WarehouseError(DbtLineageError):
    """The warehouse refused a read or a write."""
