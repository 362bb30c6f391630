"""Repair phase (rule 3.3), opened by the administrative orders' first step.

Ships in the harbor of a same-side or actively allied port that are not
ordered to sail out repair one point of hull and all rigging damage, up to the
yard capacity of the port less the ships it is building.  Every other ship
repairs one point of rigging.  Decisions (docs/rules/turn.md, 3.3): the yard
works on ships in the harbor only, since rule 3.4 treats the coastal waters as
at sea; when more ships wait than the yard can take, the most damaged go first
(ties by ship id) so the order never depends on dictionary order; inactive
ships are laid up and not worked on.

Before the repairs, :func:`pate.core.rules.admin.start_of_turn` carries out
the administrative orders that act at the start of the turn (crew transfers,
scuttling, inactivation and reactivation orders): a pre-step of this, the
first phase, so that the rest of the turn sees their result.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from pate.core.events import Event, Phase
from pate.core.rng import Rng
from pate.core.rules.admin import start_of_turn
from pate.core.rules.context import TurnContext, TurnState
from pate.core.rules.ports import in_friendly_harbor, sails_out
from pate.core.world.ships import InPort, Ship, describe


@dataclass(frozen=True, slots=True)
class RepairRules:
    yard_hull_points: int
    other_rigging_points: int

    @classmethod
    def from_section(cls, d: Mapping[str, Any]) -> RepairRules:
        return cls(
            yard_hull_points=int(d.get("yard_hull_points", 1)),
            other_rigging_points=int(d.get("other_rigging_points", 1)),
        )


def repair_phase(ctx: TurnContext, ts: TurnState, rng: Rng) -> TurnState:
    ts = start_of_turn(ctx, ts)
    rules = RepairRules.from_section(ctx.rules.section("repair"))
    changed: dict[str, Ship] = {}
    events: list[Event] = []
    for ship in _in_yards(ctx, ts):
        repaired = replace(ship, hull=max(0, ship.hull - rules.yard_hull_points), rigging=0)
        changed[ship.id] = repaired
        events.append(_repaired(ship, repaired, yard=True))
    for ship in sorted(ts.world.ships.values(), key=lambda s: s.id):
        if ship.active and ship.id not in changed and ship.rigging > 0:
            repaired = replace(ship, rigging=max(0, ship.rigging - rules.other_rigging_points))
            changed[ship.id] = repaired
            events.append(_repaired(ship, repaired, yard=False))
    return replace(ts, world=ts.world.with_ships(changed)).emit(*events)


def _in_yards(ctx: TurnContext, ts: TurnState) -> list[Ship]:
    """The damaged ships each yard takes this turn (rule 3.3): yard capacity
    less the ships being built (``building``; ``building_transports`` does
    not count); transports under repair take a place like any ship."""
    world = ts.world
    queues: dict[str, list[Ship]] = {}
    for ship in sorted(world.ships.values(), key=lambda s: s.id):
        if not ship.active or not (ship.hull or ship.rigging):
            continue
        if in_friendly_harbor(world, ship) and not sails_out(ship, ts.order(ship.id)):
            assert isinstance(ship.location, InPort)
            queues.setdefault(ship.location.port, []).append(ship)
    taken: list[Ship] = []
    for port_name, waiting in sorted(queues.items()):
        slots = max(0, ctx.map.ports[port_name].yard - world.ports[port_name].building)
        waiting.sort(key=lambda s: (-(s.hull + s.rigging), s.id))
        taken.extend(waiting[:slots])
    return taken


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
