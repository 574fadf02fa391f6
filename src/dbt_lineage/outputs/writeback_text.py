"""What ``--write-yaml`` did, in a few lines."""

from __future__ import annotations

from pathlib import Path

from dbt_lineage.outputs.yaml_writeback import WriteResult


def writeback_text(result: WriteResult, project_dir: str | Path) -> str:
    """The files written (relative to the project), what was kept and why.

    >>> print(writeback_text(WriteResult((), (), ()), "."))
    YAML already up to date: nothing written.
    """
    root = Path(project_dir).resolve()
    lines = []
    if result.files:
        names = ", ".join(_relative(path, root) for path in result.files)
        count = len(result.written)
        lines.append(f"Wrote {count} change{'s' if count != 1 else ''} to {names}.")
        lines.append(
            "dbt reads them on its next compile or build; `dbt-lineage build` then shows them."
        )
    else:
        lines.append("YAML already up to date: nothing written.")
    for item in result.kept:
        lines.append(f"  not written: {item.ref.node_id}.{item.ref.column}: {item.reason}")
    return "\n".join(lines)


def _relative(path: Path, root: Path) -> str:
    try:
        return str(path.resolve().relative_to(root))
    except ValueError:
        return str(path)
