"""Write inherited classes and descriptions into the project's YAML, keeping it as it was.

ruamel.yaml's round-trip mode keeps comments, key order, quotes and flow or block style;
the indentation of each file is measured and kept. A file that would change anywhere but
where we write (ruamel cannot reproduce it byte for byte) is left alone and reported.

The rules: a value a person wrote is never changed; what is missing is added with where it
came from under ``meta.dbt_lineage`` (``classification_from``/``hops``,
``description_from``/``description_hops``); a value recorded that way is ours, and is
updated when the lineage changes. Running twice changes nothing the second time.
"""

from __future__ import annotations

import dataclasses
import io
import re
import typing as t
from pathlib import Path

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import YAMLError
from ruamel.yaml.util import load_yaml_guess_indent

from dbt_lineage.artifacts.manifest import Manifest, ManifestNode
from dbt_lineage.files import write_file
from dbt_lineage.types import ColumnRef

OURS = "dbt_lineage"
_UNCHANGED = "unchanged"
_SECTIONS = {"model": "models", "snapshot": "snapshots", "seed": "seeds"}


@dataclasses.dataclass(frozen=True)
class ColumnPatch:
    """What to write for one column: its classes, its description, or both.

    ``classes`` empty: the column no longer inherits a class; one we wrote earlier is
    reported, not removed (a lineage broken for a while must not erase it).
    """

    ref: ColumnRef
    classes: tuple[str, ...] | None = None
    classes_from: ColumnRef | None = None
    hops: int = 0
    description: str | None = None
    description_from: ColumnRef | None = None
    description_hops: int = 0


@dataclasses.dataclass(frozen=True)
class Written:
    """One column changed in one file (``what``: ``classification`` or ``description``)."""

    ref: ColumnRef
    path: Path
    what: str


@dataclasses.dataclass(frozen=True)
class Kept:
    """A patch not written, and why."""

    ref: ColumnRef
    reason: str


@dataclasses.dataclass(frozen=True)
class WriteResult:
    written: tuple[Written, ...]
    kept: tuple[Kept, ...]
    files: tuple[Path, ...]


def write_yaml(
    project_dir: str | Path,
    manifest: Manifest,
    patches: t.Iterable[ColumnPatch],
    *,
    dry_run: bool = False,
) -> WriteResult:
    """Apply ``patches`` to the YAML files of the project's models, snapshots and seeds.

    A node's entry is found through its ``patch_path``; a node without one gets an entry in
    the first YAML file of its folder that lists its kind (``models:``...), else in a new
    ``_<folder>__models.yml`` there. Nodes of installed packages and versioned models are
    not written.

    Args:
        project_dir: the dbt project's directory.
        manifest: the project's manifest (where each node's YAML is).
        patches: what to write, column by column.
        dry_run: find what would change without writing.
    """
    project_dir = Path(project_dir)
    nodes = manifest.relation_nodes()
    project = manifest.metadata.project_name or ""
    written: list[Written] = []
    kept: list[Kept] = []
    documents: dict[Path, _Document] = {}
    for patch in patches:
        node = nodes.get(patch.ref.node_id)
        where = _where(project_dir, project, node)
        if isinstance(where, str):
            kept.append(Kept(patch.ref, where))
            continue
        path, section = where
        if path not in documents:
            documents[path] = _Document.open(path)
        document = documents[path]
        if document.problem:
            kept.append(Kept(patch.ref, document.problem))
            continue
        assert node is not None
        adds = bool(patch.classes) or patch.description is not None
        entry = document.column(section, node.name, patch.ref.column, create=adds)
        if entry is None:
            continue
        with _tail_kept(entry):
            outcome = list(_apply(entry, patch))
        for what, reason in outcome:
            if not reason:
                written.append(Written(patch.ref, path, what))
                document.changed = True
            elif reason != _UNCHANGED:
                kept.append(Kept(patch.ref, reason))
    files = []
    for path, document in documents.items():
        if document.changed:
            files.append(path)
            if not dry_run:
                document.save()
    return WriteResult(tuple(written), tuple(kept), tuple(files))


def _where(project_dir: Path, project: str, node: ManifestNode | None) -> tuple[Path, str] | str:
    """The YAML file and section of a node's entry, or why it cannot be written."""
    if node is None:
        return "not a model, snapshot or seed of the manifest"
    section = _SECTIONS.get(node.resource_type)
    if section is None:
        return f"a {node.resource_type}: only models, snapshots and seeds are written"
    if project and node.package_name != project:
        return f"in package {node.package_name}: change it there"
    if node.version is not None:
        return "a versioned model: write its columns under `versions:` by hand"
    if node.patch_path:
        return project_dir / node.patch_path.split("://", 1)[-1], section
    folder = project_dir / Path(node.original_file_path).parent
    for candidate in sorted([*folder.glob("*.yml"), *folder.glob("*.yaml")]):
        if re.search(rf"^{section}:", candidate.read_text(encoding="utf-8"), re.MULTILINE):
            return candidate, section
    return folder / f"_{folder.name}__{section}.yml", section


def _apply(entry: CommentedMap, patch: ColumnPatch) -> t.Iterator[tuple[str, str]]:
    """Write ``patch`` into a column entry; yield (what, reason kept) for each part."""
    if patch.classes is not None:
        yield "classification", _classes(entry, patch)
    if patch.description is not None:
        yield "description", _description(entry, patch)


def _classes(entry: CommentedMap, patch: ColumnPatch) -> str:
    meta = _meta(entry, create=bool(patch.classes))
    if meta is None:
        return _UNCHANGED
    ours = meta.get(OURS) if isinstance(meta.get(OURS), dict) else None
    existing = meta.get("classification")
    if existing and not (ours and "classification_from" in ours):  # a person's: keep it
        return (
            _UNCHANGED
            if _listed(existing) >= set(patch.classes or ())
            else (f"classification {_listed(existing)} written by a person: kept")
        )
    labels = list(patch.classes or ())
    if not labels:
        if existing is None:
            return _UNCHANGED
        return (
            "dbt-lineage wrote its classification, which it no longer inherits: "
            "remove it by hand if the lineage is right"
        )
    value: t.Any = labels[0] if len(labels) == 1 else _flow_seq(labels)
    provenance = {"classification_from": _flow_ref(patch.classes_from), "hops": patch.hops}
    if (
        _same(existing, value)
        and ours
        and all(_same(ours.get(k), v) for k, v in provenance.items())
    ):
        return _UNCHANGED
    meta["classification"] = value
    _record(meta, provenance)
    return ""


def _description(entry: CommentedMap, patch: ColumnPatch) -> str:
    existing = str(entry.get("description") or "").strip()
    meta = _meta(entry, create=False)
    ours = meta.get(OURS) if meta is not None and isinstance(meta.get(OURS), dict) else None
    if existing and not (ours and "description_from" in ours):
        return _UNCHANGED if existing == patch.description else "described by a person: kept"
    provenance = {
        "description_from": _flow_ref(patch.description_from),
        "description_hops": patch.description_hops,
    }
    if (
        existing == patch.description
        and ours
        and all(_same(ours.get(k), v) for k, v in provenance.items())
    ):
        return _UNCHANGED
    if "description" in entry:
        entry["description"] = patch.description
    else:
        entry.insert(1 if "name" in entry else 0, "description", patch.description)
    _record(_meta(entry, create=True), provenance)  # type: ignore[arg-type]
    return ""


def _meta(entry: CommentedMap, *, create: bool) -> CommentedMap | None:
    """The column's ``meta`` (under ``config:`` when the YAML keeps it there)."""
    config = entry.get("config")
    if isinstance(config, dict) and isinstance(config.get("meta"), dict):
        return config["meta"]
    if isinstance(entry.get("meta"), dict):
        return entry["meta"]
    if not create:
        return None
    entry["meta"] = CommentedMap()
    return entry["meta"]


def _record(meta: CommentedMap, provenance: dict[str, t.Any]) -> None:
    ours = meta.get(OURS)
    if not isinstance(ours, dict):
        ours = meta[OURS] = CommentedMap()
    ours.update(provenance)


def _listed(value: t.Any) -> set[str]:
    items = [value] if isinstance(value, str) else list(value or ())
    return {str(item).strip().lower() for item in items}


def _same(existing: t.Any, value: t.Any) -> bool:
    if isinstance(value, (list, dict)):
        return _plain(existing) == _plain(value)
    return existing == value


def _plain(value: t.Any) -> t.Any:
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def _flow_seq(items: list[str]) -> CommentedSeq:
    seq = CommentedSeq(items)
    seq.fa.set_flow_style()
    return seq


def _flow_ref(ref: ColumnRef | None) -> CommentedMap | None:
    if ref is None:
        return None
    mapping = CommentedMap([("node", ref.node_id), ("column", ref.column)])
    mapping.fa.set_flow_style()
    return mapping


class _Document:
    """One YAML file, loaded round-trip, with the indentation it was written with."""

    def __init__(self, path: Path, text: str, data: t.Any, yaml: YAML, problem: str) -> None:
        self.path, self.text, self.data, self.yaml = path, text, data, yaml
        self.problem = problem
        self.changed = False

    @classmethod
    def open(cls, path: Path) -> _Document:
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
            with _tail_kept(self.data):
                entries = self.data[section] = CommentedSeq()
        if node is None:
            node = CommentedMap([("name", name)])
            with _tail_kept(entries):
                entries.append(node)
        entry = CommentedMap([("name", column.lower() if column.isupper() else column)])
        with _tail_kept(node):
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


class _tail_kept:  # noqa: N801 - used as a context manager, reads like a function
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
