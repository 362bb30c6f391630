"""Start-of-campaign placement (rule 2.8).

Each ship's scenario location is its duty station.  When the campaign begins
it is placed at random either there or in its base port's harbor, likelier on
station the closer the base is (``[start]`` of ``data/rules/movement.toml``).
A ship starting at its base has full stores; one on station is some stores
short.  A ship that no longer starts where the ship it was attached to starts
is attached instead to the first (by id) of the ships that were attached to
the same ship and start where it does; that ship leads them, unattached.
"""

from __future__ import annotations

from dataclasses import replace

from pate.core.rng import Rng
from pate.core.ruledata import RuleData
from pate.core.rules.movement.params import MovementRules
from pate.core.rules.movement.routes import place_area, sea_distance
from pate.core.world.geography import WorldMap
from pate.core.world.ships import InAtlantic, InPort, Location, Ship
from pate.core.world.state import WorldState


def station_percent(world_map: WorldMap, params: MovementRules, ship: Ship) -> int:
    """The chance in percent that the ship starts on station."""
    if ship.base not in world_map.ports:
        return 100
    area = place_area(world_map, ship.location)
    if area is None:
        return 100
    base_area = world_map.ports[ship.base].sea_area
    return params.start.percent(sea_distance(world_map, base_area, area, params.start.atlantic_distance))


def _at_base(ship: Ship) -> bool:
    return isinstance(ship.location, InPort) and ship.location.port == ship.base


def place_ship(world_map: WorldMap, rules: RuleData, params: MovementRules, ship: Ship, rng: Rng) -> Ship:
    full = rules.ship_class(ship.type).stores_max
    if not ship.active or isinstance(ship.location, InAtlantic) or ship.base not in world_map.ports:
        return ship
    if _at_base(ship):
        return replace(ship, stores=full)
    if rng.below(100) < station_percent(world_map, params, ship):
        short = rng.randint(params.stores_short_min, max(params.stores_short_min, params.stores_short_max))
        return replace(ship, stores=max(0, full - short))
    return replace(ship, location=InPort(ship.base, True), station=0, stores=full)


def place_at_start(world_map: WorldMap, rules: RuleData, world: WorldState, rng: Rng) -> WorldState:
    params = MovementRules.of(rules)
    placed = {
        sid: place_ship(world_map, rules, params, world.ships[sid], rng.fork("start", sid))
        for sid in sorted(world.ships)
    }
    placed = reattach(placed)
    return replace(world, ships=placed)


def reattach(after: dict[str, Ship]) -> dict[str, Ship]:
    """Rule 2.8: attachments follow the ships that start together."""
    followers: dict[str, list[str]] = {}
    for sid in sorted(after):
        lead = after[sid].attached_to
        if lead is not None and lead in after:
            followers.setdefault(lead, []).append(sid)
    out = dict(after)
    for lead, ids in followers.items():
        by_place: dict[Location, list[str]] = {}
        for sid in ids:
            if after[sid].location != after[lead].location:
                by_place.setdefault(after[sid].location, []).append(sid)
        for group in by_place.values():
            new_lead, *rest = group
            out[new_lead] = replace(out[new_lead], attached_to=None)
            for sid in rest:
                out[sid] = replace(out[sid], attached_to=new_lead)
    return out
