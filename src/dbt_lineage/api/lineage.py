"""``Lineage``: a project's lineage in Python, as ``dbt_lineage.load`` and
``dbt_lineage.build`` return it, asked the questions the CLI answers."""

from __future__ import annotations

import typing as t
from pathlib import Path

from dbt_lineage.api.locate import column_target, find
from dbt_lineage.api.results import CoverageResult, DiffResult, LineageResult
from dbt_lineage.errors import SelectionError
from dbt_lineage.graph.model import ColumnNode, GraphMetadata, LineageGraph, LineageNode
from dbt_lineage.types import ColumnRef

if t.TYPE_CHECKING:
    import networkx

    from dbt_lineage.queries.impact import ImpactReport


class Lineage:
    """The column lineage of one dbt project: look nodes and columns up by the names users
    type, walk upstream and downstream, weigh the impact of a change, measure coverage,
    compare with another build, or hand the graph to networkx.

    Get one from ``dbt_lineage.load`` or ``dbt_lineage.build``. Opened from the query index,
    a question reads only the rows it reaches; ``graph``, ``coverage`` and ``to_networkx``
    read lineage.json once (they count every edge) and keep it.

    Attributes (absolute paths):
        path: the lineage.json this lineage is (its index sits beside it).
        project_dir: the dbt project directory (its vars and seeds are read from it).
        target_dir: the directory holding dbt's artifacts (manifest.json).
        from_index: whether it was opened from the query index rather than lineage.json.
    """

    def __init__(
        self,
        graph: LineageGraph,
        *,
        path: Path,
        project_dir: Path,
        target_dir: Path,
        from_index: bool,
    ) -> None:
        self._graph = graph
        self._whole: LineageGraph | None = None if from_index else graph
        self.path = path.absolute()
        self.project_dir = project_dir.absolute()
        self.target_dir = target_dir.absolute()
        self.from_index = from_index

    def __repr__(self) -> str:
        return f"Lineage({str(self.path)!r}, from_index={self.from_index})"

    @property
    def metadata(self) -> GraphMetadata:
        """What lineage.json records of its build: project, adapter, dbt version, manifest
        checksum, whether a catalog was read, when it was built."""
        return self._graph.metadata

    @property
    def graph(self) -> LineageGraph:
        """The whole graph (nodes, columns, edges, diagnostics), read from lineage.json the
        first time when this lineage was opened from the index."""
        if self._whole is None:
            from dbt_lineage.graph.io import load_graph

            self._whole = load_graph(self.path)
        return self._whole

    def node(self, name: str) -> LineageNode:
        """The relation or exposure ``name`` names: ``orders``, ``shop.orders``,
        ``model.shop.orders``, ``source:ecom.raw_orders``, ``exposure:weekly_revenue``.

        Raises:
            SelectionError: no such node (with "did you mean"), several match, or ``name``
                names a column.
        """
        key = self._find(name)
        if isinstance(key, ColumnRef):
            raise SelectionError(
                f"'{name}' names column '{key.column}' of {key.node_id}, not a node",
                suggestions=[key.node_id],
            )
        return self._graph.nodes[key]

    def column(self, name: str) -> ColumnNode:
        """The column ``name`` names (``NODE.COLUMN``, NODE as for ``node``; the column
        matched exactly, else case-insensitively).

        Raises:
            SelectionError: no such node or column (with "did you mean"), or ``name`` names
                a whole node.
        """
        ref = column_target(self._graph, name, self.project_dir, self.target_dir)
        return self._graph.columns[ref.node_id][ref.column]

    def upstream(
        self,
        column: str | ColumnRef,
        *,
        depth: int | None = None,
        kinds: t.Iterable[str] | None = None,
        include_indirect: bool = True,
    ) -> LineageResult:
        """The columns ``column`` derives from, back to sources (``dbt-lineage upstream``).

        Args:
            column: ``NODE.COLUMN`` as users type it, or a ``ColumnRef``.
            depth: follow at most this many edges (None: all).
            kinds: follow only edges of these kinds (``identity``, ``transform``,
                ``aggregate``, ``join``, ``filter``, ``group_by``, ``window``, ``sort``,
                ``distinct``); None: every kind.
            include_indirect: also follow the columns that decide which rows appear.

        Raises:
            SelectionError: no such column, or a kind that does not exist.
        """
        from dbt_lineage.queries.upstream import upstream

        return self._walk(upstream, column, depth, kinds, include_indirect)

    def downstream(
        self,
        column: str | ColumnRef,
        *,
        depth: int | None = None,
        kinds: t.Iterable[str] | None = None,
        include_indirect: bool = False,
    ) -> LineageResult:
        """The columns derived from ``column``, with their relations and exposures
        (``dbt-lineage downstream``; arguments as for ``upstream``).

        Raises:
            SelectionError: no such column, or a kind that does not exist.
        """
        from dbt_lineage.queries.downstream import downstream

        return self._walk(downstream, column, depth, kinds, include_indirect)

    def impact(
        self,
        target: str | ColumnRef,
        *,
        include_indirect: bool = False,
        depth: int | None = None,
    ) -> LineageResult:
        """The columns, relations and exposures that change if ``target`` (``NODE`` or
        ``NODE.COLUMN``, or a ``ColumnRef``) changes, and how (``dbt-lineage impact``).

        Args:
            target: what changes.
            include_indirect: also follow joins, filters and other clauses that decide
                which rows appear.
            depth: follow at most this many edges (None: all).

        Raises:
            SelectionError: no such node or column.
        """
        from dbt_lineage.queries.impact import impact

        key = target if isinstance(target, ColumnRef) else self._find(target)
        report = impact(self._graph, key, include_indirect=include_indirect, depth=depth)
        return LineageResult.of(report, self._graph)

    def coverage(
        self,
        *,
        by: str = "layer",
        min_resolved: float | None = None,
        min_documented: float | None = None,
        base: str | Path | None = None,
    ) -> CoverageResult:
        """Per group of relations (``by``: ``folder``, ``layer``, ``resource_type``,
        ``owner``): columns resolved, documented, tested, classified, reaching an exposure
        (``dbt-lineage coverage``). ``min_*`` are percentages to check; ``base`` a target
        directory or manifest.json to list the columns that lost lineage since.

        Raises:
            ArtifactError: no manifest.json in ``target_dir``, or the base cannot be read.
        """
        from dbt_lineage.api.project_coverage import project_coverage

        report, thresholds, breaks = project_coverage(
            self.graph,
            project_dir=self.project_dir,
            target=self.target_dir,
            by=by,
            min_resolved=min_resolved,
            min_documented=min_documented,
            base=base,
        )
        return CoverageResult.of(report, thresholds, breaks)

    def diff(
        self,
        base: str | Path,
        head: str | Path | None = None,
        *,
        select: t.Sequence[str] = (),
        jobs: int | None = None,
    ) -> DiffResult:
        """The pre-merge comparison of ``base`` (a target directory, or a manifest.json
        alone) with ``head`` (a target directory; by default this lineage's), with a verdict
        (``dbt-lineage diff``). A side whose lineage.json is not current is built first.

        Raises:
            DbtLineageError: a side that is no target directory or has no manifest, or a
                name in ``select`` that names no node.
        """
        from dbt_lineage.api.compare_sides import compare_sides

        compared = compare_sides(
            base,
            self.target_dir if head is None else head,
            project_dir=self.project_dir,
            select=select,
            jobs=jobs,
        )
        return DiffResult(compared.document["verdict"], compared.document)

    def to_networkx(self) -> networkx.MultiDiGraph:
        """The graph as a networkx ``MultiDiGraph`` of relation, exposure and column nodes,
        for your own graph algorithms (see ``networkx_graph`` for its attributes)."""
        from dbt_lineage.api.networkx_graph import networkx_graph

        return networkx_graph(self.graph)

    def _walk(
        self,
        walk: t.Callable[..., ImpactReport],
        column: str | ColumnRef,
        depth: int | None,
        kinds: t.Iterable[str] | None,
        include_indirect: bool,
    ) -> LineageResult:
        report = walk(
            self._graph,
            self._column_key(column),
            depth=depth,
            kinds=None if kinds is None else tuple(kinds),
            include_indirect=include_indirect,
        )
        return LineageResult.of(report, self._graph)

    def _find(self, name: str) -> str | ColumnRef:
        return find(self._graph, name, self.project_dir, self.target_dir)

    def _column_key(self, column: str | ColumnRef) -> ColumnRef:
        if isinstance(column, ColumnRef):
            return column
        return column_target(self._graph, column, self.project_dir, self.target_dir)
