"""Classification: which classes (``pii``, ``pii:email``, ``confidential``...) every column
carries, where each came from, and which exposures they reach, masked or not.

A class is declared on a column by its ``meta.classification`` (a string or a list;
``masked:pii`` declares a masked one) or by a tag listed in the rules. It then flows
downstream along direct edges, by how the value was derived:

- ``identity``: inherited as is;
- ``transform``: inherited, except through a masking function (a hash...) around every use
  of the upstream column, or into a column whose ``meta.masks`` lists the class, or the
  output of a masking macro: then it is ``masked:<class>``;
- ``aggregate``: inherited, except that counts declassify (the class stops); other
  aggregates follow the rules' policy (inherit, mask or declassify).

A class that reaches a relation or a column only through indirect edges (a join key, a
filter, a group-by, a window key) is not inherited: it is listed as an inference risk. Where
a column gets a class by several paths, an unmasked path wins over a masked one, and then
the fewest hops. Values that ``--write-yaml`` wrote (``meta.dbt_lineage``) are not
declarations: they are recomputed.
"""

from __future__ import annotations

import heapq
import re
import typing as t

from dbt_lineage.errors import SqlError
from dbt_lineage.graph.model import ColumnNode, LineageEdge, LineageGraph
from dbt_lineage.queries.classification_report import (
    MASKED,
    OURS,
    CarriedClass,
    Classification,
    Declassified,
    ExposureReach,
    InferenceRisk,
    is_class,
)
from dbt_lineage.queries.classification_rules import (
    COUNT_FUNCTIONS,
    AggregatePolicy,
    ClassificationRules,
)
from dbt_lineage.queries.edge_index import EdgeIndex, edge_index
from dbt_lineage.queries.gc_paused import gc_paused
from dbt_lineage.sql.dialects import dialect_for
from dbt_lineage.sql.enclosing_calls import enclosing_calls
from dbt_lineage.types import ColumnRef, EdgeKind

_INHERIT, _MASK, _DROP = 0, 1, 2


def classification(
    graph: LineageGraph,
    rules: ClassificationRules | None = None,
    *,
    only: t.Sequence[str] = (),
    masked_columns: t.Mapping[ColumnRef, str] | None = None,
    index: EdgeIndex | None = None,
) -> Classification:
    """The classes every column carries, the exposures they reach, and what stops them.

    Args:
        graph: the lineage graph.
        rules: tags that are classes, masking functions, aggregate policy (default rules
            when None).
        only: keep these classes and their sub-classes (``pii`` keeps ``pii:email``).
        masked_columns: columns a masking macro computes, with the macro's name.
        index: the graph's edge index, when the caller has one.

    >>> from dbt_lineage.graph.model import (
    ...     ColumnNode, EdgeType, LineageEdge, NodeType, RelationNode)
    >>> def col(ref, **kw):
    ...     return ColumnNode(node_id=ref.node_id, column=ref.column, type=NodeType.COLUMN,
    ...                       name=ref.column, **kw)
    >>> raw, hashed = ColumnRef("source.p.s.raw", "email"), ColumnRef("model.p.m", "h")
    >>> graph = LineageGraph(
    ...     nodes={r.node_id: RelationNode(node_id=r.node_id, type=NodeType.MODEL, name="x")
    ...            for r in (raw, hashed)},
    ...     columns={raw.node_id: {"email": col(raw, meta={"classification": "pii"})},
    ...              hashed.node_id: {"h": col(hashed)}},
    ...     edges=[LineageEdge(raw, hashed, EdgeType.DIRECT, EdgeKind.TRANSFORM, "MD5(s.email)")])
    >>> [(c.ref.column, c.label, c.hops, c.masked_by) for c in classification(graph).columns]
    [('h', 'masked:pii', 1, 'md5'), ('email', 'pii', 0, '')]
    """
    walk = _Propagation(
        graph,
        rules or ClassificationRules(),
        tuple(name.lower() for name in only),
        masked_columns or {},
        index or edge_index(graph),
    )
    with gc_paused():
        walk.run()
        return walk.result()


def _declared(column: ColumnNode, tags: t.Collection[str]) -> list[tuple[str, bool, str]]:
    """(class, masked, how) declared on a column by its meta or its tags."""
    meta = column.meta
    found: list[tuple[str, bool, str]] = []
    ours = isinstance(meta.get(OURS), dict) and "classification_from" in meta[OURS]
    value = meta.get("classification")
    if value and not ours:
        for item in [value] if isinstance(value, str) else value:
            if isinstance(item, str) and item.strip():
                name = item.strip().lower()
                masked = name.startswith(MASKED)
                found.append((name[len(MASKED) :] if masked else name, masked, "meta"))
    for tag in column.tags:
        if tag.lower() in tags:
            found.append((tag.lower(), False, "tag"))
    return found


class _Propagation:
    """Best-first propagation of (column, class) labels, ranked by (masked, hops)."""

    def __init__(
        self,
        graph: LineageGraph,
        rules: ClassificationRules,
        only: tuple[str, ...],
        masked_columns: t.Mapping[ColumnRef, str],
        index: EdgeIndex,
    ) -> None:
        self.graph = graph
        self.rules = rules
        self.only = only
        self.masked_columns = masked_columns
        self.index = index
        self.dialect = dialect_for(graph.metadata.adapter_type)
        names = sorted(rules.masking_functions | COUNT_FUNCTIONS | set(rules.aggregates))
        self.worth_parsing = re.compile(
            r"\b(?:" + "|".join(map(re.escape, names)) + r")\s*\(", re.IGNORECASE
        )
        self.effects: dict[tuple[EdgeKind, str, str], tuple[int, str]] = {}
        # (ref, class) -> [masked, hops, origin, via, hop kind, masked_by, declared]
        self.labels: dict[tuple[ColumnRef, str], list[t.Any]] = {}
        self.declared: set[tuple[ColumnRef, str]] = set()
        self.dropped: dict[tuple[ColumnRef, str], Declassified] = {}

    def run(self) -> None:
        heap: list[tuple[int, int, int, ColumnRef, str]] = []
        counter = 0
        for by_name in self.graph.columns.values():
            for column in by_name.values():
                if not column.meta and not column.tags:
                    continue
                for name, masked, how in _declared(column, self.rules.tags):
                    if self.only and not any(is_class(name, wanted) for wanted in self.only):
                        continue
                    key = (column.key, name)
                    kept = self.labels.get(key)
                    if kept is not None and kept[0] <= int(masked):
                        continue
                    self.labels[key] = [int(masked), 0, column.key, None, "", "", how]
                    self.declared.add(key)
                    heap.append((int(masked), 0, counter, column.key, name))
                    counter += 1
        heapq.heapify(heap)
        settled: set[tuple[ColumnRef, str]] = set()
        direct_out = self.index.direct_out
        while heap:
            masked, hops, _, ref, name = heapq.heappop(heap)
            key = (ref, name)
            if key in settled:
                continue
            settled.add(key)
            label = self.labels[key]
            for edge in direct_out.get(ref, ()):
                target: ColumnRef = edge.target  # type: ignore[assignment]
                action, detail = self._effect(edge)
                if action == _DROP:
                    self.dropped.setdefault((target, name), Declassified(target, name, ref, detail))
                    continue
                now_masked = masked
                masked_by = label[5]
                if not masked:
                    if action == _MASK:
                        now_masked, masked_by = 1, detail
                    else:
                        by = self._masks(target, name)
                        if by:
                            now_masked, masked_by = 1, by
                tkey = (target, name)
                if tkey in self.declared:
                    continue
                kept = self.labels.get(tkey)
                if kept is not None and (kept[0], kept[1]) <= (now_masked, hops + 1):
                    continue
                self.labels[tkey] = [
                    now_masked, hops + 1, label[2], ref, edge.kind.value, masked_by, ""
                ]  # fmt: skip
                heapq.heappush(heap, (now_masked, hops + 1, counter, target, name))
                counter += 1

    def _masks(self, target: ColumnRef, name: str) -> str:
        """What masks ``name`` in ``target`` itself: a masking macro, or its meta ``masks``."""
        macro = self.masked_columns.get(target)
        if macro:
            return f"macro {macro}"
        column = self.graph.columns.get(target.node_id, {}).get(target.column)
        masks = column.meta.get("masks") if column is not None else None
        if masks:
            listed = [masks] if isinstance(masks, str) else masks
            if any(isinstance(m, str) and is_class(name, m.strip().lower()) for m in listed):
                return "meta masks"
        return ""

    def _effect(self, edge: LineageEdge) -> tuple[int, str]:
        """What an edge does to any class: inherit, mask (with what) or drop (why)."""
        kind = edge.kind
        if kind is EdgeKind.IDENTITY or kind is None:
            return _INHERIT, ""
        column = edge.source.column.lower()  # type: ignore[union-attr]
        key = (kind, edge.expression, column)
        found = self.effects.get(key)
        if found is None:
            found = self.effects[key] = self._decide(kind, edge.expression, column)
        return found

    def _decide(self, kind: EdgeKind, expression: str, column: str) -> tuple[int, str]:
        aggregate = kind is EdgeKind.AGGREGATE
        if not expression or not self.worth_parsing.search(expression):
            return self._policy(self.rules.aggregate_default, "") if aggregate else (_INHERIT, "")
        try:
            uses = enclosing_calls(expression, self.dialect)
        except SqlError:
            return _INHERIT, ""
        matched = [use for use in uses if use.column.lower() == column] or list(uses)
        fates = [self._fate(use.calls) for use in matched]
        if not fates:
            return self._policy(self.rules.aggregate_default, "") if aggregate else (_INHERIT, "")
        for action in (_INHERIT, _MASK, _DROP):
            for fate in fates:
                if fate[0] == action:
                    return fate
        return _INHERIT, ""

    def _fate(self, calls: t.Sequence[t.Any]) -> tuple[int, str]:
        """What the calls around one use do to it: the innermost decisive call decides."""
        for call in calls:
            if call.aggregate and call.names & COUNT_FUNCTIONS:
                return _DROP, call.name
            if call.names & self.rules.masking_functions:
                return _MASK, call.name
            if call.aggregate:
                policy = self.rules.aggregate_policy(call.names)
                if policy is not AggregatePolicy.INHERIT:
                    return self._policy(policy, call.name)
        return _INHERIT, ""

    @staticmethod
    def _policy(policy: AggregatePolicy, name: str) -> tuple[int, str]:
        detail = f"aggregate policy ({name or 'default'}: {policy.value})"
        if policy is AggregatePolicy.MASK:
            return _MASK, detail
        if policy is AggregatePolicy.DECLASSIFY:
            return _DROP, detail
        return _INHERIT, ""

    def result(self) -> Classification:
        columns = [self._carried(ref, name) for ref, name in self.labels]
        columns.sort(key=lambda c: (c.name, c.ref.node_id, c.ref.column))
        carried = {(c.ref, c.name) for c in columns}
        declassified = sorted(
            (item for key, item in self.dropped.items() if key not in carried),
            key=lambda d: (d.name, d.ref.node_id, d.ref.column),
        )
        in_relation: dict[str, dict[str, list[CarriedClass]]] = {}
        for item in columns:
            in_relation.setdefault(item.ref.node_id, {}).setdefault(item.name, []).append(item)
        risks = self._risks(columns, in_relation)
        exposures = self._exposures(in_relation, risks)
        return Classification(
            tuple(columns), tuple(declassified), tuple(risks), tuple(exposures), self.only
        )

    def _carried(self, ref: ColumnRef, name: str) -> CarriedClass:
        masked, hops, origin, via, _, masked_by, declared = self.labels[(ref, name)]
        kinds = []
        step = ref
        while True:
            label = self.labels[(step, name)]
            if label[3] is None:
                break
            kinds.append(label[4])
            step = label[3]
        return CarriedClass(
            ref, name, bool(masked), origin, declared, hops, tuple(reversed(kinds)), via, masked_by
        )

    def _risks(
        self, columns: list[CarriedClass], in_relation: dict[str, dict[str, list[CarriedClass]]]
    ) -> list[InferenceRisk]:
        carried = {(c.ref, c.name) for c in columns}
        found: dict[tuple[t.Any, str, ColumnRef, str], InferenceRisk] = {}
        for item in columns:
            for edge in self.index.indirect_out.get(item.ref, ()):
                target = edge.target
                if isinstance(target, ColumnRef):
                    if (target, item.name) in carried:
                        continue
                elif item.name in in_relation.get(str(target), {}):
                    continue
                kind = edge.kind.value if edge.kind is not None else ""
                risk = InferenceRisk(
                    target, item.name, item.masked, item.ref, kind, edge.expression
                )
                found.setdefault((target, item.name, item.ref, kind), risk)
        return sorted(found.values(), key=_risk_order)

    def _exposures(
        self,
        in_relation: dict[str, dict[str, list[CarriedClass]]],
        risks: list[InferenceRisk],
    ) -> list[ExposureReach]:
        reach: dict[tuple[str, str], dict[str, t.Any]] = {}
        for node_id, exposures in self.index.exposures_of.items():
            for name, items in in_relation.get(node_id, {}).items():
                plain = [c.ref for c in items if not c.masked]
                state, refs = ("unmasked", plain) if plain else ("masked", [c.ref for c in items])
                for exposure in exposures:
                    _add(reach, exposure, name, state, refs, node_id)
        for risk in risks:
            node_id = risk.target.node_id if isinstance(risk.target, ColumnRef) else risk.target
            for exposure in self.index.exposures_of.get(node_id, ()):
                _add(reach, exposure, risk.name, "inference_risk", [risk.source], node_id)
        result = []
        for (exposure, name), entry in reach.items():
            node = self.graph.nodes[exposure]
            result.append(
                ExposureReach(
                    exposure,
                    node.name,
                    getattr(node, "exposure_type", ""),
                    name,
                    entry["state"],
                    tuple(sorted(entry["columns"])),
                    tuple(sorted(entry["relations"])),
                )
            )
        return sorted(result, key=lambda r: (r.name, _STATES.index(r.state), r.exposure))


_STATES = ("unmasked", "masked", "inference_risk")


def _add(
    reach: dict[tuple[str, str], dict[str, t.Any]],
    exposure: str,
    name: str,
    state: str,
    refs: t.Sequence[ColumnRef],
    relation: str,
) -> None:
    """Record ``name`` reaching ``exposure`` in ``state``; the worst state wins."""
    entry = reach.setdefault(
        (exposure, name), {"state": state, "columns": set(), "relations": set()}
    )
    rank, kept = _STATES.index(state), _STATES.index(entry["state"])
    if rank < kept:
        entry.update(state=state, columns=set(), relations=set())
    if rank <= kept:
        entry["columns"].update(refs)
        entry["relations"].add(relation)


def _risk_order(risk: InferenceRisk) -> tuple[str, str, str, str, str, str]:
    target = risk.target
    node, column = (
        (target.node_id, target.column) if isinstance(target, ColumnRef) else (target, "")
    )
    return (risk.name, node, column, risk.source.node_id, risk.source.column, risk.kind)
