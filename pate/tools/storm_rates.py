"""Measure what storms do to fleets left at sea (lost section 8; docs/rules/movement.md).

    python -m pate.tools.storm_rates [--seeds 1,2,3,4] [--turns 15]

Plays the trafalgar and grand1805 scenarios with no orders (every ship keeps
its station, rule 4.11: blockaders stay on blockade) for ``turns`` turns per
seed through the one core (``resolve_submitted``) and counts, per ship-turn
spent out of harbor (at sea or in coastal waters, where storms strike), the
ships foundered and wrecked, and what storms did instead: damage, scattering,
stranding.  The figures are compared with the period's loss rates in
docs/rules/movement.md ("Storms"); ``tests/cases/movement`` asserts them and
``benchmarks/bench_storms.py`` prints them.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections import Counter
from dataclasses import dataclass

from pate.core.campaign import resolve_submitted, start_campaign
from pate.core.world.ships import InPort
from pate.datafiles import load_scenario
from pate.engine.context import turn_context

SCENARIOS = ("trafalgar", "grand1805")
KINDS = ("storm_damage", "scattered", "foundered", "wrecked", "stranded", "refloated", "held_by_damage")


@dataclass(frozen=True, slots=True)
class StormRates:
    ship_turns: int  # active ships out of harbor at the start of a turn, summed over turns
    struck: int  # ships caught by a storm
    counts: dict[str, int]
    founder_damage: tuple[int, ...]  # hull + rigging of each foundered ship at the start of its turn

    def rate(self, kind: str) -> float:
        return self.counts.get(kind, 0) / max(1, self.ship_turns)

    def tolerance(self, p: float) -> float:
        """Four standard errors of a rate p over this many ship-turns."""
        return 4.0 * math.sqrt(p * (1.0 - p) / max(1, self.ship_turns))


def measure(seeds: tuple[int, ...] = (1, 2, 3, 4), turns: int = 15) -> StormRates:
    ctx = turn_context()
    counts: Counter[str] = Counter()
    ship_turns = struck = 0
    damage: list[int] = []
    for name in SCENARIOS:
        start = load_scenario(name).world
        for seed in seeds:
            world = start_campaign(ctx, start, f"storms-{name}", seed, turns)
            for _ in range(turns):
                ship_turns += sum(
                    1
                    for s in world.ships.values()
                    if s.active and not (isinstance(s.location, InPort) and s.location.harbor)
                )
                result = resolve_submitted(ctx, world, []).result
                for e in result.events:
                    if e.kind == "storm":
                        struck += len(e.ships)
                    elif e.kind in KINDS:
                        counts[e.kind] += 1
                        before = world.ships.get(e.ships[0]) if e.kind == "foundered" else None
                        if before is not None:
                            damage.append(before.hull + before.rigging)
                world = result.state
    return StormRates(ship_turns, struck, dict(counts), tuple(sorted(damage)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m pate.tools.storm_rates", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--seeds", default="1,2,3,4")
    parser.add_argument("--turns", type=int, default=15)
    args = parser.parse_args(argv)
    r = measure(tuple(int(s) for s in args.seeds.split(",")), args.turns)
    print(f"ship-turns out of harbor: {r.ship_turns}; struck by storms: {r.struck}")
    for kind in KINDS:
        print(f"{kind:>15}: {r.counts.get(kind, 0):5d}  ({100 * r.rate(kind):.3f}% per ship-turn)")
    print(f"damage (hull + rigging) of the foundered at the start of their turn: {list(r.founder_damage)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
