"""SVG drawings of the two PATE maps (rule 1.1) on real coastlines: land,
one polygon per sea area with its code, ports, strait ports (rule 6.3) and
the narrow passages between areas (data/geography/map.json, built by
:mod:`pate.databuild.geography`).

Pure functions: a :class:`WorldMap` (and the drawn geography) in, SVG text
out.  Reports reuse :func:`render_map` with ``highlight`` (sea areas to
shade) and ``icons`` (markers placed at a sea area or a port, e.g. the
player's ships).  The SVG scales as a whole, so labels placed apart here
stay apart at every zoom a page offers.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from html import escape

from pate.core.world.geography import MapName, Port, SeaArea, WorldMap
from pate.render.courses import Course, course_layer
from pate.render.geography import Geography, MapGeography, load_geography
from pate.render.labels import (
    CROWDED_NAME_SCALE,
    EAST_FIRST,
    NAME_REACH,
    SOUTH_FIRST,
    Box,
    Layout,
    leader,
    text_box,
    text_size,
)
from pate.render.legend import legend as draw_legend
from pate.render.markers import MarkerPlacer, Sea, Wanted
from pate.render.overlays import BlockadeBox, RouteLine, box_layer, route_layer
from pate.render.style import MAP_TITLES, NATION_COLOURS, Icon, MapStyle
from pate.render.water import water_of

__all__ = ["MAP_TITLES", "NATION_COLOURS", "Icon", "MapStyle", "render_map"]

# The smallest words are a crowded port's name, 9 x CROWDED_NAME_SCALE units:
# the desk opens a map at a scale that draws them at 11 px or more
# (SMALLEST_TEXT, on the drawing's root), and hides them when zoomed out.
AREA_CODE_SIZE, AREA_NAME_SIZE, PORT_NAME_SIZE, ICON_SIZE = 15, 10, 9, 11
AREA_HALF_W, AREA_HALF_H = 20, 10  # the box kept round a sea area's code
ICON_HEIGHT = 16  # a line of marker text (11 px) and the gap below it
NEAREST_SLACK = 2.0  # units: a port's name beside it may lie this much nearer a neighbour
ICON_LETTER = 7.0  # a letter of a marker's words, a little wider than text_size's
TOP = 30  # room for the heading above the map


@dataclass(frozen=True, slots=True)
class Frame:
    """Where the asset's SVG units land on the page: scaled to the style's
    width, below the heading."""

    scale: float
    width: float
    height: float  # of the map, without the legend

    def __call__(self, point: tuple[float, float]) -> tuple[float, float]:
        return (round(point[0] * self.scale, 1), round(point[1] * self.scale + TOP, 1))


def render_map(
    world_map: WorldMap,
    which: MapName,
    style: MapStyle | None = None,
    *,
    highlight: frozenset[str] = frozenset(),
    icons: Iterable[Icon] = (),
    title: str | None = None,
    marks: Sequence[tuple[str, str]] = (),
    geography: Geography | None = None,
    routes: Sequence[RouteLine] = (),
    boxes: Sequence[BlockadeBox] = (),
    courses: Sequence[Course] = (),
    legend: bool = True,
) -> str:
    """One map as a complete SVG document, its labels placed clear of one
    another (:mod:`pate.render.labels`), with a legend below it; ``marks``
    are the (colour, meaning) of the icons, for the legend; ``routes`` and
    ``boxes`` the trade routes and blockade boxes of the EiA operations rules
    (:mod:`pate.render.overlays`), drawn over the sea and under the ports; ``courses`` the player's
    ordered courses, as arrows (:mod:`pate.render.courses`); ``legend=False``: the page draws it."""
    style = style or MapStyle()
    geo = (geography or load_geography()).maps[which.value]
    areas = sorted((a for a in world_map.sea_areas.values() if a.map is which), key=lambda a: a.code)
    codes = {a.code for a in areas}
    ports = sorted((p for p in world_map.ports.values() if p.sea_area in codes), key=lambda p: p.name)
    frame = Frame(
        style.width / geo.width, float(style.width), round(geo.height * style.width / geo.width + TOP, 1)
    )
    heading = title if title is not None else f"PATE: {MAP_TITLES[which]}"
    static = _static_labels(
        tuple((a.code, a.name, frame(geo.labels[a.code])) for a in areas),
        tuple((p.name, frame(geo.ports[p.name]), _waters(p)) for p in ports),
        (frame.width, frame.height),
        style,
        Sea(water_of(geo), frame.scale, TOP),
    )
    drawn, covered = _icons(list(icons), static)
    keys, keys_height = (
        draw_legend(ports, frame.height, frame.width, style, highlight=bool(highlight), marks=marks)
        if legend
        else ([], 0.0)
    )
    height = round(frame.height + keys_height, 1)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {frame.width:g} {height:g}" '
        f'width="{frame.width:g}" height="{height:g}" font-family="{escape(style.font)}">',
        f"<title>{escape(heading)}</title>",
        f'<rect x="0" y="0" width="{frame.width:g}" height="{height:g}" fill="#ffffff"/>',
        f'<text x="{style.margin}" y="{TOP * 0.75:g}" font-size="18">{escape(heading)}</text>',
        *_geography_layer(geo, areas, frame, style, highlight),
        *route_layer(world_map, routes, _node_point(geo, frame, codes)),
        *[_area_code(a, frame(geo.labels[a.code]), _name(static.area_names[a.code], covered)) for a in areas],
        *[
            _port(
                p, world_map, frame(geo.ports[p.name]), style, _name(static.port_names.get(p.name), covered)
            )
            for p in ports
        ],
        *box_layer(boxes, _node_point(geo, frame, codes)),
        *course_layer(courses, _node_point(geo, frame, codes), which.value),
        *drawn,
        *keys,
        "</svg>",
    ]
    return "\n".join(parts) + "\n"


def _node_point(
    geo: MapGeography, frame: Frame, codes: set[str]
) -> Callable[[str], tuple[float, float] | None]:
    """A sea area's label point or a port's mark on this map (None: not on it)."""

    def at(node: str) -> tuple[float, float] | None:
        if node in codes:
            return frame(geo.labels[node])
        return frame(geo.ports[node]) if node in geo.ports else None

    return at


def _geography_layer(
    geo: MapGeography, areas: list[SeaArea], frame: Frame, style: MapStyle, highlight: frozenset[str]
) -> list[str]:
    """Sea, the sea areas' polygons, the passages and the land, in the
    asset's units scaled into place (so the paths are the asset's, verbatim)."""
    clip = f"frame-{geo.name}"  # the coast is built a little beyond the frame: cut it at the edge
    out = [
        f'<clipPath id="{clip}"><rect width="{geo.width:g}" height="{geo.height:g}"/></clipPath>',
        f'<g class="geography" transform="translate(0 {TOP}) scale({frame.scale:g})" '
        f'clip-path="url(#{clip})">',
        f'<rect width="{geo.width:g}" height="{geo.height:g}" fill="{style.sea}"/>',
    ]
    for a in areas:
        fill = style.highlight_fill if a.code in highlight else style.area_fill
        stroke, width = (style.edge_stroke, 2.5) if a.atlantic_edge else (style.area_stroke, 1)
        out.append(
            f'<path class="sea-area" id="area-{a.code}" data-area="{a.code}" d="{geo.areas[a.code]}" '
            f'fill="{fill}" fill-rule="evenodd" stroke="{stroke}" stroke-width="{width}">'
            f"<title>{escape(a.name)} ({a.code}){_wind_words(a)}</title></path>"
        )
    for first, second, path in geo.passages:
        out.append(
            f'<path class="passage" d="{path}" fill="none" stroke="{style.link}" stroke-width="3" '
            f'stroke-dasharray="4,3"><title>passage between {first} and {second}</title></path>'
        )
    out.append(
        f'<path class="land" d="{geo.land}" fill="{style.land}" stroke="{style.coast}" stroke-width="0.6"/>'
    )
    out.append("</g>")
    return out


def _waters(p: Port) -> tuple[str, ...]:
    """The sea areas a port opens on: its own and, a strait port's, the other (rule 6.3)."""
    return (p.sea_area, p.strait_sea_area) if p.strait_sea_area else (p.sea_area,)


@dataclass(frozen=True, slots=True)
class StaticLabels:
    """The labels of the map itself (sea areas' names, ports' names), the
    same for every report: laid out once for a map."""

    bounds: Box
    area_names: dict[str, tuple[Box, str]]  # the name's box and its drawing
    port_names: dict[str, tuple[Box, str]]  # the same, for the ports named
    anchors: dict[str, Box]  # sea area codes and port names -> their mark's box
    waters: dict[str, tuple[str, ...]]  # sea area codes and port names -> the water their markers take
    layout: Layout  # the heading, the areas' codes and the ports' marks (read only)
    names: Layout  # the areas' and the ports' names, over ``layout`` (read only)
    codes: Layout  # the areas' codes as drawn, a little tighter than their boxes in ``layout``
    sea: Sea
    kept: dict[object, tuple[tuple[tuple[float, float], Box], ...]]  # markers' spots clear of them


@lru_cache(maxsize=16)
def _static_labels(
    areas: tuple[tuple[str, str, tuple[float, float]], ...],
    ports: tuple[tuple[str, tuple[float, float], tuple[str, ...]], ...],
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
    for name, (x, y), _ in ports:
        anchors[name] = Box(x - s, y - s, x + s, y + s)
        layout.mark(anchors[name])
    names = Layout(layout.bounds, base=layout)  # what a report's marker may cover when it must
    placer = MarkerPlacer(sea, names)
    area_names = {code: _area_name(placer, anchors[code], code, name) for code, name, _ in areas}
    port_names = {}
    if style.port_labels:
        points = {name: at for name, at, _ in ports}
        for name, _, _ in ports:
            drawn = _port_name(names, anchors[name], name, _nearest_is(name, points))
            if drawn is not None:
                port_names[name] = drawn
    waters = {code: (code,) for code, _, _ in areas} | {name: w for name, _, w in ports}
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
        return joined or all(mine <= _distance(box, p) + NEAREST_SLACK for p in near)

    return accept


def _distance(box: Box, p: tuple[float, float]) -> float:
    dx = max(box.x0 - p[0], 0.0, p[0] - box.x1)
    dy = max(box.y0 - p[1], 0.0, p[1] - box.y1)
    return math.hypot(dx, dy)


def _area_name(names: MarkerPlacer, anchor: Box, code: str, text: str) -> tuple[Box, str]:
    """A sea area's name on its own water, else on any water, else with at
    least its middle on its water (the Channel is narrow), as near its code
    as the labels allow; only where none of these is free, beside the code."""
    w, h = text_size(text, AREA_NAME_SIZE)
    spot = names.place(Wanted((code,), _centre(anchor), (w, h), at=(w / 2, h / 2)), passes=3)
    if spot is None:
        return _label(names.layout, anchor, text, AREA_NAME_SIZE, SOUTH_FIRST)
    box = spot.box
    return box, (
        f'<text class="label area-name" x="{box.x0:.1f}" y="{box.y0 + AREA_NAME_SIZE * 0.95:.1f}" '
        f'font-size="{AREA_NAME_SIZE:g}" fill="#1b2631">{escape(text)}</text>'
    )


def _label(
    layout: Layout, anchor: Box, text: str, size: float, directions: tuple[tuple[int, int], ...]
) -> tuple[Box, str]:
    """A text label placed clear of the others, with a leader line to its
    anchor when it had to move away."""
    w, h = text_size(text, size)
    placed = layout.place(anchor, w, h, directions)
    box = placed.box
    line = _leader(anchor, box) if placed.leader else ""
    return box, (
        f'{line}<text class="label" x="{box.x0:.1f}" y="{box.y0 + size * 0.95:.1f}" '
        f'font-size="{size:g}" fill="#1b2631">{escape(text)}</text>'
    )


def _port_name(
    layout: Layout, anchor: Box, name: str, accept: Callable[[Box, bool], bool]
) -> tuple[Box, str] | None:
    """A port's name beside its port and nearer it than any other, in a
    smaller hand where the coast is crowded, or none where there is no such
    room within NAME_REACH (the port's tooltip still names it, and so does
    its sea area's own map)."""
    for size in (PORT_NAME_SIZE, PORT_NAME_SIZE * CROWDED_NAME_SCALE):
        w, h = text_size(name, size)
        placed = layout.place_near(anchor, w, h, EAST_FIRST, NAME_REACH, accept)
        if placed is not None:
            box = placed.box
            line = _leader(anchor, box) if placed.leader else ""
            return box, (
                f'{line}<text class="label" x="{box.x0:.1f}" y="{box.y0 + size * 0.95:.1f}" '
                f'font-size="{size:g}" fill="#1b2631">{escape(name)}</text>'
            )
    return None


def _leader(anchor: Box, box: Box) -> str:
    x1, y1, x2, y2 = leader(anchor, box)
    return (
        f'<line class="leader" x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#5d6d7e" stroke-width="0.6"/>'
    )


def _wind_words(a: SeaArea) -> str:
    """The area's wind chances (rule 1.4), the commonest first: what a
    commander plotting a course through it weighs."""
    blows = sorted(a.winds.direction, key=lambda dp: (-dp[1], dp[0].value))
    strength = sorted(a.winds.strength, key=lambda sp: -sp[1])
    return (
        " · wind from "
        + ", ".join(f"{d.value} {p}%" for d, p in blows if p)
        + "; "
        + ", ".join(f"{w.value} {p}%" for w, p in strength if p)
    )


def _area_code(a: SeaArea, at: tuple[float, float], name: str) -> str:
    x, y = at
    return (
        f'<g class="area-code" data-area="{a.code}"><title>{escape(a.name)} ({a.code})</title>'
        f'<text x="{x}" y="{y + 5:.1f}" font-size="{AREA_CODE_SIZE}" font-weight="bold" '
        f'text-anchor="middle">{a.code}</text>{name}</g>'
    )


def _port(p: Port, world_map: WorldMap, at: tuple[float, float], style: MapStyle, label: str) -> str:
    x, y = at
    s = style.port_size
    colour = NATION_COLOURS.get(p.controller, "#555555")
    shape = (
        f'<polygon points="{x},{y - s:.1f} {x + s:.1f},{y} {x},{y + s:.1f} {x - s:.1f},{y}" '
        if p.strait_sea_area
        else f'<rect x="{x - s / 2:.1f}" y="{y - s / 2:.1f}" width="{s:g}" height="{s:g}" '
    )
    area = world_map.sea_areas[p.sea_area].name
    where = f"{area} ({p.sea_area})"
    if p.strait_sea_area:
        where += (
            f" and, a strait port (6.3), {world_map.sea_areas[p.strait_sea_area].name} ({p.strait_sea_area})"
        )
    tip = f"{p.name}: held by {p.controller}, on {where}, exit {p.exit.value}"
    return (
        f'<g class="port" id="port-{escape(p.name.replace(" ", "_"))}" data-port="{escape(p.name)}">'
        f"<title>{escape(tip)}</title>"
        f'{shape}fill="{colour}" stroke="#000" stroke-width="0.8"/>{label}</g>'
    )


def _icons(icons: list[Icon], static: StaticLabels) -> tuple[list[str], Layout]:
    """Each marker's dot on its place's water (:mod:`pate.render.markers`),
    and the markers' boxes."""
    placer = MarkerPlacer(static.sea, static.layout, static.names, static.kept, static.codes)
    shown = [i for i in icons if i.at in static.anchors]
    wanted = [
        Wanted(
            static.waters[i.at],
            _centre(static.anchors[i.at]),
            _marker_size(i.label),
            port=static.waters[i.at] != (i.at,),
            short=_marker_size(_short(i)) if _short(i) != i.label else None,
        )
        for i in shown
    ]
    out = []
    for icon, w, spot in zip(shown, wanted, placer.place_all(wanted), strict=True):
        if spot is None:  # no water at all: beside the place, clear of every label
            anchor = static.anchors[icon.at]
            placed = placer.layout.place(anchor, *w.size, EAST_FIRST)
            placer.markers.take(placed.box)
            box, line = placed.box, _leader(anchor, placed.box) if placed.leader else ""
            dot = (box.x0 + 5, box.y0 + 6)
        else:
            box, dot = spot.box, spot.dot
            line = _port_line(spot.leader_from, spot.dot) if spot.leader_from else ""
        shown_as = (
            replace(icon, label=_short(icon), title=icon.title or icon.label) if spot and spot.short else icon
        )
        out.append(_icon(shown_as, box, dot, line))
    return out, placer.markers


def _marker_size(words: str) -> tuple[float, float]:
    return (_widened(text_size(words, ICON_SIZE)[0] + 14), ICON_HEIGHT - 1.0)


_COUNT = re.compile(r"(\d+) (?:ships?|seen)")


def _short(icon: Icon) -> str:
    """A marker's words where the map is crowded: the number it tells."""
    if icon.short:
        return icon.short
    count = _COUNT.search(icon.label)
    return count.group(1) if count else "1" if icon.ships else icon.label


def _centre(box: Box) -> tuple[float, float]:
    return ((box.x0 + box.x1) / 2, (box.y0 + box.y1) / 2)


def _name(drawn: tuple[Box, str] | None, markers: Layout) -> str:
    """A place's name, unless a marker had to be drawn over it (its tooltip
    still names the place)."""
    if drawn is None or markers.hits(drawn[0].grown(1.0)):
        return ""
    return drawn[1]


def _widened(w: float) -> float:
    """A marker's width rounded up to a whole letter, so that markers of one
    length share the spots kept for them."""
    return math.ceil(w / ICON_LETTER) * ICON_LETTER


def _port_line(port: tuple[float, float], dot: tuple[float, float]) -> str:
    """From a port's mark to its marker's dot: the marker is that port's."""
    return (
        f'<line class="leader" x1="{port[0]:.1f}" y1="{port[1]:.1f}" x2="{dot[0]:.1f}" y2="{dot[1]:.1f}" '
        'stroke="#5d6d7e" stroke-width="0.8"/>'
    )


def _icon(icon: Icon, box: Box, dot: tuple[float, float], line: str) -> str:
    """The dot, and the words beside it on the side its box lies."""
    tip = f"<title>{escape(icon.title)}</title>" if icon.title else ""
    ships = f' data-ships="{escape(" ".join(icon.ships))}"' if icon.ships else ""
    x = box.x0 + 14 if dot[0] < (box.x0 + box.x1) / 2 else box.x0 + 1
    return (
        f'<g class="icon" data-at="{escape(icon.at)}"{ships}>{tip}{line}'
        f'<circle cx="{dot[0]:.1f}" cy="{dot[1]:.1f}" r="5" fill="{icon.colour}"/>'
        f'<text class="label" x="{x:.1f}" y="{box.y0 + ICON_SIZE * 0.95:.1f}" '
        f'font-size="{ICON_SIZE}">{escape(icon.label)}</text></g>'
    )
