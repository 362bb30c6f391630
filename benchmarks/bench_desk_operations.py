"""The legal operations of every desk of grand1805 under the EiA operations
rules: for every player, every fleet he may order (the leads the order desk
lists, ``services/orders/mydesk.py``), the operations the form offers.
``choices.legal_operations`` beside the algorithm first written, a map
search for every candidate (``tests/cases/eia_ops/legal_oracle.py``), on the
same world: median of five runs.

``python -m benchmarks desk_operations``."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import replace

from pate.core.orders.operation import Operation
from pate.core.rules.eiaops.choices import legal_operations
from pate.core.rules.eiaops.model import Fleet
from pate.core.rules.eiaops.params import OpsRules
from pate.core.world.geography import WorldMap
from pate.core.world.state import WorldState
from pate.datafiles import load_rule_data, load_scenario, load_world_map
from tests.cases.eia_ops.legal_oracle import desk_fleets, legal_operations_searching_each

Legal = Callable[[WorldMap, WorldState, Fleet, OpsRules], list[Operation]]
RUNS = 5


def _median(legal: Legal, world_map: WorldMap, world: WorldState, fleets: list[Fleet]) -> tuple[float, int]:
    rules = OpsRules.from_rules(load_rule_data())
    times, count = [], 0
    for _ in range(RUNS):
        start = time.perf_counter()
        count = sum(len(legal(world_map, world, f, rules)) for f in fleets)
        times.append(time.perf_counter() - start)
    return statistics.median(times), count


def run() -> list[tuple[str, str]]:
    world_map = load_world_map()
    world = replace(load_scenario("grand1805").world, naval_rules="eia-operations")
    fleets = desk_fleets(world)
    now, offered = _median(legal_operations, world_map, world, fleets)
    before, offered_before = _median(legal_operations_searching_each, world_map, world, fleets)
    desks = f"{len(world.players)} desks, {len(fleets)} fleets listed"
    return [
        (f"grand1805 turn 1, every desk's legal operations ({desks})", f"{offered} offered"),
        ("  choices.legal_operations, s median", f"{now:.3f}"),
        (
            "  one map search per candidate (the first algorithm), s median",
            f"{before:.3f} ({offered_before} offered)",
        ),
        ("  speed-up", f"{before / now:.1f}x" if now else "-"),
    ]
