"""What classification finds: the classes each column carries, what stops them, what they
only steer, the exposures they reach, and the CI gates over those."""

from __future__ import annotations

import dataclasses

from dbt_lineage.types import ColumnRef

MASKED = "masked:"
"""The prefix of a masked class's label: ``masked:pii``."""
OURS = "dbt_lineage"
"""The ``meta`` key under which ``--write-yaml`` records where a value came from."""


def is_class(name: str, wanted: str) -> bool:
    """Whether class ``name`` is ``wanted`` or one of its sub-classes (``pii:email``).

    >>> is_class("pii:email", "pii"), is_class("pii", "pii:email"), is_class("piis", "pii")
    (True, False, False)
    """
    return name == wanted or name.startswith(wanted + ":")


@dataclasses.dataclass(frozen=True)
class CarriedClass:
    """A class a column carries.

    Attributes:
        ref: the column.
        name: the class (lower case), e.g. ``pii`` or ``pii:email``.
        masked: whether the value reaches the column only masked.
        origin: the column that declares the class (``ref`` itself when declared here).
        declared: ``meta`` or ``tag`` when declared on this column, else empty.
        hops: edges from ``origin``, on the path kept (unmasked first, then fewest hops).
        path_kinds: the kind of each edge on that path, from ``origin``.
        via: the column before this one on that path.
        masked_by: what masked it on that path (a function, ``macro NAME``, ``meta masks``).
    """

    ref: ColumnRef
    name: str
    masked: bool
    origin: ColumnRef
    declared: str = ""
    hops: int = 0
    path_kinds: tuple[str, ...] = ()
    via: ColumnRef | None = None
    masked_by: str = ""

    @property
    def label(self) -> str:
        """``pii``, or ``masked:pii``."""
        return f"{MASKED}{self.name}" if self.masked else self.name


@dataclasses.dataclass(frozen=True)
class Declassified:
    """A column that reads a classified column yet does not carry its class, and why."""

    ref: ColumnRef
    name: str
    source: ColumnRef
    reason: str


@dataclasses.dataclass(frozen=True)
class InferenceRisk:
    """A class that reaches a relation (row-set edges) or a column (window keys) only
    through an indirect edge: its values are not copied, but they decide rows or values."""

    target: str | ColumnRef
    name: str
    masked: bool
    source: ColumnRef
    kind: str
    expression: str = ""


@dataclasses.dataclass(frozen=True)
class ExposureReach:
    """A class in the relations an exposure reads.

    ``state`` is ``unmasked`` when a column of one of them carries it unmasked, ``masked``
    when only masked, ``inference_risk`` when one of them is only steered by it.
    ``columns`` are the columns that carry it (or steer, for a risk), ``relations`` the
    relations read that hold them.
    """

    exposure: str
    exposure_name: str
    exposure_type: str
    name: str
    state: str
    columns: tuple[ColumnRef, ...]
    relations: tuple[str, ...]


@dataclasses.dataclass(frozen=True)
class Classification:
    """What ``classification`` found, sorted by class, then node and column."""

    columns: tuple[CarriedClass, ...]
    declassified: tuple[Declassified, ...]
    risks: tuple[InferenceRisk, ...]
    exposures: tuple[ExposureReach, ...]
    only: tuple[str, ...] = ()
    """The classes asked for (empty: all)."""

    @property
    def classes(self) -> tuple[str, ...]:
        """Every class carried, declassified or at risk, sorted."""
        found = {c.name for c in self.columns} | {r.name for r in self.risks}
        return tuple(sorted(found | {d.name for d in self.declassified}))

    def carried(self) -> dict[ColumnRef, list[CarriedClass]]:
        """The classes of each classified column."""
        by_column: dict[ColumnRef, list[CarriedClass]] = {}
        for item in self.columns:
            by_column.setdefault(item.ref, []).append(item)
        return by_column

    def gate(self, wanted: str, *, masked: bool) -> Gate:
        """The CI gate on ``wanted`` (and its sub-classes): it fails on every exposure the
        class reaches unmasked, and masked too when ``masked``. Inference risks pass."""
        states = ("unmasked", "masked") if masked else ("unmasked",)
        failed = [r for r in self.exposures if r.state in states and is_class(r.name, wanted)]
        return Gate(wanted, masked, tuple(failed))


@dataclasses.dataclass(frozen=True)
class Gate:
    """A CI gate: ``--fail-on-exposure NAME`` (``masked`` True: any exposure the class
    reaches fails) or ``--fail-on-unmasked NAME`` (only those it reaches unmasked)."""

    name: str
    masked: bool
    failed: tuple[ExposureReach, ...]

    @property
    def option(self) -> str:
        return "fail-on-exposure" if self.masked else "fail-on-unmasked"
