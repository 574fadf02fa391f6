"""The single-file HTML report: compact embedded data plus the prebuilt UI bundle.

``report_data`` turns a graph (and optional project facts, run facts and a diff document)
into the compact document the page embeds; ``report_html`` writes the page around it with
the bundle built from ``report-ui/`` and shipped in ``bundle/``.
"""
