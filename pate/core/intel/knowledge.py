"""What each player knows at the end of a turn (rules 3.11 and 5).

A player's knowledge comes from their own ships only: those they command or
deputise, and for a naval minister every ship of their state (rule 2.3), plus
what a naval minister hears from the shore (5.3).  It holds the full report of
each own ship, its contact list, what its frigates sighted, the intelligence
reports, and the turn's events that one of those ships took part in or
witnessed, renumbered so that events elsewhere do not even shift a number.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from pate.core.codec import from_plain
from pate.core.events import Event
from pate.core.intel.judged import Judge, judge
from pate.core.intel.model import (
    AreaWind,
    IntelReport,
    ObservedEvent,
    PlayerKnowledge,
    PortReport,
    PortWatch,
    ShipReport,
    Sighted,
    Sighting,
    StateName,
)
from pate.core.intel.picture import picture
from pate.core.ruledata import RuleData
from pate.core.rules.detection import ContactList, contact_lists, ship_sort_key, sorted_ids
from pate.core.rules.gathering import GARRISON, INTEL_KINDS, INTELLIGENCE, LAND_UNITS, SCOUTING, SHORE
from pate.core.world.geography import WorldMap
from pate.core.world.ships import AtSea, InPort, Ship
from pate.core.world.state import Player, Role, TurnKind, WorldState


def is_naval_minister(player: Player) -> bool:
    return player.state is not None and Role.NAVAL_MINISTER in player.roles


def own_ships(player: Player, world: WorldState) -> tuple[str, ...]:
    """The ships whose reports the player receives (rules 2.3, 3.11)."""
    minister = is_naval_minister(player)
    return sorted_ids(
        s.id
        for s in world.ships.values()
        if player.id in (s.commander, s.deputy) or (minister and s.state == player.state)
    )


@dataclass
class TurnView:
    """What every player's knowledge of one turn shares: the contact list of
    every ship (rule 5.1, one grouping of the world for all players), which
    ships are attached to which, and each own ship's report, built once even
    when a commander and his naval minister both receive it (2.3)."""

    world: WorldState
    lists: dict[str, ContactList]
    attached: dict[str, tuple[str, ...]]
    reports: dict[str, ShipReport] = field(default_factory=dict)

    @classmethod
    def of(cls, world: WorldState, ships: Iterable[str] | None = None) -> TurnView:
        """The view of ``ships`` (every ship if None)."""
        attached: dict[str, list[str]] = {}
        for s in world.ships.values():
            if s.attached_to is not None:
                attached.setdefault(s.attached_to, []).append(s.id)
        return cls(world, contact_lists(world, ships), {k: sorted_ids(v) for k, v in attached.items()})

    def ship_report(self, sid: str, intel: Sequence[Event]) -> ShipReport:
        # The report of a ship depends on the ship alone: the land units of
        # 5.3 come from intel events its own ship observed, which every
        # player receiving this ship's report also receives.
        report = self.reports.get(sid)
        if report is None:
            report = _ship_report(self.world, self.world.ships[sid], self, intel)
            self.reports[sid] = report
        return report


def knowledge_for(
    player_id: str,
    world_before: WorldState,
    world_after: WorldState,
    events: Sequence[Event],
    world_map: WorldMap,
    rules: RuleData | None = None,
    view: TurnView | None = None,
    previous: Iterable[Sighted] = (),
) -> PlayerKnowledge:
    """The knowledge of one player after a turn.  For the first report of a
    campaign pass the starting world as both worlds and no events (3.11).
    The dice were drawn in the intelligence phase; ``rules`` only gives the
    step to which an enemy's strength in battle is judged, and how old a
    sighting may grow.  ``view`` shares the per-turn work among the players of
    one turn (see :func:`all_players`); ``previous`` is the player's picture of
    the turn before (:mod:`pate.core.intel.picture`)."""
    player = world_after.players.get(player_id) or world_before.players[player_id]
    initial = world_after.turn == world_before.turn
    mine = own_ships(player, world_after)
    view = view if view is not None and view.world is world_after else TurnView.of(world_after, mine)
    observers = frozenset(mine) | frozenset(() if initial else own_ships(player, world_before))
    seen = [e for e in events if e.observers & observers or _ministers_business(e, player)]
    plain = [e for e in seen if e.kind not in INTEL_KINDS]
    intel = [e for e in seen if e.kind in INTEL_KINDS]
    allies = _states_where(world_after, player.state, world_after.diplomacy.allied)
    judge_ = Judge(
        own=observers,
        friends=frozenset(allies) | frozenset(() if player.state is None else (player.state,)),
        strength_step=_strength_step(rules),
        names={s: world_before.ships[s].name for s in observers if s not in world_after.ships},
    )
    k = PlayerKnowledge(
        campaign=world_after.campaign,
        player=player.id,
        player_name=player.name,
        state=player.state,
        naval_minister=is_naval_minister(player),
        turn=0 if initial else world_before.turn,
        next_turn=world_after.turn,
        ships=tuple(view.ship_report(s, intel) for s in mine),
        lost=sorted_ids(s for s in observers if s not in world_after.ships),
        events=_observed(plain, observers, judge_),
        sightings=_sightings(intel, frozenset(mine)),
        intelligence=_intelligence(intel, frozenset(mine)),
        port_watch=_port_watch(player, events, world_before.turn) if is_naval_minister(player) else (),
        winds=_winds(world_map, world_after, mine),
        states=tuple(
            StateName(s.code, s.nation, s.name)
            for s in sorted(world_after.diplomacy.states.values(), key=lambda s: s.code)
        ),
        allies=allies,
        enemies=_states_where(world_after, player.state, world_after.diplomacy.hostile),
        ports=_ports(world_after, world_map, player.state) if is_naval_minister(player) else (),
        political_points=tuple(sorted(world_after.political_points.items())),
        peace=not initial and world_before.kind is TurnKind.PEACE,
        next_peace=world_after.kind is TurnKind.PEACE,
    )
    return replace(k, picture=picture(k, previous, world_map, rules))


def all_players(
    world_before: WorldState,
    world_after: WorldState,
    events: Sequence[Event],
    world_map: WorldMap,
    rules: RuleData | None = None,
    previous: Mapping[str, Iterable[Sighted]] | None = None,
) -> dict[str, PlayerKnowledge]:
    """The knowledge of every player of the turn, in player order, sharing one
    :class:`TurnView`; each is equal to :func:`knowledge_for` of that player
    (``previous``: each player's picture of the turn before)."""
    view = TurnView.of(world_after)
    pictures = previous or {}
    return {
        p: knowledge_for(p, world_before, world_after, events, world_map, rules, view, pictures.get(p, ()))
        for p in sorted(world_after.players)
    }


def _ports(world: WorldState, world_map: WorldMap, state: str | None) -> tuple[PortReport, ...]:
    """The ports the minister's state controls, by name (rules 3.3-3.5)."""
    out = []
    for name in sorted(world.ports):
        port = world.ports[name]
        known = world_map.ports.get(name)
        if port.controller != state or known is None:
            continue
        out.append(
            PortReport(
                name=name,
                sea_area=known.sea_area,
                stores=port.stores,
                yard=known.yard,
                building=port.building,
                building_transports=port.building_transports,
                supplies=port.supplies,
                battery_damaged=port.battery_damaged,
                garrison=tuple(sorted(port.garrison)),
            )
        )
    return tuple(out)


def _states_where(world: WorldState, state: str | None, test: Callable[[str, str], bool]) -> tuple[str, ...]:
    if state is None:
        return ()
    return tuple(sorted(code for code in world.diplomacy.states if test(state, code)))


def _name(world: WorldState, player_id: str | None) -> str:
    if player_id is None:
        return ""
    player = world.players.get(player_id)
    return player.name if player else player_id


def _ship_report(world: WorldState, ship: Ship, view: TurnView, intel: Iterable[Event]) -> ShipReport:
    contacts = view.lists[ship.id]
    return ShipReport(
        id=ship.id,
        name=ship.name,
        type=ship.type,
        state=ship.state,
        commander=_name(world, ship.commander),
        deputy=_name(world, ship.deputy),
        location=ship.location,
        base=ship.base,
        quality=ship.quality.label,
        experience=ship.experience,
        morale=ship.morale,
        stores=ship.stores,
        crew=ship.crew,
        marines=ship.marines,
        capacity=ship.capacity,
        hull=ship.hull,
        rigging=ship.rigging,
        carrying=ship.cargo.units,
        supplies=ship.cargo.supplies,
        attached_to=ship.attached_to,
        attached=view.attached.get(ship.id, ()),
        active=ship.active,
        visible=contacts.seen,
        land_units=_land_units(world, ship, intel),
    )


def _land_units(world: WorldState, ship: Ship, intel: Iterable[Event]) -> tuple[str, ...]:
    """Rule 5.3: the units in the port's city are always seen; those elsewhere
    in its strategic square as the intelligence phase drew them."""
    loc = ship.location
    if not ship.active or not isinstance(loc, InPort):
        return ()
    port = world.ports.get(loc.port)
    units = set(port.garrison) if port else set()
    for e in intel:
        if e.kind == LAND_UNITS and ship.id in e.observers and e.data.get("port") == loc.port:
            units.update(str(u) for u in e.data.get("units", ()))
    return tuple(sorted(units))


def _strength_step(rules: RuleData | None) -> int:
    """data/rules/intel.toml [judging]: an enemy's strength is judged to this step."""
    section = rules.section("intel").get("judging", {}) if rules is not None else {}
    return int(section.get("enemy_strength_step", 50))


# Events about a state rather than its ships: its naval minister learns of them
# (store moves he ordered, rule 3.5; a port of his state taken or won, 3.9).
MINISTERS_KINDS = {
    "stores_moved": ("state",),
    "stores_move_refused": ("state",),
    "port_captured": ("from", "to"),
    "trade_lost": ("state",),  # rule 4.8: the minister hears of his merchants taken
    "trade_summary": ("state",),  # and reads his trade summary
    # EiA new naval rules: the account, the trade taken, the state's routes
    "treasury": ("state",),
    "trade_ships_taken": ("state",),
    "trade_route": ("states",),
}


def _ministers_business(e: Event, player: Player) -> bool:
    keys = MINISTERS_KINDS.get(e.kind)
    if not keys or not is_naval_minister(player) or player.state is None:
        return False
    return any(_names(e.data.get(k), player.state) for k in keys)


def _names(value: object, state: str) -> bool:
    """A state named alone or in a list (a trade route's states)."""
    return value == state or (isinstance(value, list | tuple) and state in value)


def _observed(events: Iterable[Event], observers: frozenset[str], j: Judge) -> tuple[ObservedEvent, ...]:
    """The events as the player's ships saw them: what they could not judge
    (dice, an enemy's exact strength, crew or damage) is left out."""
    out: list[ObservedEvent] = []
    for i, e in enumerate(events, start=1):
        ships, location, data = judge(e, j)
        out.append(
            ObservedEvent(
                index=i,
                phase=e.phase,
                kind=e.kind,
                location=location,
                ships=ships,
                seen_by=sorted_ids(e.observers & observers),
                data=data,
            )
        )
    return tuple(out)


def _sightings(intel: Iterable[Event], mine: frozenset[str]) -> tuple[Sighting, ...]:
    out: list[Sighting] = []
    for e in intel:
        if e.kind == SCOUTING:
            out.extend(from_plain(Sighting, d) for d in e.data.get("sightings", ()) if d.get("by") in mine)
    return tuple(out)


def _intelligence(intel: Iterable[Event], mine: frozenset[str]) -> tuple[IntelReport, ...]:
    out: list[IntelReport] = []
    for e in intel:
        if e.kind == INTELLIGENCE:
            by = sorted_ids(e.observers & mine)
            for g in e.data.get("groups", ()):
                out.append(
                    from_plain(IntelReport, {**g, "place": e.data.get("place", e.location), "seen_by": by})
                )
    return tuple(out)


def _port_watch(player: Player, events: Iterable[Event], turn: int) -> tuple[PortWatch, ...]:
    """Rule 5.3 shore reports, routed to the naval minister of their state."""
    out: list[PortWatch] = []
    for e in events:
        if e.kind not in (GARRISON, SHORE) or e.data.get("for_state") != player.state:
            continue
        data: dict[str, Any] = dict(e.data)
        out.append(
            PortWatch(
                port=str(data.get("port", e.location)),
                source="garrison" if e.kind == GARRISON else "land units",
                as_of_turn=int(data.get("as_of_turn", turn)),
                ships=tuple(sorted((str(s) for s in data.get("ships", ())), key=ship_sort_key)),
            )
        )
    return tuple(out)


def _winds(world_map: WorldMap, world: WorldState, mine: Iterable[str]) -> tuple[AreaWind, ...]:
    """Winds of the sea areas where the player has ships (ports share the
    wind of their connected sea area, rule 1.4)."""
    areas: set[str] = set()
    for sid in mine:
        ship = world.ships[sid]
        if not ship.active:
            continue
        if isinstance(ship.location, AtSea):
            areas.add(ship.location.area)
        elif isinstance(ship.location, InPort) and ship.location.port in world_map.ports:
            areas.add(world_map.ports[ship.location.port].sea_area)
    return tuple(
        AreaWind(a, world.winds[a].direction, world.winds[a].strength)
        for a in sorted(areas)
        if a in world.winds
    )
