"""The Return to Base a Transport or Invasion order may ask for.

"The transporting fleet may stay in the receiving port" (Transport), "... may
stay in the sea zone" (Invasion): it may, so it may also go home.  By default
it stays (the order's ``return``: docs/rules/eia-operations.md, N16 and N18).
A fleet that returns first lands its corps, and the landing completes only
in the final amphibious phase with the transport group still at the port
(rules 3.6, 3.9), so the fleet sails home at the end of that phase, to the
harbor of the port it was based in, when that port is still friendly.
"""

from __future__ import annotations

from dataclasses import replace

from pate.core.events import Event, Phase
from pate.core.rules.context import TurnContext, TurnState
from pate.core.world.ships import InPort
from pate.core.world.state import EIA_OPERATIONS


def return_to_base(ctx: TurnContext, ts: TurnState) -> TurnState:
    if ts.world.naval_rules != EIA_OPERATIONS:
        return ts
    world, events = ts.world, []
    for e in ts.events:
        if e.kind != "operation_revealed" or not e.data.get("returns") or not e.data.get("to"):
            continue
        base, to = e.location, str(e.data["to"])
        held = world.ports.get(base)
        there = tuple(
            s
            for s in e.ships
            if s in world.ships
            and isinstance(world.ships[s].location, InPort)
            and world.ships[s].location.port == to  # type: ignore[union-attr]
        )
        if (
            not there
            or held is None
            or not world.diplomacy.allied(world.ships[there[0]].state, held.controller)
        ):
            continue  # intercepted before it sailed, lost, or its base taken: it stays
        home = InPort(base, harbor=True)
        world = world.with_ships({s: replace(world.ships[s], location=home) for s in there})
        data = {"fleet": e.data.get("fleet"), "operation": e.data.get("operation"), "from": to, "to": base}
        events.append(Event(Phase.FINAL_AMPHIBIOUS, "returned_to_base", there, base, (), data))
    return replace(ts, world=world).emit(*events)
