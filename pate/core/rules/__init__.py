"""The rules of a turn: one module per phase, run in order by :mod:`turn`."""
