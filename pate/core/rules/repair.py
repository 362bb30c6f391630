"""Repair phase (rule 3.3).

Ships in the harbor of a same-side or actively allied port that are not
ordered to sail out repair one point of hull and all rigging damage, up to the
yard capacity of the port less the ships it is building.  Every other ship
repairs one point of rigging.  Decision (docs/rules.md, 3.3): the yard works on
ships in the harbor only, since rule 3.4 treats the coastal waters as at sea;
when more ships wait than the yard can take, the most damaged go first (ties by
ship id) so the order never depends on dictionary order.
"""

from __future__ import annotations

from dataclasses import replace

from pate.core.events import Event, Phase
from pate.core.rng import Rng
from pate.core.rules.context import TurnContext, TurnState
from pate.core.rules.ports import in_friendly_harbor, sails_out
from pate.core.world.ships import InPort, Ship, describe


def repair_phase(ctx: TurnContext, ts: TurnState, rng: Rng) -> TurnState:
    world = ts.world
    queues: dict[str, list[Ship]] = {}
    for ship in sorted(world.ships.values(), key=lambda s: s.id):
        if not ship.active or not (ship.hull or ship.rigging):
            continue
        if in_friendly_harbor(world, ship) and not sails_out(ship, ts.order(ship.id)):
            assert isinstance(ship.location, InPort)
            queues.setdefault(ship.location.port, []).append(ship)

    changed: dict[str, Ship] = {}
    events: list[Event] = []
    in_yard: set[str] = set()
    for port_name, waiting in sorted(queues.items()):
        port = ctx.map.ports[port_name]
        slots = max(0, port.yard - world.ports[port_name].building)
        waiting.sort(key=lambda s: (-(s.hull + s.rigging), s.id))
        for ship in waiting[:slots]:
            in_yard.add(ship.id)
            repaired = replace(ship, hull=max(0, ship.hull - 1), rigging=0)
            changed[ship.id] = repaired
            events.append(_repaired(ship, repaired, yard=True))

    for ship in sorted(world.ships.values(), key=lambda s: s.id):
        if ship.active and ship.id not in in_yard and ship.rigging > 0:
            repaired = replace(ship, rigging=ship.rigging - 1)
            changed[ship.id] = repaired
            events.append(_repaired(ship, repaired, yard=False))
    return replace(ts, world=world.with_ships(changed)).emit(*events)


def _repaired(before: Ship, after: Ship, *, yard: bool) -> Event:
    return Event(
        phase=Phase.REPAIR,
        kind="repaired",
        ships=(before.id,),
        location=describe(before.location),
        data={
            "yard": yard,
            "hull": [before.hull, after.hull],
            "rigging": [before.rigging, after.rigging],
        },
    )
