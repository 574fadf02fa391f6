"""The terminal view of ``classify``: per class, the columns carrying it and where from, what
stopped it, what it only steers, and the exposures it reaches; then the gates."""

from __future__ import annotations

import typing as t

from dbt_lineage.queries.classification_report import CarriedClass, Classification, Gate
from dbt_lineage.types import ColumnRef


def classify_text(report: Classification, gates: t.Sequence[Gate] = ()) -> str:
    """``report`` (and the gates' outcome) as plain text.

    >>> ref = ColumnRef("model.p.stg", "email")
    >>> print(classify_text(Classification((CarriedClass(ref, "pii", False, ref, "meta"),),
    ...                                    (), (), ())))
    1 class on 1 column, reaching no exposure
    <BLANKLINE>
    pii: 1 column
      model.p.stg.email  pii  declared (meta)
    """
    by_class: dict[str, list[CarriedClass]] = {}
    for item in report.columns:
        by_class.setdefault(item.name, []).append(item)
    classes = report.classes
    exposures = {reach.exposure for reach in report.exposures if reach.state != "inference_risk"}
    lines = [
        f"{_count(len(classes), 'class', 'classes')} on "
        f"{_count(len({c.ref for c in report.columns}), 'column')}, reaching "
        + (_count(len(exposures), "exposure") if exposures else "no exposure")
    ]
    if not classes:
        lines.append(
            "No column carries a class: declare one with `meta: {classification: pii}` on a "
            "column, or list tags in the var dbt_lineage_classification_tags."
        )
    for name in classes:
        lines += ["", *_section(report, name, by_class.get(name, []))]
    if gates:
        lines.append("")
        lines += [_gate_line(gate) for gate in gates]
    return "\n".join(lines)


def _section(report: Classification, name: str, items: list[CarriedClass]) -> list[str]:
    lines = [f"{name}: {_count(len(items), 'column')}"]
    width = max((len(_label(item.ref)) for item in items), default=0)
    label_width = max((len(item.label) for item in items), default=0)
    for item in items:
        lines.append(f"  {_label(item.ref):<{width}}  {item.label:<{label_width}}  {_source(item)}")
    declassified = [item for item in report.declassified if item.name == name]
    if declassified:
        lines.append("  declassified:")
        lines += [
            f"    {_label(item.ref)}  {item.reason} of {_label(item.source)}"
            for item in declassified
        ]
    risks = [item for item in report.risks if item.name == name]
    if risks:
        lines.append("  inference risks (not inherited; it decides rows or values):")
        lines += [
            f"    {_label(item.target)}  {item.kind} on {_label(item.source)}"
            + (" (masked)" if item.masked else "")
            for item in risks
        ]
    reaches = [item for item in report.exposures if item.name == name]
    if reaches:
        lines.append("  exposures:")
        for reach in reaches:
            named = f" ({reach.exposure_name})" if reach.exposure_name else ""
            state = reach.state.replace("_", " ")
            lines.append(
                f"    {reach.exposure}{named}  {state}  via "
                + ", ".join(_label(ref) for ref in reach.columns)
            )
    return lines


def _source(item: CarriedClass) -> str:
    if item.declared:
        return f"declared ({item.declared})"
    hops = _count(item.hops, "hop")
    text = f"from {_label(item.origin)}, {hops} [{' > '.join(item.path_kinds)}]"
    return f"{text}, masked by {item.masked_by}" if item.masked_by else text


def _gate_line(gate: Gate) -> str:
    what = "an exposure" if gate.masked else "an exposure unmasked"
    if not gate.failed:
        return f"Gate --{gate.option} {gate.name}: passed ({gate.name} reaches no {what[3:]})"
    reached = ", ".join(reach.exposure for reach in gate.failed)
    return f"Gate --{gate.option} {gate.name}: FAILED, {gate.name} reaches {what}: {reached}"


def _count(number: int, noun: str, plural: str | None = None) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {plural or noun + 's'}"


def _label(key: str | ColumnRef) -> str:
    """A node or column as users type it (display only, never a key)."""
    return f"{key.node_id}.{key.column}" if isinstance(key, ColumnRef) else key
