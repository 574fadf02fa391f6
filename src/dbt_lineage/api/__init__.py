"""The public Python API (``dbt_lineage.load``, ``dbt_lineage.build`` and the ``Lineage``
they return), and what the CLI shares with it: finding, loading and building lineage.json,
and asking it the CLI's questions. The CLI sits above this layer and calls it; nothing here
prints or exits. See docs/python-api.md.
"""
