"""Helpers of the benchmark scripts: run and measure a process, count colibri's columns."""
