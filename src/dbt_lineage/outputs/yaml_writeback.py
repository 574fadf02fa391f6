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
import re
import typing as t
from pathlib import Path

from ruamel.yaml.comments import CommentedMap, CommentedSeq

from dbt_lineage.artifacts.manifest import Manifest, ManifestNode
from dbt_lineage.outputs.yaml_document import YamlDocument, tail_kept, yaml_document
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
    documents: dict[Path, YamlDocument] = {}
    for patch in patches:
        node = nodes.get(patch.ref.node_id)
        where = _where(project_dir, project, node)
        if isinstance(where, str):
            kept.append(Kept(patch.ref, where))
            continue
        path, section = where
        if path not in documents:
            documents[path] = yaml_document(path)
        document = documents[path]
        if document.problem:
            kept.append(Kept(patch.ref, document.problem))
            continue
        assert node is not None
        adds = bool(patch.classes) or patch.description is not None
        entry = document.column(section, node.name, patch.ref.column, create=adds)
        if entry is None:
            continue
        with tail_kept(entry):
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
