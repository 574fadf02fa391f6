"""SQL text of the expressions that produced edges, rendered once each and kept short."""

from __future__ import annotations

from sqlglot import exp

from dbt_lineage.sql.names import names

MAX_CHARS = 2000
"""Longer expressions are cut (with ``...``): lineage.json stays readable and bounded."""


class Renderer:
    """Renders nodes in one dialect, each node once."""

    def __init__(self, dialect: str) -> None:
        self._generator = names(dialect).sqlglot.generator()
        self._done: dict[int, str] = {}

    def __call__(self, node: exp.Expr | None) -> str:
        if node is None:
            return ""
        text = self._done.get(id(node))
        if text is None:
            text = self._done[id(node)] = _cut(self._generate(node))
        return text

    def _generate(self, node: exp.Expr) -> str:
        if type(node) is exp.Column and all(
            type(part) is exp.Identifier and not part.quoted for part in node.parts
        ):
            return ".".join(part.name for part in node.parts)  # as the generator would
        try:
            # copy=False: the tree is ours and no longer walked; copying costs more than
            # generating.
            return self._generator.generate(node, copy=False)
        except RecursionError:
            # sqlglot's generator recurses once per nesting level; a chain of thousands of
            # terms is deeper than Python allows. Name the expression instead.
            return f"<{node.key} nested too deep to print>"


def _cut(text: str) -> str:
    return text if len(text) <= MAX_CHARS else text[: MAX_CHARS - 3] + "..."


def render(dialect: str) -> Renderer:
    """Module entry: a renderer for ``dialect``."""
    return Renderer(dialect)
