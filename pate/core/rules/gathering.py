"""The dice of naval intelligence (rules 3.10, 5.2, 5.3, 5.4), as events.

Every report that involves chance is drawn here, in the intelligence phase of
the resolver, and stored as an event: the knowledge of a player is then a
plain function of the turn's events and the world, with no dice of its own.
Each report draws from its own stream (``rng.fork`` by observer and place), so
ships elsewhere never change what a player is told.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from pate.core.events import Event, Phase
from pate.core.orders.model import ShipOrder, default_order
from pate.core.rng import Rng
from pate.core.rules.detection import (
    Category,
    ScoutingRules,
    count_groups,
    estimate,
    scout,
    scouts,
    sorted_ids,
)
from pate.core.world.geography import WorldMap
from pate.core.world.ships import AtSea, InPort, Ship, ShipType
from pate.core.world.state import WorldState

SCOUTING = "scouting_report"  # 5.2
LAND_UNITS = "land_units_sighted"  # 5.3, strategic square
SHORE = "shore_report"  # 5.3, land units told of the ships in their port
GARRISON = "garrison_report"  # 5.3, off-GITM-map garrison, one turn late
INTELLIGENCE = "intelligence_report"  # 5.4
INTEL_KINDS = frozenset({SCOUTING, LAND_UNITS, SHORE, GARRISON, INTELLIGENCE})


@dataclass(frozen=True, slots=True)
class LandRules:
    strategic_square_percent: int

    @classmethod
    def from_section(cls, d: Mapping[str, Any]) -> LandRules:
        return cls(strategic_square_percent=int(d.get("strategic_square_percent", 50)))


@dataclass(frozen=True, slots=True)
class ReportRules:
    report_percent: int
    number_spread_percent: int
    wrong_state_percent: int
    wrong_class_percent: int

    @classmethod
    def from_section(cls, d: Mapping[str, Any]) -> ReportRules:
        return cls(
            report_percent=int(d.get("report_percent", 80)),
            number_spread_percent=int(d.get("number_spread_percent", 50)),
            wrong_state_percent=int(d.get("wrong_state_percent", 10)),
            wrong_class_percent=int(d.get("wrong_class_percent", 15)),
        )


@dataclass(frozen=True, slots=True)
class IntelRules:
    """The numbers of data/rules/intel.toml."""

    scouting: ScoutingRules
    land: LandRules
    reports: ReportRules

    @classmethod
    def from_section(cls, d: Mapping[str, Any]) -> IntelRules:
        return cls(
            scouting=ScoutingRules.from_section(d.get("scouting", {})),
            land=LandRules.from_section(d.get("land", {})),
            reports=ReportRules.from_section(d.get("reports", {})),
        )


def _event(
    kind: str, location: str, *, about: Iterable[str] = (), seen_by: Iterable[str] = (), **data: Any
) -> Event:
    return Event(
        phase=Phase.INTELLIGENCE,
        kind=kind,
        ships=tuple(about),
        location=location,
        witnesses=sorted_ids(seen_by),
        data=data,
    )


def place_name(ship: Ship) -> str | None:
    """The sea area code or port name a ship is in (5.4 "sea area or port")."""
    loc = ship.location
    if isinstance(loc, AtSea):
        return loc.area
    if isinstance(loc, InPort):
        return loc.port
    return None


def _by_place(world: WorldState) -> dict[str, list[Ship]]:
    out: dict[str, list[Ship]] = {}
    for ship in world.ships.values():
        name = place_name(ship) if ship.active else None
        if name is not None:
            out.setdefault(name, []).append(ship)
    return out


# --- rule 5.2 ---------------------------------------------------------------


def scouting_events(
    world_map: WorldMap,
    world: WorldState,
    orders: Mapping[str, ShipOrder],
    rules: ScoutingRules,
    rng: Rng,
) -> list[Event]:
    events: list[Event] = []
    for frigate in sorted(world.ships.values(), key=lambda s: s.id):
        if not scouts(frigate):
            continue
        order = orders.get(frigate.id) or default_order(frigate.id)
        found = scout(world_map, world, frigate, order, rules=rules, rng=rng)
        if found:
            assert isinstance(frigate.location, AtSea)
            events.append(_event(SCOUTING, frigate.location.area, about=(frigate.id,), sightings=found))
    return events


# --- rule 5.3 ---------------------------------------------------------------


def land_unit_events(world_map: WorldMap, world: WorldState, rules: LandRules, rng: Rng) -> list[Event]:
    """Units in the strategic square but outside the city, seen by chance by
    the ships of each state in an on-GITM-map port.  (Units in the city's
    tactical square are seen always: the knowledge reads them off the port.)"""
    events: list[Event] = []
    for port_name, ships in sorted(_by_place(world).items()):
        port = world_map.ports.get(port_name)
        state = world.ports.get(port_name)
        if port is None or state is None or not port.on_gitm_map or not state.strategic_units:
            continue
        for observer in sorted({s.state for s in ships}):
            stream = rng.fork(port_name, observer)
            seen = [
                u
                for u in sorted(state.strategic_units)
                if stream.fork(u).chance(rules.strategic_square_percent)
            ]
            if seen:
                witnesses = [s.id for s in ships if s.state == observer]
                events.append(_event(LAND_UNITS, port_name, seen_by=witnesses, port=port_name, units=seen))
    return events


def shore_events(world_map: WorldMap, world: WorldState) -> list[Event]:
    """Units in a port's strategic square (city or not) are told of the ships
    in the port: the report goes to each state with units there other than
    the ships' own, for the land game and that state's naval minister."""
    events: list[Event] = []
    for port_name, ships in sorted(_by_place(world).items()):
        port = world_map.ports.get(port_name)
        state = world.ports.get(port_name)
        if port is None or state is None or not port.on_gitm_map:
            continue
        for listener in sorted({world.unit_state(u) for u in (*state.garrison, *state.strategic_units)}):
            foreign = sorted_ids(s.id for s in ships if s.state != listener)
            if foreign:
                events.append(
                    _event(SHORE, port_name, port=port_name, for_state=listener, ships=list(foreign))
                )
    return events


def garrison_events(world_map: WorldMap, start: WorldState) -> list[Event]:
    """Off-GITM-map garrisons report the ships (not transports: rule 2.1's
    "ships") of other states in their port to their naval minister a turn
    late: the intelligence phase of turn N tells what lay there when turn N
    began, that is at the end of turn N-1."""
    events: list[Event] = []
    for port_name, ships in sorted(_by_place(start).items()):
        port = world_map.ports.get(port_name)
        state = start.ports.get(port_name)
        if port is None or state is None or port.on_gitm_map:
            continue
        seen = sorted_ids(s.id for s in ships if s.state != state.controller and s.type is not ShipType.TR)
        if seen:
            events.append(
                _event(
                    GARRISON,
                    port_name,
                    port=port_name,
                    for_state=state.controller,
                    as_of_turn=start.turn,
                    ships=list(seen),
                )
            )
    return events


# --- rule 5.4 ---------------------------------------------------------------


def _misreport(
    state: str, cat: Category, observer: str, states: list[str], *, rules: ReportRules, rng: Rng
) -> tuple[str, Category]:
    """Rule 5.4 "may not be accurate": a wrong flag (of another state with
    ships in the world) or a wrong class."""
    others = [s for s in states if s not in (state, observer)]
    if others and rng.chance(rules.wrong_state_percent):
        state = rng.choice(others)
    if cat is not Category.TRANSPORTS and rng.chance(rules.wrong_class_percent):
        cat = Category.FRIGATES if cat is Category.LINE else Category.LINE
    return state, cat


def intelligence_events(start: WorldState, end: WorldState, rules: ReportRules, rng: Rng) -> list[Event]:
    """Rule 5.4: each state whose ships end the turn in a sea area or port
    hears of the ships not on its side that began the turn there, wherever
    they went since.  Per group (state, class): reported with ``report_percent``, under
    a wrong flag with ``wrong_state_percent``, the line taken for frigates or
    the reverse with ``wrong_class_percent``, its number approximate."""
    began = _by_place(start)
    # The wrong flag is one a navy at sea flies (docs/rules/intel.md): a
    # report of Moroccan ships of the line in the Skagerrak is no report.
    states = sorted({s.state for s in start.ships.values()})
    events: list[Event] = []
    for place, enders in sorted(_by_place(end).items()):
        for observer in sorted({s.state for s in enders}):
            foreign = [s for s in began.get(place, []) if not start.diplomacy.allied(observer, s.state)]
            reported: dict[tuple[str, Category], int] = {}
            for state, cat, n in count_groups(foreign):
                stream = rng.fork(place, observer, state, cat.value)
                if not stream.chance(rules.report_percent):
                    continue
                key = _misreport(state, cat, observer, states, rules=rules, rng=stream)
                reported[key] = reported.get(key, 0) + estimate(n, rules.number_spread_percent, stream)
            if reported:
                groups = [
                    {"state": s, "category": c.value, "estimate": n} for (s, c), n in sorted(reported.items())
                ]
                witnesses = [s.id for s in enders if s.state == observer]
                events.append(_event(INTELLIGENCE, place, seen_by=witnesses, place=place, groups=groups))
    return events
