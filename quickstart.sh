#!/usr/bin/env bash
# Set up dbt-lineage in .venv and run it on dbt_project_template/ (DuckDB, no server).
#   ./quickstart.sh                 install, build the template with dbt, build its lineage
#   ./quickstart.sh --install-only  install only (what .ci/run uses)
# It installs: .venv (this package with the newest dbt the extras allow, dbt-duckdb,
# dbt-postgres, dbt-spark with pyspark), .venv-dbt18 (the oldest dbt the extras allow,
# 1.8, with dbt-duckdb and dbt-postgres 1.8, for tests/macros/test_dbt18.py), and Java 17
# from Debian when no `java` is on PATH (pyspark needs it); as root, Debian's chromium when
# missing (the report's browser tests).
set -euo pipefail
cd "$(dirname "$0")"
PYTHON="${PYTHON:-python3}"

if ! command -v java >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        apt-get update -qq && apt-get install -y -qq openjdk-17-jre-headless >/dev/null
    else
        echo "Error: no java on PATH; pyspark (the Spark tests) needs Java 17: apt-get install openjdk-17-jre-headless" >&2
        exit 1
    fi
fi

if [ ! -x .venv/bin/python ]; then
    "$PYTHON" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e '.[dev,spark]'
# pip byte-compiles what it installs, but not an editable install's sources; where
# PYTHONDONTWRITEBYTECODE is set, Python would then compile them at every start.
.venv/bin/python -m compileall -q src/dbt_lineage >/dev/null

if [ ! -x .venv-dbt18/bin/python ]; then
    "$PYTHON" -m venv .venv-dbt18
fi
.venv-dbt18/bin/python -m pip install --quiet "dbt-core~=1.8.0" "dbt-duckdb~=1.8.0" "dbt-postgres~=1.8.0"
# The report's browser tests drive Debian's chromium through Playwright (no browser download).
if ! command -v chromium >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    apt-get update -qq && apt-get install -y -qq chromium >/dev/null
fi
[ "${1:-}" = "--install-only" ] && exit 0

cd dbt_project_template
export DBT_SEND_ANONYMOUS_USAGE_STATS=false
if [ -f packages.yml ]; then ../.venv/bin/dbt deps --profiles-dir . --quiet; fi
../.venv/bin/dbt build --profiles-dir . --quiet
../.venv/bin/dbt docs generate --profiles-dir . --quiet
../.venv/bin/dbt-lineage build --project-dir .
echo
echo "What changes if stg_payments.amount changes:"
../.venv/bin/dbt-lineage impact --project-dir . stg_payments.amount
echo
../.venv/bin/dbt-lineage report --project-dir . --with-runs --profiles-dir .
echo "Open the report: file://$(pwd)/target/lineage.html#/column/model.shop.stg_payments/amount"
