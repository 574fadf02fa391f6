"""One YAML file of a dbt project, loaded round-trip so that writing it changes only what
was changed.

ruamel.yaml's round-trip mode keeps comments, key order, quotes and flow or block style;
the indentation of the file is measured and kept. A file ruamel cannot give back byte for
byte is opened with a ``problem`` and must not be written. ``tail_kept`` keeps the blank
lines and comments after a block where they were while the block grows.
"""

from __future__ import annotations

import io
import re
import typing as t
from pathlib import Path

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import YAMLError
from ruamel.yaml.util import load_yaml_guess_indent

from dbt_lineage.files import write_file


class YamlDocument:
    """One YAML file, loaded round-trip, with the indentation it was written with."""

    def __init__(self, path: Path, text: str, data: t.Any, yaml: YAML, problem: str) -> None:
        self.path, self.text, self.data, self.yaml = path, text, data, yaml
        self.problem = problem
        self.changed = False

    @classmethod
    def open(cls, path: Path) -> YamlDocument:
        yaml = YAML()
        yaml.preserve_quotes = True
        yaml.width = 4096
        if not path.exists():
            yaml.indent(mapping=2, sequence=4, offset=2)
            return cls(path, "", CommentedMap([("version", 2)]), yaml, "")
        try:
            text = path.read_text(encoding="utf-8")
            _, sequence, offset = load_yaml_guess_indent(text)
            yaml.indent(
                mapping=_mapping_indent(text),
                sequence=sequence if offset is not None else _mapping_indent(text),
                offset=offset or 0,
            )
            data = yaml.load(text)
        except (OSError, UnicodeDecodeError, YAMLError) as error:
            problem = f"{path.name} cannot be read ({' '.join(str(error).split())[:120]})"
            return cls(path, "", None, yaml, problem)
        document = cls(path, text, data if data is not None else CommentedMap(), yaml, "")
        if not isinstance(document.data, CommentedMap):
            document.problem = f"{path.name} is not a YAML mapping: not written"
        elif document.dump() != text:
            document.problem = (
                f"{path.name}: ruamel.yaml would reformat it (mixed indentation?): not "
                "written; make its indentation uniform and run again"
            )
        return document

    def column(self, section: str, name: str, column: str, *, create: bool) -> CommentedMap | None:
        """The entry of ``column`` of node ``name`` in ``section``; added when missing and
        ``create``, else None."""
        entries = self.data.get(section)
        node = None
        if isinstance(entries, list):
            node = next((e for e in entries if isinstance(e, dict) and e.get("name") == name), None)
        columns = node.get("columns") if node is not None else None
        wanted = column.casefold()
        for entry in columns if isinstance(columns, list) else ():
            if isinstance(entry, dict) and str(entry.get("name", "")).casefold() == wanted:
                return entry
        if not create:
            return None
        if not isinstance(entries, list):
            with tail_kept(self.data):
                entries = self.data[section] = CommentedSeq()
        if node is None:
            node = CommentedMap([("name", name)])
            with tail_kept(entries):
                entries.append(node)
        entry = CommentedMap([("name", column.lower() if column.isupper() else column)])
        with tail_kept(node):
            if not isinstance(columns, list):
                columns = node["columns"] = CommentedSeq()
            columns.append(entry)
        return entry

    def dump(self) -> str:
        out = io.StringIO()
        self.yaml.dump(self.data, out)
        return out.getvalue()

    def save(self) -> None:
        """Write the file whole (a reader never sees half of it), only over a regular file."""
        write_file(self.path, self.dump().encode("utf-8"))


def yaml_document(path: Path) -> YamlDocument:
    """Open the YAML file at ``path`` round-trip (an empty document when it does not exist).

    The result's ``problem`` says why the file must not be written, if it must not: it cannot
    be read, is not a mapping, or ruamel.yaml would not give it back byte for byte.
    """
    return YamlDocument.open(path)


class tail_kept:  # noqa: N801 - used as a context manager, reads like a function
    """Keep what follows a container (blank lines, comments) after it while it grows.

    ruamel.yaml attaches the blank lines and comments after a block to the last scalar in
    it; appending to the block would leave them above the new entries. This detaches them
    before a change and attaches them to the container's new last scalar after it.
    """

    def __init__(self, container: t.Any) -> None:
        self.container = container
        self.token: t.Any = None

    def __enter__(self) -> None:
        found = _last_slot(self.container)
        if found is not None:
            holder, key, slot = found
            self.token = holder.ca.items[key][slot]
            holder.ca.items[key][slot] = None

    def __exit__(self, *exc: object) -> None:
        if self.token is None:
            return
        found = _last_slot(self.container, create=True)
        if found is not None:
            holder, key, slot = found
            holder.ca.items[key][slot] = self.token


def _last_slot(node: t.Any, *, create: bool = False) -> tuple[t.Any, t.Any, int] | None:
    """Where the comment after ``node``'s last scalar lives: (container, key, slot)."""
    while isinstance(node, (CommentedMap, CommentedSeq)) and len(node):
        key = list(node.keys())[-1] if isinstance(node, CommentedMap) else len(node) - 1
        child = node[key]
        if isinstance(child, (CommentedMap, CommentedSeq)) and len(child):
            node = child
            continue
        slot = 2 if isinstance(node, CommentedMap) else 0
        items = node.ca.items
        if key not in items:
            if not create:
                return None
            items[key] = [None, None, None, None]
        return (node, key, slot) if create or items[key][slot] is not None else None
    return None


def _mapping_indent(text: str) -> int:
    """The indentation of a mapping nested in a mapping (2 when none shows it)."""
    lines = [
        line for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")
    ]
    steps = []
    for line, following in zip(lines, lines[1:], strict=False):
        head = line.lstrip()
        indent = len(line) - len(head)
        if head.startswith("- "):
            head, indent = head[2:], indent + 2
        nested = following.lstrip()
        if re.match(r"^[^\s:#\[\]{}-][^:#]*:\s*$", head) and not nested.startswith("- "):
            step = len(following) - len(nested) - indent
            if step > 0:
                steps.append(step)
    return min(steps, default=2)
