"""The player's picture of the enemy: every enemy or neutral ship or group his
knowledge of this turn tells of, and those of earlier turns not seen since,
each with its source, the turn it was seen in and how near a look it was
(section 5; docs/rules/intel.md, "The picture").

Pure: it reads the knowledge of this turn and the picture of the turn before,
nothing of the world, so it cannot tell more than the reports did.  A
sighting is carried forward, unchanged, until it is superseded by a newer one
of the same ships or is older than ``max_age`` turns, then dropped.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from pate.core.intel.model import Nearness, PlayerKnowledge, Sighted, Source
from pate.core.ruledata import RuleData
from pate.core.rules.detection import Category, Place, Seen, Side, category_of, ship_sort_key
from pate.core.world.geography import WorldMap
from pate.core.world.ships import AtSea, InPort, parse_ship_id

# data/rules/intel.toml [picture] max_age_turns when no rules are given
MAX_AGE = 3


def max_age(rules: RuleData | None) -> int:
    """data/rules/intel.toml [picture]: a sighting older than this many turns is dropped."""
    section = rules.section("intel").get("picture", {}) if rules is not None else {}
    return int(section.get("max_age_turns", MAX_AGE))


def carried(
    previous: Iterable[Sighted], fresh: Sequence[Sighted], k: PlayerKnowledge, oldest: int
) -> tuple[Sighted, ...]:
    """This turn's sightings and the earlier ones still worth showing.  An
    earlier sighting is dropped when older than ``oldest`` turns, when the same
    ship was seen again this turn (wherever), when its group's sea area holds a
    fresh sighting of ships of that flag and class (a nearer or newer look),
    and when its flag is no longer an enemy's or a neutral's to the player."""
    fresh_keys = {s.key for s in fresh}
    looked = {(s.sea_area, s.state, s.category) for s in fresh}
    friends = {*k.allies, *((k.state,) if k.state else ())}
    own = {r.id for r in k.ships}
    kept = []
    for s in previous:
        # a ship's key is its id: seen again anywhere, its old place goes
        if k.turn - s.turn > oldest or s.key in fresh_keys or s.state in friends or s.key in own:
            continue
        if s.nearness is not Nearness.IDENTIFIED and (s.sea_area, s.state, s.category) in looked:
            continue
        kept.append(s)
    return tuple(sorted((*fresh, *kept), key=_order))


def _order(s: Sighted) -> tuple[object, ...]:
    return (s.sea_area, s.port or "", s.tactical or 0, ship_sort_key(s.key), -s.turn)


def fresh(k: PlayerKnowledge, world_map: WorldMap) -> list[Sighted]:
    """What this turn's knowledge tells of enemy and neutral ships, one entry
    per ship named and per group counted or reported."""
    own = {r.id for r in k.ships}
    # a ship several of his ships saw: one sighting by all of them, built once (a minister's
    # ships of a great fleet see each other's contacts many times over)
    first: dict[str, tuple[Seen, Where]] = {}
    by: dict[str, list[str]] = {}
    for r in k.ships:
        for seen in r.visible:
            if seen.side is Side.ALLIED or seen.id in own:
                continue
            if seen.id in by:
                by[seen.id].append(r.id)
                continue
            where = _contact_place(r.location, seen.place, world_map)
            if where is not None:
                first[seen.id] = (seen, where)
                by[seen.id] = [r.id]
    out: dict[str, Sighted] = {}
    for sid, (seen, where) in first.items():
        named = _named(sid, seen.state, category_of(seen.type), Source.CONTACT, where, k.turn, None)
        out[sid] = replace(named, by=tuple(sorted(set(by[sid]), key=ship_sort_key)))
    _watched(out, k, world_map, own)
    _counted(out, k)
    _reported(out, k, world_map)
    return list(out.values())


Where = tuple[str, Place, int | None, str | None]  # sea area, place, tactical area, port


def _contact_place(loc: object, place: Place, world_map: WorldMap) -> Where | None:
    """Ships in contact lie where the ship that saw them is (5.1)."""
    if isinstance(loc, AtSea):
        return loc.area, Place.SEA, loc.tactical, None
    if isinstance(loc, InPort) and loc.port in world_map.ports:
        return world_map.ports[loc.port].sea_area, place, None, loc.port
    return None


def _named(
    sid: str, state: str, cat: Category, source: Source, where: Where, turn: int, by: str | None
) -> Sighted:
    area, place, tactical, port = where
    return Sighted(
        key=sid,
        state=state,
        category=cat,
        nearness=Nearness.IDENTIFIED,
        source=source,
        sea_area=area,
        place=place,
        turn=turn,
        by=(by,) if by else (),
        port=port,
        tactical=tactical,
    )


def _add(out: dict[str, Sighted], s: Sighted) -> None:
    """Two of the player's ships that saw the same ships: one sighting by both;
    the newer report where a shore report is a turn late."""
    old = out.get(s.key)
    if old is None or s.turn > old.turn:
        out[s.key] = s
    elif s.turn == old.turn:
        by = tuple(sorted({*old.by, *s.by}, key=ship_sort_key))
        low = min((e for e in (old.estimate, s.estimate) if e is not None), default=None)
        high = max((e for e in (old.estimate_high, s.estimate_high) if e is not None), default=None)
        out[s.key] = replace(old, by=by, estimate=low, estimate_high=high)


def _watched(out: dict[str, Sighted], k: PlayerKnowledge, world_map: WorldMap, own: set[str]) -> None:
    """Rule 5.3: ships in a port of the minister's state, named from the shore."""
    friends = {*k.allies, *((k.state,) if k.state else ())}
    for w in k.port_watch:
        known = world_map.ports.get(w.port)
        source = Source.GARRISON if w.source == "garrison" else Source.LAND_UNITS
        for sid in w.ships:
            parsed = parse_ship_id(sid)
            if known is None or parsed is None or parsed[0] in friends or sid in own:
                continue
            where: Where = (known.sea_area, Place.HARBOR, None, w.port)
            _add(out, _named(sid, parsed[0], category_of(parsed[2]), source, where, w.as_of_turn, None))


def _group_key(where: Where, state: str, cat: Category, nearness: Nearness) -> str:
    area, place, tactical, port = where
    return f"{area}/{place.value}/{port or tactical or ''}/{state}/{cat.value}/{nearness.value}"


def _counted(out: dict[str, Sighted], k: PlayerKnowledge) -> None:
    """Rule 5.2: a frigate's approximate number of an enemy group, no names."""
    for sg in k.sightings:
        where: Where = (sg.sea_area, sg.place, sg.tactical, sg.port)
        key = _group_key(where, sg.state, sg.category, Nearness.COUNTED)
        s = Sighted(
            key=key,
            state=sg.state,
            category=sg.category,
            nearness=Nearness.COUNTED,
            source=Source.FRIGATE,
            sea_area=sg.sea_area,
            place=sg.place,
            turn=k.turn,
            by=(sg.by,),
            estimate=sg.estimate,
            estimate_high=sg.estimate,
            port=sg.port,
            tactical=sg.tactical,
        )
        _add(out, s)


def _reported(out: dict[str, Sighted], k: PlayerKnowledge, world_map: WorldMap) -> None:
    """Rule 5.4: ships that began the turn where the player's ships ended it,
    reported this turn (the report says where they stood at its start)."""
    friends = {*k.allies, *((k.state,) if k.state else ())}
    for r in k.intelligence:
        if r.state in friends:
            continue
        port = world_map.ports.get(r.place)
        where: Where = (
            (port.sea_area, Place.HARBOR, None, r.place) if port else (r.place, Place.SEA, None, None)
        )
        s = Sighted(
            key=_group_key(where, r.state, r.category, Nearness.SAILS),
            state=r.state,
            category=r.category,
            nearness=Nearness.SAILS,
            source=Source.REPORTS,
            sea_area=where[0],
            place=where[1],
            turn=k.turn,
            by=r.seen_by,
            estimate=r.estimate,
            estimate_high=r.estimate,
            port=where[3],
        )
        _add(out, s)


def picture(
    k: PlayerKnowledge, previous: Iterable[Sighted], world_map: WorldMap, rules: RuleData | None = None
) -> tuple[Sighted, ...]:
    """The picture of knowledge ``k`` given the player's picture of the turn before."""
    return carried(previous, fresh(k, world_map), k, max_age(rules))
