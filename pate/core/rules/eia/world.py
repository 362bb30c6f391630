"""EiA terms on PATE's world (docs/rules/eia.md, "Mapping EiA onto PATE"):
which kind of battle a place makes, the harbor defence number, the port a
side's disabled ships make for and its distance in movement points, and
whether Nelson commands.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from pate.core.rules.context import TurnContext
from pate.core.rules.eia.model import Kind
from pate.core.rules.eia.params import EiaRules
from pate.core.world.geography import WorldMap
from pate.core.world.ships import AtSea, InPort, Location, Ship
from pate.core.world.state import AdmiralFate, WorldState


@dataclass(frozen=True, slots=True)
class Haven:
    """The port a side's disabled ships make for (12.2.6.1.9.1)."""

    port: str
    controller: str
    movement_points: int


def sea_area_of(ctx: TurnContext, place: Location) -> str | None:
    if isinstance(place, AtSea):
        return place.area
    if isinstance(place, InPort):
        return ctx.map.ports[place.port].sea_area
    return None


def kind_at(
    world: WorldState, place: Location, sides: tuple[tuple[str, ...], tuple[str, ...]]
) -> tuple[Kind, int | None]:
    """(kind, attacker side or None).  In a harbor where one side is the port's
    friend, a port raid by the other (12.2.6.3); in its coastal waters (the
    blockade box), a blockade battle with the other side blockading (12.2.6.2);
    anywhere else open sea combat (12.2.6.1)."""
    if not isinstance(place, InPort):
        return Kind.OPEN_SEA, None
    port = world.ports.get(place.port)
    if port is None:
        return Kind.OPEN_SEA, None
    friends = [any(world.diplomacy.allied(s, port.controller) for s in side) for side in sides]
    if friends[0] == friends[1]:
        return Kind.OPEN_SEA, None
    outsider = 0 if friends[1] else 1
    return (Kind.PORT_RAID if place.harbor else Kind.BLOCKADE), outsider


def harbor_defense(ctx: TurnContext, world: WorldState, port: str, raiders: Iterable[str]) -> int:
    """12.2.6.3.1: a garrison at war with the raiders fires with the harbor
    defence number: the port's defensive rating (1.4); none while its shore
    batteries are damaged (7.7)."""
    state = world.ports.get(port)
    if state is None or state.battery_damaged:
        return 0
    if not any(world.diplomacy.hostile(state.controller, r) for r in raiders):
        return 0
    return ctx.map.ports[port].defense


def distances(wmap: WorldMap, start: str) -> dict[str, int]:
    """Sea areas crossed from ``start`` to every sea area (breadth first)."""
    seen = {start: 0}
    frontier = [start]
    while frontier:
        nxt: list[str] = []
        for area in frontier:
            for other in sorted(wmap.sea_areas[area].adjacent):
                if other in wmap.sea_areas and other not in seen:
                    seen[other] = seen[area] + 1
                    nxt.append(other)
        frontier = nxt
    return seen


def haven(
    ctx: TurnContext, world: WorldState, rules: EiaRules, side: tuple[str, ...], area: str | None
) -> Haven | None:
    """The nearest port controlled by a state of the side or an active ally
    (ties by name); movement points are sea areas crossed, counted
    ``sea_areas_per_movement_point`` to the point, rounded up."""
    if area is None:
        return None
    far = distances(ctx.map, area)
    best: tuple[int, str] | None = None
    for name, port in sorted(world.ports.items()):
        if not any(world.diplomacy.allied(s, port.controller) for s in side):
            continue
        d = far.get(ctx.map.ports[name].sea_area)
        if d is not None and (best is None or d < best[0]):
            best = (d, name)
    if best is None:
        return None
    d, name = best
    mp = -(-d // rules.sea_areas_per_mp)
    return Haven(name, world.ports[name].controller, mp)


def nelson_shift(world: WorldState, ships: list[Ship], chosen: Mapping[str, int | None]) -> int | None:
    """The closing shift Nelson's player chose (12.2.6.1.4.2: "at the option of
    the controlling player"): the order of his ships in this battle (``chosen``,
    by ship id; the first by id that names one), else his scenario's choice."""
    for s in sorted(ships, key=lambda s: s.id):
        admiral = world.admirals.get(s.commander or "")
        if admiral is not None and admiral.nelson and chosen.get(s.id) is not None:
            return chosen[s.id]
    for s in ships:
        admiral = world.admirals.get(s.commander or "")
        if admiral is not None and admiral.nelson:
            return admiral.closing_shift
    return None


def nelson_side(world: WorldState, ships: list[Ship], side_of: dict[str, int]) -> int | None:
    """12.2.7: Nelson is present when a ship he commands fights (and he is
    neither dead nor still recovering from a wound)."""
    for s in ships:
        admiral = world.admirals.get(s.commander or "")
        if admiral is None or not admiral.nelson:
            continue
        if admiral.fate is AdmiralFate.KILLED:
            continue
        if admiral.fate is AdmiralFate.WOUNDED and (admiral.returns_turn or 0) > world.turn:
            continue
        return side_of[s.id]
    return None


def _commands(world: WorldState, pid: str) -> bool:
    """An admiral neither dead nor still recovering from a wound (12.2.7)."""
    admiral = world.admirals[pid]
    if admiral.fate is AdmiralFate.ACTIVE:
        return True
    if admiral.fate is AdmiralFate.KILLED:
        return False
    return (admiral.returns_turn or 0) <= world.turn


def other_admirals(
    world: WorldState, ships: list[Ship], side_of: dict[str, int]
) -> tuple[tuple[str, int], ...]:
    """12.2.7.1: the naval officers in a battle besides Nelson: the scenario's
    named admirals commanding a ship that fights (docs/rules/eia.md), once each,
    by player id."""
    found: dict[str, int] = {}
    for s in ships:
        pid = s.commander or ""
        admiral = world.admirals.get(pid)
        if admiral is None or admiral.nelson or pid in found or not _commands(world, pid):
            continue
        found[pid] = side_of[s.id]
    return tuple(sorted(found.items()))
