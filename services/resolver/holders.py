"""Who holds each city, as GITM's land game says (edition 3 of gitm.v1, docs/gitm.md "Port
holders"): asked at each turn close beside ``UnitsNear``; every on-GITM-map port GITM holds for
another state than PATE's world does is a capture on land, carried in the turn's land word to
the initial amphibious phase (``pate.core.rules.garrison.land_captures``, EiA rule 12.2.8.2's
hulks)."""

from __future__ import annotations

from pate.core.rules.captures import LandCapture
from pate.core.world.geography import WorldMap
from pate.core.world.state import WorldState
from services.resolver.editions import Capabilities
from services.resolver.gitm import GitmClient
from services.resolver.optional_calls import ask_optional

CALL = "PortHolders"


def land_captures(
    client: GitmClient, world: WorldState, wmap: WorldMap, served: Capabilities
) -> tuple[LandCapture, ...]:
    """The captures on land GITM reports now; none from a service that does not serve the call.
    Unreachable, slow or NOT_FOUND (a campaign not yet opened): :class:`TransientError`, GITM
    has not answered the turn.  A holder PATE does not know as a state is ignored: GITM's
    answer must not break a turn."""
    if not served.serves(CALL):
        return ()
    answer = ask_optional(client, served, CALL, lambda: client.port_holders(world.campaign, world.turn))
    if answer is None:
        return ()
    states = world.diplomacy.states
    out: dict[str, LandCapture] = {}
    for h in answer.holders:
        port = world.ports.get(h.port)
        known = h.port in wmap.ports and wmap.ports[h.port].on_gitm_map and h.state in states
        if port is not None and known and h.state != port.controller:
            out[h.port] = LandCapture(h.port, h.state, bool(h.occupied))
    return tuple(out[p] for p in sorted(out))
