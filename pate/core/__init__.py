"""The pure, deterministic rules core of PATE.

Nothing in this package performs I/O, reads the clock or the environment, or
uses the global random generator (an import-linter contract enforces it).
Services and the headless engine are thin adapters around it.
"""
