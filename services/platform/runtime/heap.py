"""How a service process sets Python's cyclic garbage collector once it has loaded.

A worker keeps many decoded worlds (the resolver the worlds it stored, intel every world
it read: the caches of services/platform/store/repository/worlds.py), and every one of their
objects is tracked by the collector.  With CPython's defaults (a young collection every 700
new objects) a turn's decoding set off collections that walked the process's startup objects
(the rules data, the map, SQLAlchemy, gRPC, protobuf) and the cached worlds again and again:
intel's read of a training world took 3.5-3.6 ms with the collector and 1.9 ms without it.
Set as below, the medians of four in-process runs of 150 training turns each went from 10.1
to 8.6 ms a turn for the resolver's transaction and from 8.8 to 7.6 ms for intel's; the
capped workers' figures are in docs/operations.md.

So, once the process has loaded, what it has loaded is frozen (``gc.freeze``: moved out of
the collector's sight, still freed by reference counting, which is how a world leaves the
cache), and the young generation is collected every 10,000 new objects rather than 700.
Older generations keep their defaults, so garbage cycles are still found.
"""

from __future__ import annotations

import gc

YOUNG_COLLECTION_EVERY = 10_000  # new objects between two young collections (CPython: 700)


def settle() -> None:
    """Collect what loading left, freeze the rest, and collect the young less often."""
    gc.collect()
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG_COLLECTION_EVERY, middle, old)
