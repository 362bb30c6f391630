"""Where a map's markers go: a report's "8 ships" or "3 seen" is a claim
about a place, so its dot lies on that place's water.

- A sea area's marker: its dot on the area's own water (never on land, never
  in the next area), as near the area's code as the labels already drawn
  leave room; the words beside it keep to that water where they can.
- A port's marker: its dot on the water of the port's sea area (or strait
  area, rule 6.3) within ``PORT_REACH`` of the port, joined to the port's
  mark by a line, so that it names its port even where ports crowd (Ferrol
  and La Coruna lie 4 units apart).

Each marker takes the first spot, nearest first, that keeps clear of every
label and marker placed before it; with none left on its water (the Sea of
Marmara holds a few dozen cells), the dot keeps to the water and the words
may cross the coast; only with no clear spot at all does it fall back to
the nearest water cell, still clear of other markers.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import islice

from pate.render.geography import Point
from pate.render.labels import GAP, Box, Layout
from pate.render.water import Water

DOT = (5.0, 6.0)  # the dot's centre, from the marker box's top left corner
PORT_REACH = 48.0  # page units: a port's marker is sought this near it first
FAR_REACH = 96.0  # and, where its neighbours' markers fill that water, this near (always joined)
AREA_NEAR = 60.0  # a sea area's marker near its code, its words over land if need be, before far off
PORT_REACHES = (PORT_REACH, FAR_REACH, 2 * FAR_REACH)  # tried in turn: never the whole of a wide ocean
LEADER_AFTER = 9.0  # a port's marker this far from its port or more is joined to it by a line


@dataclass(frozen=True, slots=True)
class Sea:
    """A map's water seen in page units (the asset's units scaled, below the heading)."""

    water: Water
    scale: float
    top: float
    _spots: dict[tuple[tuple[str, ...], Point, float], tuple[Point, ...]] = field(
        default_factory=dict, compare=False, repr=False
    )

    def to_asset(self, x: float, y: float) -> Point:
        return (x / self.scale, (y - self.top) / self.scale)

    def to_page(self, point: Point) -> Point:
        return (round(point[0] * self.scale, 1), round(point[1] * self.scale + self.top, 1))

    def area_at(self, point: Point) -> str | None:
        return self.water.area_at(self.to_asset(*point))

    def covers(self, code: str | None, box: Box) -> bool:
        (x0, y0), (x1, y1) = self.to_asset(box.x0, box.y0), self.to_asset(box.x1, box.y1)
        return self.water.covers(code, x0, y0, x1, y1)

    def share(self, code: str, box: Box) -> float:
        """The share of the box's cells on the area's own water."""
        (x0, y0), (x1, y1) = self.to_asset(box.x0, box.y0), self.to_asset(box.x1, box.y1)
        return self.water.share(code, x0, y0, x1, y1)

    def spots(self, codes: tuple[str, ...], near: Point, reach: float = math.inf) -> tuple[Point, ...]:
        """The centres of the areas' water cells within ``reach`` of ``near``
        (page units): those ringed by water first (a dot there is clear of
        the coast), each kind nearest first, ties broken by position; kept,
        since every report drawn on the map asks the same."""
        key = (codes, near, reach)
        if key not in self._spots:
            out = []
            for code in codes:
                deep = self.water.deep[code]
                for cell in self.water.areas.get(code, ()):
                    p = self.to_page(self.water.centre(cell))
                    d = math.dist(p, near)
                    if d <= reach:
                        out.append((cell not in deep, d, p))
            out.sort()
            self._spots[key] = tuple(p for _, _, p in out)
        return self._spots[key]


@dataclass(frozen=True, slots=True)
class Wanted:
    """A box to place: a marker (its dot at ``at`` from its top left corner)
    or a name (``at`` its middle), on the water of ``codes``, near ``near``;
    a port's marker is joined to its port by a line."""

    codes: tuple[str, ...]
    near: Point
    size: tuple[float, float]
    port: bool = False
    at: Point = DOT
    short: tuple[float, float] | None = (
        None  # the size of its shorter words, where the full ones find no room
    )


@dataclass(frozen=True, slots=True)
class Spot:
    box: Box  # the marker's words and dot
    dot: Point
    leader_from: Point | None  # the port the marker is joined to
    short: bool = False  # drawn with its shorter words


Candidates = Iterable[tuple[Point, Box]]
KEPT = 256  # the nearest spots kept, for each pass, of a place and a marker's size
# The passes, best first: (what the words may cover, where they lie).  The
# dot is always on the place's water; the words keep clear of every name
# ("nothing"), may cover a place's name, which is then left out ("names"),
# a port's mark too ("marks", never a sea area's code), and, where a code
# covers nearly all of a little sea's water (the Sea of Marmara's), anything
# but another marker ("all").
Passes = tuple[tuple[str, str], ...]
PASSES: Passes = (
    ("nothing", "own"),
    ("nothing", "any"),
    ("nothing", "land too"),
    ("names", "own"),
    ("names", "any"),
    ("names", "land too"),
    ("marks", "land too"),
    ("all", "land too"),
)
LAST_RESORTS = ("marks", "all")  # tried with the shortest words only
USUAL: Passes = tuple(p for p in PASSES if p[0] not in LAST_RESORTS)
# A sea area's name: on its own water, else on water that is mostly its own
# (the Channel is narrower than its name); never over land, where it would
# name the coast (the Ligurian Sea's name once lay over Provence).
NAME_PASSES: Passes = (("nothing", "own"), ("nothing", "mostly"))
MOSTLY = 0.6  # of the name's cells on its own water


class MarkerPlacer:
    """Places a map's area names (on its own layout, as they go), or one
    report's markers (on a copy of the map's finished layout: the spots that
    clear the map's own labels are then the same for every report, and are
    kept in ``kept``, so a report checks them only against its own markers).

    ``names`` are the ports' names, laid out over ``ground`` (its base): a
    marker covers one only where it finds
    no other room (the name is then left out of that drawing; the port's
    tooltip still names it)."""

    def __init__(
        self,
        sea: Sea,
        ground: Layout,
        names: Layout | None = None,
        kept: dict[object, tuple[tuple[Point, Box], ...]] | None = None,
        codes: Layout | None = None,
    ) -> None:
        self.sea = sea
        self._ground = ground  # the labels and marks the words keep off
        self._names = names if names is not None else ground  # laid over the ground
        self._codes = codes if codes is not None else ground  # the codes' own words, drawn tight
        self._kept = kept
        self.layout = ground if kept is None else Layout(ground.bounds, base=self._names)  # and the markers
        self.markers = Layout(ground.bounds)  # this report's markers alone: never two on one spot

    def place(self, w: Wanted, reach: float = math.inf, passes: Passes = PASSES) -> Spot | None:
        """The first spot within ``reach`` of ``w.near`` for a box of
        ``w.size`` whose point ``w.at`` (from its top left corner: a
        marker's dot) lies on the water of one of ``w.codes``, by the
        ``passes`` in turn: with the full words through every pass but the
        last resorts, then with the short ones; the last resorts with the
        shortest."""
        sizes = (w.size, w.short) if w.short else (w.size,)
        usual = [p for p in passes if p[0] not in LAST_RESORTS]
        tries = [(size, p) for size in sizes for p in usual]
        tries += [(sizes[-1], p) for p in passes if p[0] in LAST_RESORTS]
        for size, test in tries:
            # a marker's words to the right of its dot, else to its left (by a coast to the east)
            for at in (w.at, (size[0] - w.at[0], w.at[1])) if w.at == DOT else (w.at,):
                for dot, box in self._spots(test, w.codes, w.near, size, reach, at):
                    if not self.markers.hits(box.grown(GAP)):
                        return self._take(dot, box, w.near if w.port else None, size != w.size)
        return None

    def place_all(self, wanted: Sequence[Wanted]) -> list[Spot | None]:
        """Spots for markers, in the order asked: first each sea area's on
        its water, within AREA_NEAR of its code if any pass finds room there
        (a crowd of ports must never take an area's water from its own
        marker); then each port's within PORT_REACH of it, those with
        least water there first; then the ports' that found no room so
        near, further out (always joined to their port), all clear of the
        map's labels; last, over them.  None: no water at all for it."""
        spots: list[Spot | None] = [
            None if w.port else self.place(w, AREA_NEAR, USUAL) or self.place(w) for w in wanted
        ]
        ports = sorted((i for i, w in enumerate(wanted) if w.port), key=lambda i: (self._room(wanted[i]), i))
        later = []
        for i in ports:
            spots[i] = self.place(wanted[i], PORT_REACH, USUAL)
            if spots[i] is None:
                later.append(i)
        for i in later:
            w = wanted[i]
            spots[i] = next(
                (s for reach in PORT_REACHES[1:] if (s := self.place(w, reach, USUAL))), None
            ) or next((s for reach in PORT_REACHES if (s := self.place(w, reach))), None)
        return spots

    def _room(self, w: Wanted) -> int:
        return len(self.sea.spots(w.codes, w.near, PORT_REACH))

    def _spots(
        self,
        test: tuple[str, str],
        codes: tuple[str, ...],
        near: Point,
        size: tuple[float, float],
        reach: float,
        at: Point,
    ) -> Candidates:
        found = self._clearing(test, codes, near, size, reach, at)
        if self._kept is None or test[0] in LAST_RESORTS:  # rare: every spot, not kept
            return found
        key = (test, codes, near, size, reach, at)
        if key not in self._kept:
            self._kept[key] = tuple(islice(found, KEPT))
        return self._kept[key]

    def _clearing(
        self,
        test: tuple[str, str],
        codes: tuple[str, ...],
        near: Point,
        size: tuple[float, float],
        reach: float,
        at: Point,
    ) -> Iterator[tuple[Point, Box]]:
        """The spots, nearest first, whose box passes the test (:data:`PASSES`)."""
        sea, bounds = self.sea, self._ground.bounds
        cover, water = test
        clear = {
            "nothing": self._names.hits,
            "names": self._ground.hits,
            "marks": self._codes.hits_label,
        }.get(cover)
        for dot in sea.spots(codes, near, reach):
            box = _box_at(dot, size, at)
            if not box.inside(bounds):
                continue
            room = box.grown(GAP)
            if clear is not None and clear(room):
                continue
            if water == "own" and not any(sea.covers(c, box) for c in codes):
                continue
            if water == "any" and not sea.covers(None, box):
                continue
            if water == "mostly" and sea.share(codes[0], box) < MOSTLY:
                continue
            yield dot, box

    def _take(self, dot: Point, box: Box, port: Point | None, short: bool) -> Spot:
        self.layout.take(box)
        self.markers.take(box)
        joined = port if port is not None and math.dist(dot, port) >= LEADER_AFTER else None
        return Spot(box, dot, joined, short)


def _box_at(dot: Point, size: tuple[float, float], at: Point) -> Box:
    x0, y0 = round(dot[0] - at[0], 1), round(dot[1] - at[1], 1)
    return Box(x0, y0, round(x0 + size[0], 1), round(y0 + size[1], 1))
