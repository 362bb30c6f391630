"""What storms do to fleets left on station: the foundering rate per ship-turn
out of harbor, measured by ``pate.tools.storm_rates`` on trafalgar
and grand1805 with no orders, 4 seeds x 15 turns.  Compare with the period's
0.05% a ship-month (docs/rules/movement.md, "Storms")."""

from __future__ import annotations

import time

from pate.tools.storm_rates import measure


def run() -> list[tuple[str, str]]:
    start = time.perf_counter()
    r = measure()
    took = time.perf_counter() - start
    return [
        ("ship-turns out of harbor (trafalgar + grand1805, 4 seeds x 15)", f"{r.ship_turns}"),
        (
            "foundered per ship-turn at sea",
            f"{100 * r.rate('foundered'):.3f}% ({r.counts.get('foundered', 0)})",
        ),
        ("wrecked per ship-turn at sea", f"{100 * r.rate('wrecked'):.3f}% ({r.counts.get('wrecked', 0)})"),
        ("storm damage per ship-turn at sea", f"{100 * r.rate('storm_damage'):.2f}%"),
        ("scattered per ship-turn at sea", f"{100 * r.rate('scattered'):.2f}%"),
        ("campaign turns resolved per second", f"{8 * 15 / took:.1f}"),
    ]
