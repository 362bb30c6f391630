"""Arrivals and encounters (rules 6.8, 6.9; recovered placement details).

Where arriving ships are set down, whom they meet, whether they join allies
or evade enemies, and which station (rank from windward, ``Ship.station``)
they take beside the groups already there.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from pate.core.orders.model import Commerce, ContactMode, Gauge
from pate.core.rng import Rng
from pate.core.rules.movement.board import Board
from pate.core.rules.winds import Heading, heading, pick
from pate.core.world.geography import Direction
from pate.core.world.ships import AtSea, InPort, Location, Ship, ShipType, contact_key

WINDWARD = "windward"
LEEWARD = "leeward"


def evades(board: Board, sid: str, enemies: int) -> bool:
    """Rule 4.6 with its minimum and maximum: evade this many enemy ships?"""
    return enemies > 0 and board.order(sid).contact.effective_mode(enemies) is ContactMode.EVADE


def joins(board: Board, sid: str) -> bool:
    """Rule 4.6 "More Details": a ship ordered to evade never joins allies."""
    contact = board.order(sid).contact
    return contact.join_allies and contact.mode is not ContactMode.EVADE


def join_parts(board: Board, members: Sequence[str]) -> tuple[list[str], list[str]]:
    """Rule 6.9: Join Allies is each ship's own box, not its group's.  The
    members choosing as the lead does, and the others (often none)."""
    lead = joins(board, members[0])
    first = [m for m in members if joins(board, m) is lead]
    return first, [m for m in members if m not in first]


# -- the tactical area (rule 6.8) ----------------------------------------------
def area_weight(board: Board, ships: Sequence[Ship]) -> int:
    """Recovered 6.8: arrivals are drawn toward ships that are not moving and
    toward a patrolling frigate (one not moving and not convoying)."""
    p = board.params
    if not ships:
        return p.empty_area_weight
    still = [s for s in ships if board.stationary(s.id)]
    weight = p.occupied_area_weight + p.stationary_group_weight * len({s.station for s in still})
    if any(s.type is ShipType.FR and board.order(s.id).commerce is not Commerce.CONVOY for s in still):
        weight += p.patrolling_frigate_weight
    return weight


def choose_tactical(board: Board, members: Sequence[str], area: str, rng: Rng) -> int:
    """Rule 6.8: the first tactical area of an empty sea area, else a weighted
    draw; with no enemy in the sea area, movers that join allies go to an
    allied group and the others to an empty tactical area."""
    present = board.sea_area_ships(area)
    if not present:
        return 1
    count = board.map.sea_areas[area].tactical_areas
    areas = sorted(set(range(1, count + 1)) | set(present))
    weights = [area_weight(board, present.get(t, [])) for t in areas]
    drawn = pick(rng, list(zip(areas, weights, strict=True)))
    if _hostile_about(board, members, present):
        return drawn
    states = board.states_of(members)
    if joins(board, members[0]):
        allied = [t for t in areas if any(board.allied_to(s, states) for s in present.get(t, []))]
        if not allied or drawn in allied:
            return drawn
        return pick(rng, [(t, area_weight(board, present[t])) for t in allied])
    empty = [t for t in areas if t not in present]
    return rng.choice(empty) if empty else drawn


def _hostile_about(board: Board, members: Sequence[str], present: dict[int, list[Ship]]) -> bool:
    states = board.states_of(members)
    return any(board.hostiles(ships, states) for ships in present.values())


def evasion_area(board: Board, members: Sequence[str], area: str, avoid: int, rng: Rng) -> int:
    """Recovered 6.8: evaders go to another tactical area, an empty one if
    possible, else one without enemies; with nowhere to go they stay."""
    present = board.sea_area_ships(area)
    states = board.states_of(members)
    others = [t for t in range(1, board.map.sea_areas[area].tactical_areas + 1) if t != avoid]
    empty = [t for t in others if t not in present]
    if empty:
        return rng.choice(empty)
    calm = [t for t in others if not board.hostiles(present.get(t, []), states)]
    return rng.choice(calm) if calm else avoid


# -- the station (rule 6.9) -----------------------------------------------------
def approach_side(
    board: Board, members: Sequence[str], course: Direction, loc: Location, enemies: list[Ship], *, rng: Rng
) -> str:
    """Rule 6.9: arriving from windward or leeward they take that side; across
    the wind they manoeuvre: opposite requested gauges are granted, otherwise
    the side is drawn."""
    way = heading(course, board.wind_at(loc))
    if way is Heading.DOWNWIND:
        return WINDWARD
    if way is Heading.UPWIND:
        return LEEWARD
    wanted = board.order(members[0]).contact.gauge
    end = (
        min(enemies, key=lambda s: (s.station, s.id))
        if wanted is Gauge.WINDWARD
        else max(enemies, key=lambda s: (s.station, s.id))
    )
    if board.order(end.id).contact.gauge is not wanted:
        return WINDWARD if wanted is Gauge.WINDWARD else LEEWARD
    return WINDWARD if rng.below(100) < board.params.across_windward_percent else LEEWARD


def take_station(
    board: Board,
    members: Sequence[str],
    loc: Location,
    course: Direction,
    *,
    rng: Rng,
    join: bool,
    side: str = "",
) -> tuple[int, str, bool]:
    """The station the arrivals take at ``loc``, the side they came in on
    (``side`` if already known), and whether they joined an allied group.
    Rule 6.9: a third group approaches from its side and joins the first
    group there if it is allied."""
    present = board.at_location(loc, exclude=members)
    if not present:
        return 0, "", False
    states = board.states_of(members)
    enemies = board.hostiles(present, states)
    stations = sorted({s.station for s in present})
    if not enemies:
        allied = [s.station for s in present if board.allied_to(s, states)]
        if join and allied:
            return min(allied), "", True
        return stations[-1] + 1, "", False
    side = side or approach_side(board, members, course, loc, enemies, rng=rng)
    end = stations[0] if side == WINDWARD else stations[-1]
    end_group = [s for s in present if s.station == end]
    if join and all(board.allied_to(s, states) for s in end_group):
        return end, side, True
    if side == LEEWARD:
        return stations[-1] + 1, side, False
    for ship in present:  # make room at the windward end
        board.update(_restation(ship, ship.station + 1))
    return 0, side, False


def _restation(ship: Ship, station: int) -> Ship:
    return replace(ship, station=station)


def settle(
    board: Board,
    members: Sequence[str],
    loc: Location,
    course: Direction,
    rng: Rng,
    *,
    kind: str,
    join: bool | None = None,
    seen: Sequence[str] = (),
    mates: Sequence[str] = (),
    **data: object,
) -> None:
    """Set a group down at ``loc``, take its station (6.9) and report the
    arrival, and the meeting with enemies or allies, to all present.  Unless
    ``join`` is imposed, each member's own Join Allies box decides (6.9):
    members choosing otherwise than the lead settle after it, on the side it
    came in on, as a group of their own.  ``seen``: ships that saw the arrival
    from afar (the ships an evasion avoided); ``mates``: ships that sailed in
    with the group and parted from it there, in contact until then (5.1)."""
    by = _Seen(tuple(seen), tuple(mates))
    if join is not None:
        _settle_part(board, members, loc, course, rng, kind, join, by, "", data)
        return
    first, rest = join_parts(board, members)
    side = _settle_part(board, first, loc, course, rng, kind, joins(board, first[0]), by, "", data)
    if rest:
        _settle_part(board, rest, loc, course, rng.fork("apart"), kind, joins(board, rest[0]), by, side, data)


@dataclass(frozen=True, slots=True)
class _Seen:
    afar: tuple[str, ...]
    mates: tuple[str, ...]


def _settle_part(
    board: Board,
    members: Sequence[str],
    loc: Location,
    course: Direction,
    rng: Rng,
    kind: str,
    join: bool,
    seen: _Seen,
    side: str,
    data: dict[str, object],
) -> str:
    present = board.here(contact_key(loc), exclude=members)
    enemies = sorted(s.id for s in board.hostiles(present, board.states_of(members)))
    station, side, joined = take_station(board, members, loc, course, rng=rng, join=join, side=side)
    for sid in members:
        board.put(sid, loc, station)
    witnesses = [s.id for s in present]
    close = [*witnesses, *(m for m in seen.mates if m not in witnesses)]
    # The ships avoided (6.9) saw the evasion from their own tactical area,
    # out of contact (5.1): the judge must know them to keep them from the
    # evaders' identities (docs/rules/intel.md, "Evasion seen from afar").
    afar = sorted(set(seen.afar) - set(close))
    board.emit(kind, members, loc, [*close, *afar], station=station, side=side, **data, **_afar(afar))
    if enemies:
        board.emit("met_enemy", members, loc, witnesses, enemies=enemies, side=side)
    if joined:
        # Rule 1.2: the harbor and the coastal waters are two tactical areas;
        # a join is with the allied group at the arrivals' own location (6.9),
        # never with ships in the other part of the port.
        here = board.at_location(loc, exclude=members)
        allies = sorted(s.id for s in here if s.station == station and s.id not in enemies)
        board.emit("joined_allies", members, loc, witnesses, allies=allies)
    return side


def _afar(afar: Sequence[str]) -> dict[str, object]:
    return {"afar": list(afar)} if afar else {}


def arrive_at_sea(
    board: Board, members: Sequence[str], area: str, course: Direction, rng: Rng, *, came_from: str
) -> dict[str, Location]:
    """Rules 6.8 and 6.9 for a group entering a sea area; returns where each
    member ended up (evaders may be elsewhere, and so may members that do not
    join allies as the lead does when no enemy is about)."""
    tactical = choose_tactical(board, members, area, rng)
    first, rest = join_parts(board, members)
    if rest and not _hostile_about(board, members, board.sea_area_ships(area)):
        # recovered 6.8: with no hostile ship present, those joining allies go
        # to an allied group and the others to an empty tactical area
        apart = choose_tactical(board, rest, area, rng.fork("apart", "area"))
        settle(board, first, AtSea(area, tactical), course, rng, kind="arrived", came_from=came_from)
        settle(
            board, rest, AtSea(area, apart), course, rng.fork("apart"), kind="arrived", came_from=came_from
        )
        return {m: board.ships[m].location for m in members}
    present = board.here(("sea", area, tactical), exclude=members)
    enemies = len(board.hostiles(present, board.states_of(members)))
    evaders = [m for m in members if evades(board, m, enemies)]
    stayers = [m for m in members if m not in evaders]
    if stayers:
        settle(board, stayers, AtSea(area, tactical), course, rng, kind="arrived", came_from=came_from)
    if evaders:
        other = evasion_area(board, evaders, area, tactical, rng)
        if other == tactical:  # recovered 6.8: with nowhere to go they stay, and meet those there
            settle(board, evaders, AtSea(area, tactical), course, rng, kind="arrived", came_from=came_from)
            return {m: board.ships[m].location for m in members}
        seen = [s.id for s in present]
        settle(
            board,
            evaders,
            AtSea(area, other),
            course,
            rng,
            kind="evaded",
            seen=seen,
            mates=stayers,
            came_from=came_from,
            avoided=tactical,
            enemies_avoided=enemies,
        )
    return {m: board.ships[m].location for m in members}


def arrive_in_port(
    board: Board,
    members: Sequence[str],
    port: str,
    want_harbor: bool,
    course: Direction,
    *,
    rng: Rng,
    came_from: str,
) -> Location:
    """Rule 6.8: into the coastal waters, or into the harbor when so ordered
    and no enemy ship is present.  The book bars only enemy ships: the harbor
    of a port held by a hostile state is entered when no enemy ship lies in
    the port (its shore batteries fight only in a harbor battle, 7.1)."""
    enemies = board.hostiles(board.here(board.port_key(port)), board.states_of(members))
    harbor = want_harbor and not enemies
    loc = InPort(port, harbor)
    settle(board, members, loc, course, rng, kind="entered_port", came_from=came_from, harbor=harbor)
    return loc
