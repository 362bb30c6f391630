"""Rule cases of the EiA new naval rules where PATE's own rules meet them or
the text leaves the player a choice: storms and fleet markers, the orders of
"may", and the detachment an intercepted operation brings
(docs/rules/eia-operations.md)."""

from __future__ import annotations

from dataclasses import replace

from pate.core.rules.context import TurnContext
from pate.core.rules.turn import resolve_turn
from pate.core.world.state import WorldState
from tests.cases.eia_ops.ops_world import MAP, RULES, coastal, ops_world, sea, ship

_STORMS = RULES.sections["storms"]
STORMY = TurnContext(
    MAP,
    replace(
        RULES,
        sections={
            **RULES.sections,
            "storms": {
                **_STORMS,
                "chance": {"light": 100, "moderate": 100, "heavy": 100},
                "damage": {**_STORMS.get("damage", {}), "bands": [{"below": 1000, "rigging": 0, "hull": 0}]},
                "scatter": {
                    **_STORMS.get("scatter", {}),
                    "at_sea_percent": 100,
                    "blown_out_percent": 100,
                    "driven_percent": 100,
                },
            },
        },
    ),
)


def _two_fleets(seed: int, rules: str) -> WorldState:
    """A British fleet of three at sea in BIS, another of three in Brest's
    blockade box, a storm in every sea area."""
    fleet = [ship(f"BR{k}SL", sea("BIS", 1), attached_to=None if k == 1 else "BR1SL") for k in (1, 2, 3)]
    fleet += [ship(f"BR{k}SL", coastal("Brest"), attached_to=None if k == 4 else "BR4SL") for k in (4, 5, 6)]
    return replace(ops_world(*fleet), seed=seed, naval_rules=rules)


def test_eia_ops_s02_a_storm_moves_a_fleet_marker_whole() -> None:
    """ "Each fleet is based in a port, sea zone or enemy blockade box."  A
    fleet has one base, so PATE's storms, which still strike, scatter the
    ships of a fleet together (at sea: one tactical area for all), blow them
    out or drive them in together; each ship takes her own damage and, driven
    ashore, her own fate.  Under PATE's rules the same storms part them."""
    for seed in range(1, 6):
        after = resolve_turn(STORMY, _two_fleets(seed, "eia-operations"), {})
        for fleet in (("BR1SL", "BR2SL", "BR3SL"), ("BR4SL", "BR5SL", "BR6SL")):
            places = {after.state.ships[s].location for s in fleet if s in after.state.ships}
            assert len(places) == 1, (seed, fleet, places)
        scattered = {s for e in after.events if e.kind == "scattered" for s in e.ships}
        assert scattered == {"BR1SL", "BR2SL", "BR3SL"}, seed
    parted = 0
    for seed in range(1, 6):
        after = resolve_turn(STORMY, _two_fleets(seed, "pate"), {})
        parted += len({after.state.ships[s].location for s in ("BR1SL", "BR2SL", "BR3SL")}) > 1
    assert parted
