"""A player's view beside the truth, for the replay once a campaign is over
(the game master's at any time): where every enemy and neutral ship really
was at the end of a turn, which of them the player's picture had this turn,
which he missed, and which of his sightings were stale (seen earlier, not
since), and whether those ships were still there.

Pure: the player's knowledge and the truth (every ship's place, as the
reports service's GetTruth gives it) in, a map and lines out.  The truth is
never part of a player's knowledge: it reaches the web desk only through
GetTruth, which refuses a player until the campaign has finished.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from pate.core.codec import canonical_json, from_plain, to_plain
from pate.core.intel.model import Nearness, PlayerKnowledge, Sighted
from pate.core.rules.detection import category_of
from pate.core.world.geography import MapName, WorldMap
from pate.core.world.ships import InPort, Location, Ship, ShipType
from pate.render.style import MAP_TITLES, Icon
from pate.render.svg_map import render_map
from pate.reports.replay import ReplayEvent, ReplayFrame
from pate.reports.sightings import age_text, sighted_words, source_text
from pate.reports.words import map_area

SEEN = "#1e8449"  # in the player's picture this turn
MISSED = "#c0392b"  # really there, not in his picture
STALE = "#7f8c8d"  # his sighting of an earlier turn


@dataclass(frozen=True, slots=True)
class TrueShip:
    id: str
    state: str
    type: ShipType
    active: bool
    location: Location


def truth_json(ships: Iterable[Ship]) -> str:
    """GetTruth's body: every ship's place, in id order (nothing else of the world)."""
    out = [
        to_plain(TrueShip(s.id, s.state, s.type, s.active, s.location))
        for s in sorted(ships, key=lambda s: s.id)
    ]
    return canonical_json(out)


def read_truth(data: Sequence[Any]) -> list[TrueShip]:
    return [from_plain(TrueShip, d) for d in data]


def _place(world_map: WorldMap, loc: Location) -> str | None:
    if isinstance(loc, InPort) and loc.port in world_map.ports:
        return loc.port
    return map_area(world_map, loc)


@dataclass(frozen=True, slots=True)
class Judged:
    """The truth of one turn against one player's picture of it."""

    seen: tuple[TrueShip, ...]  # in his picture this turn, by name or counted in its sea area
    missed: tuple[TrueShip, ...]  # really there, not in his picture this turn
    stale: tuple[tuple[Sighted, str], ...]  # his earlier sightings, and where those ships really were


def judge_picture(k: PlayerKnowledge, truth: Sequence[TrueShip], world_map: WorldMap) -> Judged:
    """A ship is seen when named this turn, or counted or reported this turn in its
    sea area under its flag and class; every other enemy or neutral ship afloat was missed."""
    friends = {*k.allies, *((k.state,) if k.state else ())}
    now = [s for s in k.picture if s.turn == k.turn]
    named = {s.key for s in now if s.nearness is Nearness.IDENTIFIED}
    counted = {(s.sea_area, s.state, s.category) for s in now if s.nearness is not Nearness.IDENTIFIED}
    seen, missed = [], []
    for t in truth:
        area = map_area(world_map, t.location)
        if t.state in friends or not t.active or area is None:
            continue
        if t.id in named or (area, t.state, category_of(t.type)) in counted:
            seen.append(t)
        else:
            missed.append(t)
    where = {t.id: t for t in truth}
    stale = []
    for s in k.picture:
        if s.turn >= k.turn:
            continue
        stale.append((s, _really(s, where, truth, world_map)))
    return Judged(tuple(seen), tuple(missed), tuple(stale))


def _really(s: Sighted, where: dict[str, TrueShip], truth: Sequence[TrueShip], world_map: WorldMap) -> str:
    if s.nearness is Nearness.IDENTIFIED:
        t = where.get(s.key)
        if t is None:
            return "gone (sunk, taken or out of the campaign)"
        area = map_area(world_map, t.location)
        return (
            "still there"
            if area == s.sea_area
            else f"really in {_place(world_map, t.location) or 'the Atlantic'}"
        )
    here = [
        t
        for t in truth
        if map_area(world_map, t.location) == s.sea_area
        and t.state == s.state
        and category_of(t.type) is s.category
    ]
    return f"{len(here)} still there" if here else "none there any more"


def truth_frame(k: PlayerKnowledge, truth: Sequence[TrueShip], world_map: WorldMap) -> ReplayFrame:
    """The truth map of the turn beside the player's own: green where he saw the
    enemy, red where he missed it, grey where his sighting was stale; the lines say which."""
    j = judge_picture(k, truth, world_map)
    icons: dict[MapName, list[Icon]] = defaultdict(list)
    for ships, colour, word in ((j.seen, SEEN, "seen"), (j.missed, MISSED, "missed")):
        by_place: dict[str, list[str]] = defaultdict(list)
        for t in ships:
            place = _place(world_map, t.location)
            if place is not None:
                by_place[place].append(t.id)
        for place, ids in sorted(by_place.items()):
            label = f"{len(ids)} {word}"
            icons[_map_of(world_map, place)].append(
                Icon(place, label, colour, ", ".join(sorted(ids)), short=str(len(ids)))
            )
    for s, really in j.stale:
        place = s.port or s.sea_area
        if place in world_map.ports or place in world_map.sea_areas:
            title = f"{sighted_words(k, s)} - {source_text(s)}; {age_text(s, k)}; {really}"
            icons[_map_of(world_map, place)].append(
                Icon(place, f"stale T{s.turn}", STALE, title, short=f"T{s.turn}", age=k.turn - s.turn)
            )
    lines = [ReplayEvent("missed", "", _ship_words(t, world_map)) for t in j.missed]
    lines += [
        ReplayEvent("stale", "", f"{sighted_words(k, s)}, {age_text(s, k)}: {really}")
        for s, really in j.stale
    ]
    lines += [ReplayEvent("seen", "", _ship_words(t, world_map)) for t in j.seen]
    marks = ((SEEN, "enemies he saw"), (MISSED, "enemies he missed"), (STALE, "his stale sightings"))
    maps = tuple(
        (
            m,
            render_map(
                world_map, m, icons=icons[m], title=f"Turn {k.turn}, the truth: {MAP_TITLES[m]}", marks=marks
            ),
        )
        for m in MapName
        if icons.get(m)
    )
    places = tuple(sorted({i.at for m in icons for i in icons[m]}))
    return ReplayFrame(k.turn, maps, tuple(lines), places)


def _ship_words(t: TrueShip, world_map: WorldMap) -> str:
    return f"{t.id} in {_place(world_map, t.location) or 'the Atlantic'}"


def _map_of(world_map: WorldMap, place: str) -> MapName:
    code = world_map.ports[place].sea_area if place in world_map.ports else place
    return world_map.sea_areas[code].map
