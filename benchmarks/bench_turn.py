"""The phases of the turn sequence owned by docs/rules/turn.md, timed on the 1805 grand
scenario: repair (with the administrative pre-step), supply (with store moves), and both
amphibious phases, each run on the start-of-campaign world with default orders.  One process,
one core."""

from __future__ import annotations

import time

from pate.core.events import Phase
from pate.core.rules.amphibious import final_amphibious_phase, initial_amphibious_phase
from pate.core.rules.context import PhaseFn, TurnState, phase_rng
from pate.core.rules.repair import repair_phase
from pate.core.rules.supply import supply_phase
from pate.datafiles import load_scenario
from pate.engine.context import turn_context

PHASES: tuple[tuple[str, Phase, PhaseFn], ...] = (
    ("repair", Phase.REPAIR, repair_phase),
    ("supply", Phase.SUPPLY, supply_phase),
    ("initial amphibious", Phase.INITIAL_AMPHIBIOUS, initial_amphibious_phase),
    ("final amphibious", Phase.FINAL_AMPHIBIOUS, final_amphibious_phase),
)


def run() -> list[tuple[str, str]]:
    ctx = turn_context()
    world = load_scenario("grand1805").world
    ts = TurnState(world=world, orders={}, start=world)
    out: list[tuple[str, str]] = [("grand1805 ships", str(len(world.ships)))]
    for name, phase, fn in PHASES:
        rounds = 20
        start = time.perf_counter()
        for _ in range(rounds):
            fn(ctx, ts, phase_rng(world, phase))
        ms = (time.perf_counter() - start) * 1000 / rounds
        out.append((f"{name} phase, grand1805 (ms)", f"{ms:.2f}"))
    return out


if __name__ == "__main__":
    for key, value in run():
        print(f"{key}: {value}")
