"""The map's own words, the same for every report drawn on it, laid out once
for a map: each sea area's code at its label point and its name on its own
water (:mod:`pate.render.markers` finds the spot), each port's name beside
its port and nearer it than any other, or joined to it by a line.  A
report's markers come first where room is short: they may cover a name,
which is then left out of that drawing (:mod:`pate.render.marker_layer`)."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from html import escape

from pate.core.world.geography import Port
from pate.render.labels import (
    CROWDED_NAME_SCALE,
    EAST_FIRST,
    LEADER_FROM,
    NAME_REACH,
    Box,
    Layout,
    leader,
    text_box,
    text_size,
)
from pate.render.markers import NAME_PASSES, MarkerPlacer, Sea, Wanted
from pate.render.style import TOP, MapStyle

AREA_CODE_SIZE, AREA_NAME_SIZE, PORT_NAME_SIZE = 15, 10, 9
AREA_HALF_W, AREA_HALF_H = 20, 10  # the box kept round a sea area's code
NEAREST_SLACK = 2.0  # units: a port's name beside it may lie this much nearer a neighbour
JOINED_CLEAR = 6.0  # units: a name on a line to its port keeps this far from every other port
BESIDE = LEADER_FROM - 1  # a name this near its port needs no line


def port_waters(p: Port) -> tuple[str, ...]:
    """The sea areas a port opens on: its own and, a strait port's, the other (rule 6.3)."""
    return (p.sea_area, p.strait_sea_area) if p.strait_sea_area else (p.sea_area,)


@dataclass(frozen=True, slots=True)
class StaticLabels:
    """The labels of the map itself (sea areas' names, ports' names), the
    same for every report: laid out once for a map."""

    bounds: Box
    area_names: dict[str, tuple[Box, str] | None]  # the name's box and its drawing (None: no room)
    port_names: dict[str, tuple[Box, str]]  # the same, for the ports named
    anchors: dict[str, Box]  # sea area codes and port names -> their mark's box
    waters: dict[str, tuple[str, ...]]  # sea area codes and port names -> the water their markers take
    layout: Layout  # the heading, the areas' codes and the ports' marks (read only)
    names: Layout  # the areas' and the ports' names, over ``layout`` (read only)
    codes: Layout  # the areas' codes as drawn, a little tighter than their boxes in ``layout``
    sea: Sea
    kept: dict[object, tuple[tuple[tuple[float, float], Box], ...]]  # markers' spots clear of them


@lru_cache(maxsize=16)
def static_labels(
    areas: tuple[tuple[str, str, tuple[float, float]], ...],
    ports: tuple[tuple[str, tuple[float, float], tuple[str, ...], int], ...],  # name, point, waters, rank
    size: tuple[float, float],
    style: MapStyle,
    sea: Sea,
) -> StaticLabels:
    """Pure in its arguments (what the map shows of each place, projected),
    so that the cache can never give another map's labels."""
    layout = Layout(Box(0, TOP, size[0], size[1]))  # the map's own labels keep below the heading
    anchors: dict[str, Box] = {}
    codes = Layout(layout.bounds)  # the codes' words alone: the Sea of Marmara's water is little more
    for code, _, (x, y) in areas:
        anchors[code] = Box(x - AREA_HALF_W, y - AREA_HALF_H, x + AREA_HALF_W, y + AREA_HALF_H)
        layout.take(anchors[code])  # a sea area's code sits in its ellipse: nothing goes over it
        codes.take(text_box(x, y + 5, code, AREA_CODE_SIZE, "middle"))
    s = style.port_size
    for name, (x, y), _, _ in ports:
        anchors[name] = Box(x - s, y - s, x + s, y + s)
        layout.mark(anchors[name])
    names = Layout(layout.bounds, base=layout)  # what a report's marker may cover when it must
    placer = MarkerPlacer(sea, names)
    area_names = {code: _area_name(placer, anchors[code], code, name) for code, name, _ in areas}
    port_names = {}
    if style.port_labels:
        points = {name: at for name, at, _, _ in ports}
        named_first = [name for name, _, _, _ in sorted(ports, key=lambda p: (-p[3], p[0]))]
        # every port takes the room right beside it first; only then may a name stand off on a line,
        # so that no neighbour's name on its line takes a port's own place (Milford Haven's did
        # Plymouth's); the great dockyards and fortresses first, where a crowded coast leaves room
        # for few (Portsmouth before Vlissingen, Toulon before Porto Ferraio)
        for reach in (BESIDE, NAME_REACH):
            for name in named_first:
                if name not in port_names:
                    drawn = _port_name(names, anchors[name], name, _nearest_is(name, points), reach)
                    if drawn is not None:
                        port_names[name] = drawn
    waters = {code: (code,) for code, _, _ in areas} | {name: w for name, _, w, _ in ports}
    return StaticLabels(layout.bounds, area_names, port_names, anchors, waters, layout, names, codes, sea, {})


def _nearest_is(name: str, points: dict[str, tuple[float, float]]) -> Callable[[Box, bool], bool]:
    """Whether a name set beside its port, with no line to it, lies no
    nearer another port (Ferrol and La Coruna lie 4 units apart): a name
    nearest another port reads as that port's.  A name joined by its line
    is its port's wherever it lies."""
    own = points[name]
    near = [p for other, p in points.items() if other != name and math.dist(p, own) < 4 * NAME_REACH]

    def accept(box: Box, joined: bool) -> bool:
        mine = _distance(box, own)
        if joined:
            return all(_distance(box, p) >= JOINED_CLEAR for p in near)
        return all(mine <= _distance(box, p) + NEAREST_SLACK for p in near)

    return accept


def _distance(box: Box, p: tuple[float, float]) -> float:
    dx = max(box.x0 - p[0], 0.0, p[0] - box.x1)
    dy = max(box.y0 - p[1], 0.0, p[1] - box.y1)
    return math.hypot(dx, dy)


def _area_name(names: MarkerPlacer, anchor: Box, code: str, text: str) -> tuple[Box, str] | None:
    """A sea area's name on its own water, else mostly on it, as near its
    code as the other words allow, in a smaller hand where the sea is
    narrow; else none (hovering on the area still names it)."""
    for size in (AREA_NAME_SIZE, AREA_NAME_SIZE * CROWDED_NAME_SCALE):
        w, h = text_size(text, size)
        spot = names.place(Wanted((code,), centre(anchor), (w, h), at=(w / 2, h / 2)), passes=NAME_PASSES)
        if spot is not None:
            box = spot.box
            return box, (
                f'<text class="label area-name" x="{box.x0:.1f}" y="{box.y0 + size * 0.95:.1f}" '
                f'font-size="{size:g}" fill="#1b2631">{escape(text)}</text>'
            )
    return None


def _port_name(
    layout: Layout, anchor: Box, name: str, accept: Callable[[Box, bool], bool], reach: float
) -> tuple[Box, str] | None:
    """A port's name beside its port and nearer it than any other, in a
    smaller hand where the coast is crowded, or none where there is no such
    room within NAME_REACH (the port's tooltip still names it, and so does
    its sea area's own map)."""
    for size in (PORT_NAME_SIZE, PORT_NAME_SIZE * CROWDED_NAME_SCALE):
        w, h = text_size(name, size)
        placed = layout.place_near(anchor, w, h, EAST_FIRST, reach, accept)
        if placed is not None:
            box = placed.box
            line = leader_line(anchor, box) if placed.leader else ""
            return box, (
                f'{line}<text class="label" x="{box.x0:.1f}" y="{box.y0 + size * 0.95:.1f}" '
                f'font-size="{size:g}" fill="#1b2631">{escape(name)}</text>'
            )
    return None


def leader_line(anchor: Box, box: Box) -> str:
    x1, y1, x2, y2 = leader(anchor, box)
    return (
        f'<line class="leader" x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#5d6d7e" stroke-width="0.6"/>'
    )


def centre(box: Box) -> tuple[float, float]:
    return ((box.x0 + box.x1) / 2, (box.y0 + box.y1) / 2)
