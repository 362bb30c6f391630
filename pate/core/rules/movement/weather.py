"""Step four of rule 6.5: winds shift and storms strike (3.8, lost section 8).

The dice for a ship's storm come from a stream forked by sea area and ship
id, so one ship's fate never depends on who else was caught.
"""

from __future__ import annotations

from dataclasses import replace

from pate.core.rng import Rng
from pate.core.ruledata import RuleData
from pate.core.rules.movement.board import Board
from pate.core.rules.storms import ashore, blow, damage, strikes
from pate.core.rules.winds import describe_wind, onshore, shift_winds
from pate.core.world.geography import Port
from pate.core.world.ships import AtSea, InPort, Location, Ship, contact_key, describe
from pate.core.world.state import EIA_OPERATIONS


def weather_step(board: Board, rules: RuleData, rng: Rng) -> None:
    old = board.winds
    board.winds = shift_winds(board.map, rules, old, rng.fork("shift"))
    for area in sorted(board.winds):
        if area not in board.map.sea_areas:
            continue
        seen = _everyone(board, area)
        if board.winds[area] != old.get(area) and seen:
            board.emit(
                "wind_shifted",
                (),
                area,
                seen,
                area=area,
                before=describe_wind(old.get(area)),
                after=describe_wind(board.winds[area]),
            )
        if strikes(board.winds[area], board.storm_rules, rng.fork("storm", area)):
            board.storms.add(area)
            storm(board, area, rng.fork("storm-ships", area))


def _everyone(board: Board, area: str) -> list[str]:
    """Ships at sea in the area and in the ports connected to it."""
    ids = [s.id for ships in board.sea_area_ships(area).values() for s in ships]
    for port in board.map.connected_ports(area):
        ids.extend(board.witnesses_at(board.port_key(port)))
    return ids


def storm(board: Board, area: str, rng: Rng) -> None:
    """A storm strikes the sea area and the coastal waters of its ports."""
    wind = board.winds[area]
    at_sea = [s for ships in board.sea_area_ships(area).values() for s in ships]
    coastal: list[tuple[Port, Ship]] = []
    for name in board.map.connected_ports(area):
        port = board.map.ports[name]
        coastal += [
            (port, s)
            for s in board.here(board.port_key(name))
            if isinstance(s.location, InPort) and not s.location.harbor
        ]
    caught = sorted([s.id for s in at_sea] + [s.id for _, s in coastal])
    if caught:
        board.emit("storm", caught, area, (), area=area, wind=describe_wind(wind))
    for group in _together(board, at_sea):
        afloat = tuple(s.id for s in group if _batter(board, s, False, rng.fork(s.id)))
        if afloat:
            _scatter(board, afloat, area, rng.fork(afloat[0], "scatter"))
    ports = {s.id: p for p, s in coastal}
    for group in _together(board, [s for _, s in coastal]):
        port = ports[group[0].id]
        lee = onshore(port, wind)
        afloat = tuple(s.id for s in group if _batter(board, s, lee, rng.fork(s.id)))
        if afloat:
            _drive(board, afloat, port, area, lee=lee, rng=rng.fork(afloat[0], "drive"))


def _together(board: Board, ships: list[Ship]) -> list[list[Ship]]:
    """The ships a storm moves as one, each group lead first.  Under PATE's
    rules every ship alone.  Under the EiA new naval rules a fleet marker has
    one base ("Each fleet is based in a port, sea zone or enemy blockade
    box"), so the ships of one fleet lying together are scattered, blown out
    or driven in together, as their lead's roll (the lead lost, the first
    survivor's) decides; each still takes her own damage, and her own fate
    when driven ashore (docs/rules/eia-operations.md, "Storms")."""
    ordered = sorted(ships, key=lambda s: s.id)
    if board.world.naval_rules != EIA_OPERATIONS:
        return [[s] for s in ordered]
    groups: dict[tuple[str, object], list[Ship]] = {}
    for s in ordered:
        groups.setdefault((s.attached_to or s.id, contact_key(s.location)), []).append(s)
    return [
        sorted(g, key=lambda s: (s.id != lead, s.id))
        for (lead, _), g in sorted(groups.items(), key=lambda kv: kv[1][0].id)
    ]


def _batter(board: Board, ship: Ship, lee: bool, rng: Rng) -> bool:
    """Damage from the storm; returns whether the ship is still afloat."""
    wind = board.wind_at(ship.location)
    hit = blow(ship, wind, lee, board.storm_rules, rng)
    witnesses = board.witnesses_at(contact_key(ship.location), (ship.id,))
    if hit.foundered:
        board.sink(ship.id)
        board.emit("foundered", (ship.id,), ship.location, witnesses, roll=hit.roll)
        return False
    if not (hit.rigging or hit.hull):
        return True
    after, sank = damage(ship, hit.rigging, hit.hull)
    board.update(after)
    board.emit(
        "storm_damage",
        (ship.id,),
        ship.location,
        witnesses,
        rigging=hit.rigging,
        hull=hit.hull,
        roll=hit.roll,
        total_rigging=after.rigging,
        total_hull=after.hull,
    )
    if sank:
        board.sink(ship.id)
        board.emit("foundered", (ship.id,), ship.location, witnesses, roll=hit.roll)
        return False
    return True


def _scatter(board: Board, group: tuple[str, ...], area: str, rng: Rng) -> None:
    """At sea a ship (a fleet marker: its ships together) may be blown to
    another tactical area, out of contact."""
    if rng.below(100) >= board.storm_rules.scatter_at_sea:
        return
    ship = board.ships[group[0]]
    assert isinstance(ship.location, AtSea)
    others = [
        t for t in range(1, board.map.sea_areas[area].tactical_areas + 1) if t != ship.location.tactical
    ]
    if not others:
        return
    to = rng.choice(others)
    for sid in group:
        here = board.ships[sid].location
        witnesses = board.witnesses_at(contact_key(here), (sid,))
        # the ships she comes upon there: the report must not call her out of contact when she is not
        met = board.witnesses_at(contact_key(AtSea(area, to)), (sid,))
        board.emit("scattered", (sid,), here, witnesses, to_tactical=to, met=met)
        _relocate(board, sid, AtSea(area, to))


def _drive(board: Board, group: tuple[str, ...], port: Port, area: str, *, lee: bool, rng: Rng) -> None:
    """Coastal waters: blown out to sea, or on a lee shore driven in: into a
    friendly harbor, or ashore under a hostile port (each ship her own fate
    ashore, where none of them moves)."""
    roll = rng.below(100)
    if not lee:
        if roll < board.storm_rules.blown_out:
            to = 1 + rng.below(board.map.sea_areas[area].tactical_areas)
            for sid in group:
                here = board.ships[sid].location
                witnesses = board.witnesses_at(contact_key(here), (sid,))
                board.emit("blown_out_to_sea", (sid,), here, witnesses, to=area, to_tactical=to)
                _relocate(board, sid, AtSea(area, to))
        return
    if roll >= board.storm_rules.driven:
        return
    controller = (
        board.world.ports[port.name].controller if port.name in board.world.ports else port.controller
    )
    for sid in group:
        ship = board.ships[sid]
        witnesses = board.witnesses_at(contact_key(ship.location), (sid,))
        if not board.hostile(controller, ship.state):
            board.emit("driven_into_port", (sid,), ship.location, witnesses, port=port.name)
            _relocate(board, sid, InPort(port.name, True))
        else:
            _ashore(board, ship, witnesses, rng.fork("ashore", *(() if sid == group[0] else (sid,))))


def _ashore(board: Board, ship: Ship, witnesses: list[str], rng: Rng) -> None:
    """Lost section 8: driven ashore under a hostile port, a ship
    is wrecked (lost; her crew drowned or taken by the enemy ashore),
    stranded (damaged, crew lost, her movement over for the turn) or towed
    off (damaged); hull damage 5 still sinks her (2.2)."""
    sid = ship.id
    fate = ashore(board.storm_rules, rng)
    crew_lost = ship.crew * fate.crew_pct // 100
    board.emit("driven_ashore", (sid,), ship.location, witnesses, outcome=fate.kind)
    if fate.kind == "wrecked":
        board.sink(sid)
        board.emit("wrecked", (sid,), ship.location, witnesses, crew_lost=crew_lost, crew=ship.crew)
        return
    after, sank = damage(replace(ship, crew=ship.crew - crew_lost), fate.rigging, fate.hull)
    board.update(after)
    board.emit(
        fate.kind,
        (sid,),
        ship.location,
        witnesses,
        hull=fate.hull,
        rigging=fate.rigging,
        crew_lost=crew_lost,
        total_hull=after.hull,
        total_rigging=after.rigging,
    )
    if sank:
        board.sink(sid)
        board.emit("foundered", (sid,), ship.location, witnesses, ashore=True)
    elif fate.kind == "stranded" and sid in board.plans:
        board.plans[sid].done = True  # aground until the tide and the boats get her off


def _relocate(board: Board, sid: str, loc: AtSea | InPort) -> None:
    """Storm-moved ships take a new station at the leeward end (6.9), and
    the ships where they end up see them come (3.11)."""
    origin = board.ships[sid].location
    present = board.at_location(loc, (sid,))
    station = max((s.station for s in present), default=-1) + 1
    board.put(sid, loc, station)
    if contact_key(loc) != contact_key(origin):  # into a harbor: the port saw it already
        _seen_arriving(board, sid, origin, loc, station)


def _seen_arriving(board: Board, sid: str, origin: Location, loc: AtSea | InPort, station: int) -> None:
    """Rule 3.11 with 5.1: a ship the storm sets down among others is seen by
    them, as any arrival is, with the enemies she lies to leeward of; the
    storm's own event was seen only where she came from.  Nobody there: that
    event tells her player where she went.  A kind of its own, not
    ``arrived`` and ``met_enemy``: she neither sailed there (6.8) nor chose
    to meet anyone (6.9)."""
    here = board.here(contact_key(loc), (sid,))
    if not here:
        return
    enemies = sorted(s.id for s in board.hostiles(here, (board.ships[sid].state,)))
    board.emit(
        "storm_arrived",
        (sid,),
        loc,
        [s.id for s in here],
        came_from=describe(origin),
        enemies=enemies,
        side="leeward" if enemies else "",
        station=station,
    )
