"""Benchmarks run by ``make bench``: every ``bench_*`` module's ``run()``."""
