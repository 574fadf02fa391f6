"""Generate a synthetic dbt project of N models as dbt artifacts, for the benchmarks.

Usage::

    python benchmarks/generate_project.py --models 1000 --out /tmp/bench_1000 [--no-catalog]
    python benchmarks/generate_project.py --models 300 --out /tmp/shapes_300 --shapes
    python benchmarks/generate_project.py --models 60 --out /tmp/bq_60 --shapes --adapter bigquery

writes ``/tmp/bench_1000/target/manifest.json`` (dbt manifest v12, DuckDB) and, unless
``--no-catalog``, ``target/catalog.json``. The same seed always gives the same files.
"""

from __future__ import annotations

import argparse
import time

from synth_dbt import generate_project, generate_shapes_project


def main(argv: list[str] | None = None) -> int:
    """Parse the command line, generate the project and print a one-line summary."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=int, required=True, help="number of models")
    parser.add_argument("--out", required=True, help="project directory to write")
    parser.add_argument("--no-catalog", action="store_true", help="do not write catalog.json")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    parser.add_argument(
        "--shapes",
        action="store_true",
        help="a Snowflake project without catalog in the hard shapes (star chains over "
        "undeclared tables, many-branch unions, JSON flattening, long CASE chains)",
    )
    parser.add_argument(
        "--adapter",
        choices=("snowflake", "bigquery", "databricks"),
        default="snowflake",
        help="with --shapes: the warehouse; BigQuery and Databricks add their own hard shapes "
        "(arrays of structs unnested, struct stars, PIVOT/UNPIVOT over CTEs, unions of "
        "different widths)",
    )
    parser.add_argument(
        "--dialect-shapes",
        action="store_true",
        help="with --shapes on Snowflake: add TABLE(FLATTEN), PIVOT/UNPIVOT over CTEs and "
        "unions of different widths",
    )
    args = parser.parse_args(argv)

    start = time.perf_counter()
    if args.shapes:
        summary = generate_shapes_project(
            args.models,
            args.out,
            seed=args.seed,
            adapter=args.adapter,
            dialect_shapes_on=args.dialect_shapes or None,
        )
    else:
        summary = generate_project(
            args.models, args.out, seed=args.seed, with_catalog=not args.no_catalog
        )
    elapsed = time.perf_counter() - start
    print(
        f"{summary.models} models, {summary.sources} sources, {summary.exposures} exposures, "
        f"{summary.columns} model columns -> {summary.manifest_path}"
        f"{' + catalog.json' if summary.catalog_path else ''} in {elapsed:.2f} s"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
