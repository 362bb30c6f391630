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

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
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
from pate.render.overlays import BlockadeBox, RouteLine, box_layer, route_layer
from pate.render.style import MAP_TITLES, NATION_COLOURS, Icon, MapStyle

__all__ = ["MAP_TITLES", "NATION_COLOURS", "Icon", "MapStyle", "render_map"]

AREA_CODE_SIZE, AREA_NAME_SIZE, PORT_NAME_SIZE, ICON_SIZE = 15, 10, 9, 11
AREA_HALF_W, AREA_HALF_H = 17, 10  # the box kept round a sea area's code
ICON_HEIGHT = 16  # a line of marker text (11 px) and the gap below it
SLOT = (14 + text_size("999 ships", ICON_SIZE)[0], 2 * ICON_HEIGHT)  # two markers, one above the other
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
        tuple((p.name, frame(geo.ports[p.name])) for p in ports),
        (frame.width, frame.height),
        heading,
        style,
    )
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
        *[_area_code(a, frame(geo.labels[a.code]), static.area_names[a.code]) for a in areas],
        *[_port(p, world_map, frame(geo.ports[p.name]), style, static.port_names[p.name]) for p in ports],
        *box_layer(boxes, _node_point(geo, frame, codes)),
        *course_layer(courses, _node_point(geo, frame, codes), which.value),
        *_icons(list(icons), Layout(static.bounds, base=static.layout), static),
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


@dataclass(frozen=True, slots=True)
class StaticLabels:
    """The labels of the map itself (sea areas' names, ports' names), the
    same for every report: laid out once for a map."""

    bounds: Box
    area_names: dict[str, str]
    port_names: dict[str, str]
    anchors: dict[str, Box]  # sea area codes and port names -> their marker's box
    slots: dict[str, Box]  # sea area code -> the room kept beside it for a report's markers
    layout: Layout  # every box but the slots' (read only: each report places on its own copy)


@lru_cache(maxsize=16)
def _static_labels(
    areas: tuple[tuple[str, str, tuple[float, float]], ...],
    ports: tuple[tuple[str, tuple[float, float]], ...],
    size: tuple[float, float],
    heading: str,
    style: MapStyle,
) -> StaticLabels:
    """Pure in its arguments (what the map shows of each place, projected),
    so that the cache can never give another map's labels."""
    layout = Layout(Box(0, 0, size[0], size[1]))
    layout.take(text_box(style.margin, TOP * 0.75, heading, 18))
    anchors: dict[str, Box] = {}
    for code, _, (x, y) in areas:
        anchors[code] = Box(x - AREA_HALF_W, y - AREA_HALF_H, x + AREA_HALF_W, y + AREA_HALF_H)
        layout.take(anchors[code])  # a sea area's code sits in its ellipse: nothing goes over it
    s = style.port_size
    for name, (x, y) in ports:
        anchors[name] = Box(x - s, y - s, x + s, y + s)
        layout.mark(anchors[name])
    area_names = {
        code: _label(layout, anchors[code], name, AREA_NAME_SIZE, SOUTH_FIRST) for code, name, _ in areas
    }
    # room for two markers ("59 ships", "sighted") beside every sea area, kept before the
    # ports' names are placed, so that a report's markers sit by their area
    slots = {code: layout.place(anchors[code], *SLOT, EAST_FIRST).box for code, _, _ in areas}
    port_names = {
        name: _port_name(layout, anchors[name], name) if style.port_labels else "" for name, _ in ports
    }
    labels, markers = layout.boxes()
    free = Layout(layout.bounds)
    kept = set(slots.values())
    for box in labels:
        if box not in kept:
            free.take(box)
    for box in markers:
        free.mark(box)
    return StaticLabels(layout.bounds, area_names, port_names, anchors, slots, free)


def _label(
    layout: Layout, anchor: Box, text: str, size: float, directions: tuple[tuple[int, int], ...]
) -> str:
    """A text label placed clear of the others, with a leader line to its
    anchor when it had to move away."""
    w, h = text_size(text, size)
    placed = layout.place(anchor, w, h, directions)
    box = placed.box
    line = _leader(anchor, box) if placed.leader else ""
    return (
        f'{line}<text class="label" x="{box.x0:.1f}" y="{box.y0 + size * 0.95:.1f}" '
        f'font-size="{size:g}" fill="#1b2631">{escape(text)}</text>'
    )


def _port_name(layout: Layout, anchor: Box, name: str) -> str:
    """A port's name beside its port, in a smaller hand where the map is
    crowded, or none where even that cannot sit within NAME_REACH (the
    port's tooltip still names it, and so does its sea area's own map)."""
    for size in (PORT_NAME_SIZE, PORT_NAME_SIZE * CROWDED_NAME_SCALE):
        w, h = text_size(name, size)
        placed = layout.place_near(anchor, w, h, EAST_FIRST, NAME_REACH)
        if placed is not None:
            box = placed.box
            line = _leader(anchor, box) if placed.leader else ""
            return (
                f'{line}<text class="label" x="{box.x0:.1f}" y="{box.y0 + size * 0.95:.1f}" '
                f'font-size="{size:g}" fill="#1b2631">{escape(name)}</text>'
            )
    return ""


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


def _icons(icons: list[Icon], layout: Layout, static: StaticLabels) -> list[str]:
    """Each marker (a dot and its words) in the room kept beside its sea
    area while it lasts, else placed beside its place clear of every label.
    The sea areas' markers go first: their room is kept out of the layout,
    so a port's marker placed before them could take it."""
    out = []
    used: dict[str, int] = {}
    for icon in sorted(icons, key=lambda i: i.at not in static.slots):
        anchor = static.anchors.get(icon.at)
        if anchor is None:
            continue
        w, h = text_size(icon.label, ICON_SIZE)
        w, h = w + 14, ICON_HEIGHT - 1.0
        slot = static.slots.get(icon.at)
        n = used.get(icon.at, 0)
        if slot is not None and n < 2 and w <= slot.x1 - slot.x0:
            used[icon.at] = n + 1
            top = slot.y0 + n * ICON_HEIGHT
            box = Box(slot.x0, top, slot.x0 + w, top + h)
            layout.take(box)
            line = ""
        else:
            placed = layout.place(anchor, w, h, EAST_FIRST)
            box = placed.box
            line = _leader(anchor, box) if placed.leader else ""
        tip = f"<title>{escape(icon.title)}</title>" if icon.title else ""
        ships = f' data-ships="{escape(" ".join(icon.ships))}"' if icon.ships else ""
        out.append(
            f'<g class="icon" data-at="{escape(icon.at)}"{ships}>{tip}{line}'
            f'<circle cx="{box.x0 + 5:.1f}" cy="{box.y0 + 6:.1f}" r="5" fill="{icon.colour}"/>'
            f'<text class="label" x="{box.x0 + 14:.1f}" y="{box.y0 + ICON_SIZE * 0.95:.1f}" '
            f'font-size="{ICON_SIZE}">{escape(icon.label)}</text></g>'
        )
    return out
