"""One turn of a campaign's replay: the maps and the event list, either as
one player saw it (his own report of that turn, nothing more) or, for the
game master and for everyone once the campaign is over, every side at once
(all the players' reports of the turn put together: each state's ships as
its own players knew them).

Pure: knowledge in, SVG and lines out (the web desk fetches the reports).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from pate.core.intel.model import PlayerKnowledge, ShipReport
from pate.core.world.geography import MapName, WorldMap
from pate.core.world.ships import InPort
from pate.render.style import MAP_TITLES, Icon
from pate.render.svg_map import render_map
from pate.reports.events import Told, told_events
from pate.reports.svg import SIGHTED, earlier_icons, state_color
from pate.reports.words import map_area


@dataclass(frozen=True, slots=True)
class ReplayEvent:
    who: str  # the states whose reports told it ("" for one player's own replay)
    phase: str
    text: str


@dataclass(frozen=True, slots=True)
class ReplayFrame:
    turn: int
    maps: tuple[tuple[MapName, str], ...]
    events: tuple[ReplayEvent, ...]
    places: tuple[str, ...] = ()  # where the frame's ships are, for a view that opens round them


def _place(world_map: WorldMap, r: ShipReport) -> str | None:
    if isinstance(r.location, InPort) and r.location.port in world_map.ports:
        return r.location.port
    return map_area(world_map, r.location)


def _map_of(world_map: WorldMap, place: str) -> MapName:
    code = world_map.ports[place].sea_area if place in world_map.ports else place
    return world_map.sea_areas[code].map


def _ship_icons(world_map: WorldMap, ships: Sequence[ShipReport]) -> dict[MapName, list[Icon]]:
    """One marker per state and place: "FR 3" with the state's colour."""
    here: dict[tuple[str, str], list[str]] = defaultdict(list)
    for r in ships:
        place = _place(world_map, r)
        if place is not None:
            here[(place, r.state)].append(r.id)
    out: dict[MapName, list[Icon]] = defaultdict(list)
    for (place, state), ids in sorted(here.items()):
        label = ids[0] if len(ids) == 1 else f"{state} {len(ids)} ships"
        short = f"{state} {len(ids)}"
        out[_map_of(world_map, place)].append(
            Icon(place, label, state_color(state), ", ".join(sorted(ids)), short=short)
        )
    return out


def seen_by_place(world_map: WorldMap, k: PlayerKnowledge) -> dict[str, set[str]]:
    """What the player's ships saw of others, by the place of the ship that
    saw them (contact lists, 5.1), and the sea areas of his frigates'
    sightings (5.2, an estimate: no ids)."""
    own = {r.id for r in k.ships}
    seen: dict[str, set[str]] = defaultdict(set)
    for r in k.ships:
        place = _place(world_map, r)
        for v in r.visible:
            if place is not None and v.id not in own:
                seen[place].add(v.id)
    for s in k.sightings:
        if s.sea_area in world_map.sea_areas:
            seen.setdefault(s.sea_area, set())
    return dict(seen)


def seen_icon(place: str, ids: set[str]) -> Icon:
    label = f"{len(ids)} seen" if ids else "sighted"
    title = ", ".join(sorted(ids)) or "frigate sightings (5.2)"
    return Icon(place, label, SIGHTED, title, short=str(len(ids)) if ids else "?")


def _seen_icons(world_map: WorldMap, k: PlayerKnowledge) -> dict[MapName, list[Icon]]:
    out: dict[MapName, list[Icon]] = defaultdict(list)
    for place, ids in sorted(seen_by_place(world_map, k).items()):
        out[_map_of(world_map, place)].append(seen_icon(place, ids))
    return out


def _maps(
    world_map: WorldMap, icons: dict[MapName, list[Icon]], title: str
) -> tuple[tuple[MapName, str], ...]:
    marks = (("#555555", "ships (a state's colour; their number)"), (SIGHTED, "others seen or sighted"))
    return tuple(
        (m, render_map(world_map, m, icons=icons[m], title=f"{title}: {MAP_TITLES[m]}", marks=marks))
        for m in MapName
        if icons.get(m)
    )


def player_frame(k: PlayerKnowledge, world_map: WorldMap) -> ReplayFrame:
    """The turn as this player's report told it: his ships, what they saw."""
    icons = _ship_icons(world_map, k.ships)
    for m, more in _seen_icons(world_map, k).items():
        icons[m] = icons.get(m, []) + more
    for old in earlier_icons(k, world_map):  # sightings not seen since: faded, never as current
        icons[_map_of(world_map, old.at)].append(old)
    events = tuple(ReplayEvent("", t.phase, t.text) for t in told_events(k, world_map))
    places = tuple(sorted({p for r in k.ships if (p := _place(world_map, r))}))
    return ReplayFrame(k.turn, _maps(world_map, icons, f"Turn {k.turn}"), events, places)


def all_sides_frame(ks: Sequence[PlayerKnowledge], world_map: WorldMap) -> ReplayFrame:
    """Every side at once (the game master's, and everyone's once the campaign
    is over): each ship once, as its own players reported it, and every
    player's events, each named by the states whose players were told it."""
    ships: dict[str, ShipReport] = {}
    for k in sorted(ks, key=lambda k: k.player):
        for r in k.ships:
            ships.setdefault(r.id, r)
    icons = _ship_icons(world_map, list(ships.values()))
    events = _told_once(ks, world_map)
    turn = max((k.turn for k in ks), default=0)
    places = tuple(sorted({p for r in ships.values() if (p := _place(world_map, r))}))
    return ReplayFrame(turn, _maps(world_map, icons, f"Turn {turn}, all sides"), events, places)


def _told_once(ks: Sequence[PlayerKnowledge], world_map: WorldMap) -> tuple[ReplayEvent, ...]:
    """Every player's events, an event several players were told given once, naming their
    states (their full names, three or four to an event, buried the event itself).  The same
    event reads differently to the player whose ships it is about ("unloaded FR2IN") and to one
    who only saw it ("unloaded troops or supplies"), so an event naming ships is known by what
    it is (phase, kind, place, ships) rather than by its words, and told in the words of a
    player whose ships it is about; one naming none (seen from afar) by its words."""
    told: dict[tuple[object, ...], Told] = {}
    who: dict[tuple[object, ...], set[str]] = {}
    for k in sorted(ks, key=lambda k: k.player):
        nth: dict[tuple[object, ...], int] = defaultdict(int)  # a ship held by the wind twice: two events
        for t in told_events(k, world_map):
            what = (t.phase, t.kind, t.location, t.ships) if t.ships else (t.phase, t.text)
            nth[what] += 1
            key = (*what, nth[what])
            if key not in told or (t.ours and not told[key].ours):
                told[key] = t
            who.setdefault(key, set()).add(k.state or k.player_name or k.player)
    return tuple(ReplayEvent(", ".join(sorted(who[key])), t.phase, t.text) for key, t in told.items())
