"""The trade routes and blockade boxes of the EiA operations rules
(docs/rules/eia-operations.md) as one player knows them, for the position
report's whole-map overview (drawn by :mod:`pate.render.overlays`).

Fog of war: a trade route is drawn only when the player's report tells it
(a ``trade_route`` event he observed: his ships protect it, or he is the
naval minister of a state trading on it); a blockade box only where his own
ships are in an enemy port's coastal waters, or where his ships or frigates
saw enemy ships in a port's coastal waters.
"""

from __future__ import annotations

from pate.core.intel.model import PlayerKnowledge
from pate.core.rules.detection import Place, Side
from pate.core.world.geography import MapName, WorldMap
from pate.core.world.ships import InPort
from pate.render.overlays import BlockadeBox, RouteLine
from pate.reports.operations import trade_ships_held
from pate.reports.words import adjective, and_list

ROUTE_COLOUR = "#7d6608"  # a route of several states (its own colour when one state trades on it)


def known_routes(
    k: PlayerKnowledge, world_map: WorldMap, which: MapName, colour_of: dict[str, str]
) -> list[RouteLine]:
    out = []
    for e in k.events:
        if e.kind != "trade_route":
            continue
        areas = tuple(a for a in e.data.get("areas", ()) if a in world_map.sea_areas)
        if not any(world_map.sea_areas[a].map is which for a in areas):
            continue
        states = [str(s) for s in e.data.get("states", ())]
        ships = e.data.get("ships") or {}
        guards = ", ".join(str(g) for g in e.data.get("protected_by", ())) or "nobody"
        title = f"Trade route from {e.location}: {trade_ships_held(k, ships)}; protected by {guards}"
        colour = colour_of.get(states[0], ROUTE_COLOUR) if len(states) == 1 else ROUTE_COLOUR
        out.append(
            RouteLine(
                str(e.data.get("route", e.location)), areas, tuple(e.data.get("ports", ())), colour, title
            )
        )
    return out


def known_boxes(
    k: PlayerKnowledge, world_map: WorldMap, which: MapName, colour_of: dict[str, str]
) -> list[BlockadeBox]:
    mine: dict[str, list[str]] = {}
    enemy: dict[str, set[str]] = {}
    for r in k.ships:
        loc = r.location
        if not r.active or not isinstance(loc, InPort) or loc.port not in world_map.ports:
            continue
        if not loc.harbor and _controller(k, world_map, loc.port) not in k.allies:
            mine.setdefault(loc.port, []).append(r.id)
        for seen in r.visible:
            if seen.side is Side.ENEMY and seen.place is Place.COASTAL:
                enemy.setdefault(loc.port, set()).add(seen.state)
    for s in k.sightings:
        if s.place is Place.COASTAL and s.port in world_map.ports:
            enemy.setdefault(str(s.port), set()).add(s.state)
    on_map = {p for p in {*mine, *enemy} if world_map.sea_areas[world_map.ports[p].sea_area].map is which}
    out = []
    own = colour_of.get(k.state or "", "#000000")
    for port in sorted(on_map & set(mine)):
        out.append(
            BlockadeBox(port, own, f"Blockade box of {port}: your ships {', '.join(sorted(mine[port]))}")
        )
    for port in sorted(on_map & set(enemy)):
        states = sorted(enemy[port])
        who = and_list(adjective(k, s) for s in states)
        out.append(
            BlockadeBox(
                port, colour_of.get(states[0], "#000000"), f"Blockade box of {port}: {who} ships seen in it"
            )
        )
    return out


def _controller(k: PlayerKnowledge, world_map: WorldMap, port: str) -> str:
    """Who holds the port as the player knows it: his minister's port list, else the map's holder."""
    for p in k.ports:
        if p.name == port:
            return k.state or ""
    return world_map.ports[port].controller
