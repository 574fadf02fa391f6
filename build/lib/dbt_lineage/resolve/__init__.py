"""A whole project: dependency order, declared columns, cache and worker processes."""
