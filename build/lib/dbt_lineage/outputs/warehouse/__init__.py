"""Warehouse tables: dbt adapter connections, the schema-layer publisher, the instance reader."""
