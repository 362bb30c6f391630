"""Checking a movement order against the map (rules 6.1 to 6.5, 6.11, 6.12).

The route is read in the order the movement phase carries it out (6.5): from
where the ship is, through the first and second sea areas, and the port last.
So the port must be reachable from the last sea area named (or from the
ship's own sea area when none is named), or be the port the ship is in (a
shift between harbor and coastal waters, 6.1).
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

from pate.core.orders.limits import OrderLimits
from pate.core.orders.model import Movement
from pate.core.orders.refusal import INVALID, Refusal
from pate.core.world.geography import WorldMap
from pate.core.world.ships import AtSea, InPort, Ship, ShipType
from pate.core.world.state import TurnKind

F = "movement"


def suggest(name: str, known: Iterable[str]) -> str:
    """A hint for a misspelt port or sea area ("check spelling carefully", 1.4)."""
    choices = list(known)
    folded = {c.casefold(): c for c in choices}
    if name.casefold() in folded:
        return f"; did you mean {folded[name.casefold()]}?"
    close = difflib.get_close_matches(name, choices, n=1, cutoff=0.75)
    return f"; did you mean {close[0]}?" if close else ""


def check_movement(
    mv: Movement, ship: Ship, world_map: WorldMap, limits: OrderLimits, kind: TurnKind
) -> list[Refusal]:
    out = _shape(mv, limits)
    out += _names(mv, world_map)
    if out:
        return out
    if kind is TurnKind.PEACE:
        return _peace(mv)
    return _route(mv, ship, world_map)


def _shape(mv: Movement, limits: OrderLimits) -> list[Refusal]:
    out: list[Refusal] = []
    for i in range(limits.sea_areas_per_turn, len(mv.sea_areas)):
        out.append(
            Refusal(
                f"{F}.sea_areas[{i}]",
                "6.1",
                f"a movement order names at most {limits.sea_areas_per_turn} sea areas",
                INVALID,
            )
        )
    if mv.port is not None and mv.any_enemy_port:
        out.append(
            Refusal(
                f"{F}.any_enemy_port",
                "6.1",
                "name one port, or any port with an enemy ship, not both",
                INVALID,
            )
        )
    if mv.harbor and mv.port is None and not mv.any_enemy_port:
        out.append(Refusal(f"{F}.harbor", "6.1", "entering the harbor needs a port to enter", INVALID))
    return out


def _names(mv: Movement, world_map: WorldMap) -> list[Refusal]:
    out: list[Refusal] = []
    for i, code in enumerate(mv.sea_areas):
        if code not in world_map.sea_areas:
            hint = suggest(code, world_map.sea_areas)
            out.append(Refusal(f"{F}.sea_areas[{i}]", "1.4", f"no sea area coded {code!r}{hint}", INVALID))
    if mv.port is not None and mv.port not in world_map.ports:
        hint = suggest(mv.port, world_map.ports)
        out.append(Refusal(f"{F}.port", "1.4", f"no port named {mv.port!r}{hint}", INVALID))
    return out


def _peace(mv: Movement) -> list[Refusal]:
    """Rule 6.12: on peace and truce turns a ship is ordered to one sea area or
    one port, at any distance."""
    if mv.any_enemy_port:
        msg = "on a peace turn, name the port: no port holds an enemy ship"
        return [Refusal(f"{F}.any_enemy_port", "6.12", msg, INVALID)]
    if len(mv.sea_areas) > 1:
        msg = "on a peace turn, name one sea area or one port"
        return [Refusal(f"{F}.sea_areas[1]", "6.12", msg, INVALID)]
    if mv.sea_areas and (mv.port is not None or mv.any_enemy_port):
        field = f"{F}.port" if mv.port is not None else f"{F}.any_enemy_port"
        return [Refusal(field, "6.12", "on a peace turn, name one sea area or one port, not both", INVALID)]
    return []


def _route(mv: Movement, ship: Ship, world_map: WorldMap) -> list[Refusal]:
    loc = ship.location
    here_port = loc.port if isinstance(loc, InPort) else None
    area = loc.area if isinstance(loc, AtSea) else None
    crossed = False
    for i, code in enumerate(mv.sea_areas):
        field = f"{F}.sea_areas[{i}]"
        if crossed:
            msg = "a ship entering the Atlantic stops there: name no sea area after it"
            return [Refusal(field, "6.11", msg, INVALID)]
        if code == area:
            continue  # naming the sea area the ship is in is no move (as the movement phase reads it)
        if area is None:
            bad = _leave_port(field, here_port, code, world_map)
            if bad:
                return [bad]
        else:
            step = _sail(field, area, code, ship, world_map)
            if isinstance(step, Refusal):
                return [step]
            crossed = step
        area = code
    return _port(mv, here_port, area, crossed, world_map)


def _leave_port(field: str, here_port: str | None, code: str, world_map: WorldMap) -> Refusal | None:
    """Rules 6.3, 6.4: out of a port only to its connected sea area, or for a
    strait port to either of its two sea areas."""
    if here_port is None:
        return None
    port = world_map.ports[here_port]
    if code in port.reachable_sea_areas:
        return None
    rule = "6.3" if port.strait_sea_area else "6.4"
    opens = " or ".join(port.reachable_sea_areas)
    return Refusal(field, rule, f"a ship in {here_port} can sail only to {opens}, not to {code}", INVALID)


def _sail(field: str, area: str, code: str, ship: Ship, world_map: WorldMap) -> Refusal | bool:
    """One sea area step (6.2), or the Atlantic crossing (6.11).  Returns
    whether the step enters the Atlantic."""
    here = world_map.sea_areas[area]
    there = world_map.sea_areas[code]
    if here.map != there.map:
        if not here.atlantic_edge:
            return Refusal(
                field,
                "6.11",
                f"to cross the Atlantic, first sail to a sea area on the edge of the map; {area} is not",
                INVALID,
            )
        if not there.atlantic_edge and ship.type is not ShipType.FR:
            return Refusal(
                field,
                "6.11",
                f"{code} is not on the edge of the {there.map.value} map; only frigates may name "
                "any sea area across the Atlantic",
                INVALID,
            )
        return True
    if not world_map.borders(area, code):
        return Refusal(field, "6.2", f"{code} does not border {area}", INVALID)
    return False


def _port(
    mv: Movement, here_port: str | None, area: str | None, crossed: bool, world_map: WorldMap
) -> list[Refusal]:
    if mv.port is None and not mv.any_enemy_port:
        return []
    field = f"{F}.port" if mv.port is not None else f"{F}.any_enemy_port"
    if crossed:
        return [Refusal(field, "6.11", "a ship entering the Atlantic cannot also enter a port", INVALID)]
    if area is None:
        if mv.port is not None and mv.port == here_port:
            return []  # rule 6.1: shift between harbor and coastal waters
        where = " or ".join(world_map.ports[here_port].reachable_sea_areas) if here_port else "a sea area"
        return [
            Refusal(
                field,
                "6.5",
                f"ships cannot sail directly from one port to another: sail to {where} first",
                INVALID,
            )
        ]
    if mv.port is None or mv.port in world_map.ports_reachable_from(area):
        return []
    port = world_map.ports[mv.port]
    rule = "6.3" if port.strait_sea_area else "6.2"
    opens = " or ".join(port.reachable_sea_areas)
    return [Refusal(field, rule, f"{mv.port} can be entered only from {opens}, not from {area}", INVALID)]
