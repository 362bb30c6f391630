"""Run every benchmark module and print its figures.

Each ``benchmarks/bench_*.py`` module exposes ``run() -> list[tuple[str, str]]``
(label, figure).  Speed is measured here, never asserted in tests.  Options after
the names (``python -m benchmarks scale --workers 1,2,3``) go to the one module
named, whose ``run`` then takes them.
``python -m benchmarks fuzz --turns N --seed S`` runs the campaign fuzzer
instead (``benchmarks/fuzz.py``).  ``goals`` (``benchmarks/bench_goals.py``) runs last: the
table of every goal against its figure ends the run.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys

import benchmarks


def main(argv: list[str]) -> int:
    at = next((i for i, a in enumerate(argv) if a.startswith("--")), len(argv))
    only, opts = argv[:at], argv[at:]
    found = [m.name for m in pkgutil.iter_modules(benchmarks.__path__) if m.name.startswith("bench_")]
    names = sorted(found, key=lambda name: (name == "bench_goals", name))  # its table ends the run
    for name in names:
        if only and not any(o in name for o in only):
            continue
        module = importlib.import_module(f"benchmarks.{name}")
        print(f"== {name[6:]}", flush=True)
        for label, figure in module.run(opts) if opts else module.run():
            print(f"  {label:<60} {figure}", flush=True)
    return 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["fuzz"]:  # a long run with its own options, not a figure of `make bench`
        from benchmarks import fuzz

        sys.exit(fuzz.main(sys.argv[2:]))
    sys.exit(main(sys.argv[1:]))
