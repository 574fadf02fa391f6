"""OpenLineage events for dbt invocations, with the full column-lineage facet."""
