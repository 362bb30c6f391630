"""What one player knows, read from his report JSON (docs/formats/reports.md).

The admiral reads nothing else about the world: this module turns the
player's knowledge (the ``json`` report body, decoded) into the few plain
values the decisions need, and it is the only place that reads the report's
fields, so a change of the format has one place to go.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pate.core.world.geography import Direction, WindStrength, WorldMap
from pate.core.world.ships import Quality, parse_ship_id
from pate.core.world.state import Wind

Report = Mapping[str, Any]

# How much a ship of each class weighs in a fight, in ships of the line
# (rule 7.7 gives a flagship more guns than a ship of the line and a frigate
# far fewer; transport groups do not fight).  The admiral's own judgement,
# not a rule: data/bots.toml holds the rest of his numbers.
WEIGHT = {"FL": 1.3, "SL": 1.0, "FR": 0.25, "TR": 0.0}
CATEGORY_WEIGHT = {"line": 1.0, "frigates": 0.25, "transports": 0.0}
QUALITY = {q.label: q.value for q in Quality}  # "Very Good" -> 2 (rule 7.6's points)


@dataclass(frozen=True, slots=True)
class OwnShip:
    id: str
    type: str
    place: str  # the contact location: "AREA/tactical" at sea, "Port/harbor" or "Port/coastal"
    area: str  # the sea area (a port's connected sea area)
    port: str | None  # the port the ship lies in
    harbor: bool
    base: str
    stores: int
    damage: int  # hull + rigging points
    quality: int  # rule 7.6's points, -3 to 3
    hull: int
    active: bool
    lead: str | None  # the ship it is attached to
    attached: tuple[str, ...]
    commander: str
    deputy: str
    cargo: tuple[str, ...]  # GITM units aboard
    land_units: tuple[str, ...]  # GITM units seen in the port (5.3)
    capacity: int
    enemies_here: float  # weight of the enemy ships in contact (5.1)
    enemies_here_count: int


@dataclass(frozen=True, slots=True)
class View:
    player: str
    name: str
    state: str
    minister: bool
    turn: int  # the turn the orders are for
    ships: tuple[OwnShip, ...]
    allies: frozenset[str]
    enemies: frozenset[str]
    winds: Mapping[str, Wind]
    enemy_weight: Mapping[str, float]  # sea area -> weight of the enemy ships known there
    enemy_ports: Mapping[str, float]  # port -> weight of enemy ships known in it
    own_ports: Mapping[str, int]  # a naval minister's ports -> stores held
    own_port_areas: Mapping[str, str]  # those ports -> their sea area
    # sea area -> (weight, age in turns) of enemies seen there earlier and not since: the
    # report's picture (docs/rules/intel.md), the same ages the player's map shows
    remembered: Mapping[str, tuple[float, int]] = field(default_factory=dict)

    def mine(self, ship: OwnShip) -> bool:
        """Ships whose orders this player gives (rules 2.3, 4.1): those he
        commands or deputises, and for a naval minister those with no
        commander; the others' commanders order them."""
        if self.name in (ship.commander, ship.deputy):
            return True
        return self.minister and ship.commander == ""


def read_view(report: Report, world_map: WorldMap) -> View:
    enemies = frozenset(str(s) for s in report["enemies"])
    ships = tuple(s for s in (_own_ship(raw, world_map, enemies) for raw in report["ships"]) if s is not None)
    weight, in_ports = _enemy_picture(report, ships, world_map, enemies)
    ports = report.get("ports") or ()
    return View(
        player=str(report["player"]),
        name=str(report["player_name"]),
        state=str(report["state"]),
        minister=bool(report["naval_minister"]),
        turn=int(report["next_turn"]),
        ships=ships,
        allies=frozenset(str(s) for s in report["allies"]) | {str(report["state"])},
        enemies=enemies,
        winds={
            str(w["sea_area"]): Wind(Direction(w["direction"]), WindStrength(w["strength"]))
            for w in report["winds"]
        },
        enemy_weight=weight,
        enemy_ports=in_ports,
        own_ports={str(p["name"]): int(p["stores"]) for p in ports},
        own_port_areas={str(p["name"]): str(p["sea_area"]) for p in ports},
        remembered=_remembered(report, world_map, enemies),
    )


def _remembered(report: Report, world_map: WorldMap, enemies: frozenset[str]) -> dict[str, tuple[float, int]]:
    """The picture's enemy sightings of earlier turns, by sea area: their weight
    (the largest of each sighting's) and the age of the youngest.  A report
    written before the picture was kept has none."""
    turn = int(report["turn"])
    out: dict[str, tuple[float, int]] = {}
    for s in report.get("picture") or ():
        age = turn - int(s["turn"])
        if age <= 0 or s["state"] not in enemies or s["sea_area"] not in world_map.sea_areas:
            continue
        parsed = parse_ship_id(str(s["key"])) if s["nearness"] == "identified" else None
        if parsed is not None:
            w = WEIGHT.get(parsed[2].value, 1.0)
        else:
            w = CATEGORY_WEIGHT.get(str(s["category"]), 1.0) * int(
                s.get("estimate_high") or s["estimate"] or 1
            )
        area = str(s["sea_area"])
        old_w, old_age = out.get(area, (0.0, age))
        out[area] = (max(old_w, w), min(old_age, age))
    return out


def _own_ship(raw: Mapping[str, Any], world_map: WorldMap, enemies: frozenset[str]) -> OwnShip | None:
    loc = raw["location"]
    if loc["kind"] == "AtSea":
        area, port, harbor = str(loc["area"]), None, False
        place = f"{area}/{loc['tactical']}"
    elif loc["kind"] == "InPort" and loc["port"] in world_map.ports:
        port, harbor = str(loc["port"]), bool(loc["harbor"])
        area = world_map.ports[port].sea_area
        place = f"{port}/{'harbor' if harbor else 'coastal'}"
    else:
        return None  # crossing the Atlantic: no orders taken (6.11)
    foes = [v for v in raw["visible"] if v["side"] == "enemy" and v["state"] in enemies]
    return OwnShip(
        id=str(raw["id"]),
        type=str(raw["type"]),
        place=place,
        area=area,
        port=port,
        harbor=harbor,
        base=str(raw["base"] or ""),
        stores=int(raw["stores"]),
        damage=int(raw["hull"]) + int(raw["rigging"]),
        quality=QUALITY.get(str(raw["quality"]), 0),
        hull=int(raw["hull"]),
        active=bool(raw["active"]),
        lead=raw["attached_to"],
        attached=tuple(str(a) for a in raw["attached"]),
        commander=str(raw["commander"] or ""),
        deputy=str(raw["deputy"] or ""),
        cargo=tuple(str(u) for u in raw["carrying"]),
        land_units=tuple(str(u) for u in raw["land_units"]),
        capacity=int(raw["capacity"]),
        enemies_here=sum(WEIGHT.get(str(v["type"]), 1.0) for v in foes),
        enemies_here_count=len(foes),
    )


def _enemy_picture(
    report: Report, ships: Sequence[OwnShip], world_map: WorldMap, enemies: frozenset[str]
) -> tuple[dict[str, float], dict[str, float]]:
    """The enemy's weight known in each sea area and port this turn: ships in
    contact counted by id, frigates' sightings (5.2) and intelligence (5.4)
    by their estimates; where sources overlap the largest is kept, so one
    squadron seen three ways is not three squadrons."""
    areas: dict[str, float] = {}
    ports: dict[str, float] = {}

    def note(area: str, port: str | None, weight: float) -> None:
        areas[area] = max(areas.get(area, 0.0), weight)
        if port is not None:
            ports[port] = max(ports.get(port, 0.0), weight)

    seen: dict[str, dict[str, float]] = {}
    for ship in ships:
        if ship.enemies_here:
            seen.setdefault(ship.place, {})[ship.id] = ship.enemies_here
    by_place = {s.place: s for s in ships}
    for place, weights in seen.items():
        ship = by_place[place]
        note(ship.area, ship.port, max(weights.values()))
    for s in report["sightings"]:
        if s["state"] in enemies and s["sea_area"] in world_map.sea_areas:
            w = CATEGORY_WEIGHT.get(str(s["category"]), 1.0) * int(s["estimate"])
            note(str(s["sea_area"]), s["port"] if s["port"] in world_map.ports else None, w)
    for r in report["intelligence"]:
        if r["state"] not in enemies:
            continue
        w = CATEGORY_WEIGHT.get(str(r["category"]), 1.0) * int(r["estimate"])
        place = str(r["place"])
        if place in world_map.sea_areas:
            note(place, None, w)
        elif place in world_map.ports:
            note(world_map.ports[place].sea_area, place, w)
    return areas, ports
