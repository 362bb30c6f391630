"""The fate of land units and supplies aboard a lost transport group
(rules 2.2, 7.8, lost section 9).

A transport group that sinks in battle, founders in a storm, is destroyed
inactive in a port (2.6) or is taken (7.8, 2.6) does not leave its cargo in
the world.  Decision (docs/rules/turn.md, "Cargo of lost transports"):

- sunk or foundered: the units aboard are lost (gone from the world's land
  units) and so are the supplies: ``cargo_lost``;
- taken: the units aboard are prisoners (gone from the world's land units: a
  prize carries no enemy army, and GITM is told through the bridge), the
  supplies are the captor's and stay aboard the prize: ``cargo_captured``.

Both events name the transport (its id before the loss), are witnessed by
those who saw the loss, and carry ``{"transport", "units", "supplies",
"captor"}``; the owner reads of them because the transport was his at the
start of the turn (rule 3.11).  One pass after every phase settles whatever
that phase's loss events say, so every way of losing a ship is covered by
one implementation.
"""

from __future__ import annotations

from dataclasses import replace

from pate.core.events import Event
from pate.core.rules.context import TurnContext, TurnState
from pate.core.rules.transport import SpaceRules
from pate.core.world.ships import Cargo, Ship
from pate.core.world.state import WorldState

LOST = frozenset({"sunk", "foundered", "wrecked", "inactive_destroyed"})
TAKEN = frozenset({"captured", "inactive_captured"})


def settle_cargo(ctx: TurnContext, ts: TurnState, before: WorldState, since: int) -> TurnState:
    """Settle the cargo of every transport the events from ``since`` on lost."""
    aboard: dict[str, Ship] = {s.id: s for s in before.ships.values() if _loaded(s.cargo)}
    if not aboard:
        return ts
    space = SpaceRules.of(ctx.rules)
    world = ts.world
    gone: set[str] = set()
    events: list[Event] = []
    for e in ts.events[since:]:
        if e.kind not in LOST | TAKEN or not e.ships or e.ships[0] not in aboard:
            continue
        ship = aboard.pop(e.ships[0])
        units = tuple(u for u in ship.cargo.units if u not in gone)
        gone.update(units)
        data = {"transport": ship.id, "units": list(units), "supplies": ship.cargo.supplies}
        if e.kind in LOST:
            events.append(
                Event(e.phase, "cargo_lost", (ship.id,), e.location, e.witnesses, {**data, "captor": ""})
            )
        else:
            prize_id = str(e.data.get("prize", ""))
            captor = str(e.data.get("state", ""))
            prize = world.ships.get(prize_id)
            if prize is not None:
                kept = Cargo((), prize.cargo.supplies, prize.cargo.supplies * space.per_supply)
                world = world.with_ships({prize_id: replace(prize, cargo=kept)})
                aboard[prize_id] = replace(prize, cargo=kept)  # a prize lost later loses the supplies
            witnesses = tuple(i for i in (*e.ships[1:], *e.witnesses) if i != ship.id)
            events.append(
                Event(
                    e.phase, "cargo_captured", (ship.id,), e.location, witnesses, {**data, "captor": captor}
                )
            )
    if not events:
        return ts
    left = {u: v for u, v in world.land_units.items() if u not in gone}
    return replace(ts, world=replace(world, land_units=left)).emit(*events)


def _loaded(cargo: Cargo) -> bool:
    return bool(cargo.units or cargo.supplies)
