"""SVG drawings of the two PATE maps (rule 1.1): sea areas with their codes,
the links between neighbouring sea areas, ports, and strait ports (rule 6.3).

Pure functions: a :class:`WorldMap` in, SVG text out.  Reports reuse
:func:`render_map` with ``highlight`` (sea areas to shade) and ``icons``
(markers placed at a sea area or a port, e.g. the player's ships).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from html import escape

from pate.core.world.geography import MapName, Port, SeaArea, WorldMap
from pate.render.labels import EAST_FIRST, SOUTH_FIRST, Box, Layout, leader, text_box, text_size
from pate.render.legend import LEGEND_HEIGHT, legend

NATION_COLOURS: Mapping[str, str] = {
    "BR": "#c0392b",
    "FR": "#2e4bb5",
    "SP": "#d4a017",
    "PO": "#1e8449",
    "HO": "#e67e22",
    "NE": "#8e44ad",
    "SW": "#2874a6",
    "DK": "#b03a2e",
    "RU": "#17a589",
    "PR": "#212f3d",
    "AU": "#f4d03f",
    "GE": "#7f8c8d",
    "IT": "#27ae60",
    "TU": "#a04000",
    "MO": "#9a7d0a",
    "US": "#5d6d7e",
}


MAP_TITLES: Mapping[MapName, str] = {MapName.EUROPE: "European waters", MapName.AMERICA: "American waters"}


@dataclass(frozen=True, slots=True)
class MapStyle:
    width: int = 1200
    margin: int = 40
    sea: str = "#dbe9f6"
    link: str = "#7a9cc6"
    area_fill: str = "#ffffff"
    area_stroke: str = "#34495e"
    highlight_fill: str = "#f9e79f"
    edge_stroke: str = "#1f618d"  # sea areas on the Atlantic edge (rule 6.11)
    port_size: float = 7.0
    port_labels: bool = True
    font: str = "Georgia, serif"


@dataclass(frozen=True, slots=True)
class Icon:
    """A marker drawn next to a sea area or port (``at`` is a code or a port name)."""

    at: str
    label: str
    colour: str = "#000000"
    title: str = ""


@dataclass(frozen=True, slots=True)
class Projection:
    """Longitude/latitude to SVG coordinates (equirectangular, scaled by the
    cosine of the map's middle latitude so that shapes are not stretched)."""

    lon0: float
    lat1: float
    scale: float
    x_factor: float
    margin: float
    width: float
    height: float

    def __call__(self, point: tuple[float, float]) -> tuple[float, float]:
        lon, lat = point
        x = self.margin + (lon - self.lon0) * self.x_factor * self.scale
        y = self.margin + (self.lat1 - lat) * self.scale
        return (round(x, 1), round(y, 1))


def projection(points: Iterable[tuple[float, float]], style: MapStyle) -> Projection:
    pts = list(points) or [(0.0, 0.0)]
    lon0, lon1 = min(p[0] for p in pts), max(p[0] for p in pts)
    lat0, lat1 = min(p[1] for p in pts), max(p[1] for p in pts)
    x_factor = math.cos(math.radians((lat0 + lat1) / 2))
    span_x = max((lon1 - lon0) * x_factor, 1.0)
    scale = (style.width - 2 * style.margin) / span_x
    height = (lat1 - lat0) * scale + 2 * style.margin
    return Projection(lon0, lat1, scale, x_factor, style.margin, float(style.width), round(height, 1))


def map_projection(world_map: WorldMap, which: MapName, style: MapStyle) -> Projection:
    areas = [a for a in world_map.sea_areas.values() if a.map is which]
    codes = {a.code for a in areas}
    ports = [p for p in world_map.ports.values() if p.sea_area in codes]
    return projection([a.position for a in areas] + [p.position for p in ports], style)


AREA_RX, AREA_RY = 30, 17  # the ellipse of a sea area
AREA_NAME_SIZE, PORT_NAME_SIZE, ICON_SIZE = 10, 9, 11
ICON_HEIGHT = 16  # a line of marker text (11 px) and the gap below it
SLOT = (14 + text_size("999 ships", ICON_SIZE)[0], 2 * ICON_HEIGHT)  # two markers, one above the other


def render_map(
    world_map: WorldMap,
    which: MapName,
    style: MapStyle | None = None,
    *,
    highlight: frozenset[str] = frozenset(),
    icons: Iterable[Icon] = (),
    title: str | None = None,
    marks: Sequence[tuple[str, str]] = (),
) -> str:
    """One map as a complete SVG document, its labels placed clear of one
    another (:mod:`pate.render.labels`), with a legend below it; ``marks``
    are the (colour, meaning) of the icons, for the legend."""
    style = style or MapStyle()
    areas = sorted((a for a in world_map.sea_areas.values() if a.map is which), key=lambda a: a.code)
    codes = {a.code for a in areas}
    ports = sorted((p for p in world_map.ports.values() if p.sea_area in codes), key=lambda p: p.name)
    proj = map_projection(world_map, which, style)
    heading = title if title is not None else f"PATE: {MAP_TITLES[which]}"
    height = proj.height + LEGEND_HEIGHT
    static = _static_labels(
        tuple((a.code, a.name, proj(a.position)) for a in areas),
        tuple((p.name, proj(p.position)) for p in ports),
        (proj.width, proj.height),
        heading,
        style,
    )
    layout = Layout(static.bounds, base=static.layout)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {proj.width:g} {height:g}" '
        f'width="{proj.width:g}" height="{height:g}" font-family="{escape(style.font)}">',
        f"<title>{escape(heading)}</title>",
        f'<rect x="0" y="0" width="{proj.width:g}" height="{height:g}" fill="{style.sea}"/>',
        f'<text x="{style.margin}" y="{style.margin * 0.6:g}" font-size="18">{escape(heading)}</text>',
    ]
    parts += _links(areas, world_map, proj, style)
    parts += _port_links(ports, world_map, proj, style)
    parts += [_area(a, proj, style, a.code in highlight, static.area_names[a.code]) for a in areas]
    parts += [_port(p, proj, style, static.port_names[p.name]) for p in ports]
    parts += _icons(list(icons), layout, static)
    parts += legend(ports, proj.height, proj.width, style, highlight=bool(highlight), marks=marks)
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


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
    layout = Layout(Box(0, style.margin * 0.75, size[0], size[1]))
    layout.take(text_box(style.margin, style.margin * 0.6, heading, 18))
    anchors: dict[str, Box] = {}
    for code, _, (x, y) in areas:
        anchors[code] = Box(x - AREA_RX, y - AREA_RY, x + AREA_RX, y + AREA_RY)
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
        name: _label(layout, anchors[name], name, PORT_NAME_SIZE, EAST_FIRST) if style.port_labels else ""
        for name, _ in ports
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


def _leader(anchor: Box, box: Box) -> str:
    x1, y1, x2, y2 = leader(anchor, box)
    return (
        f'<line class="leader" x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#5d6d7e" stroke-width="0.6"/>'
    )


def _links(areas: list[SeaArea], wmap: WorldMap, proj: Projection, style: MapStyle) -> list[str]:
    out = []
    for a in areas:
        for other in sorted(a.adjacent):
            if a.code < other:
                (x1, y1), (x2, y2) = proj(a.position), proj(wmap.sea_areas[other].position)
                out.append(
                    f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{style.link}" stroke-width="3"/>'
                )
    return out


def _port_links(ports: list[Port], wmap: WorldMap, proj: Projection, style: MapStyle) -> list[str]:
    """A thin line from each port to its connected sea area; strait ports get
    a dashed line to their second sea area (rule 6.3)."""
    out = []
    for p in ports:
        x1, y1 = proj(p.position)
        for area in p.reachable_sea_areas:
            x2, y2 = proj(wmap.sea_areas[area].position)
            dash = ' stroke-dasharray="6 4"' if area == p.strait_sea_area else ""
            out.append(
                f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{style.link}" '
                f'stroke-width="1" opacity="0.6"{dash}/>'
            )
    return out


def _area(a: SeaArea, proj: Projection, style: MapStyle, highlighted: bool, name: str) -> str:
    x, y = proj(a.position)
    fill = style.highlight_fill if highlighted else style.area_fill
    stroke = style.edge_stroke if a.atlantic_edge else style.area_stroke
    width = 3 if a.atlantic_edge else 1.5
    return (
        f'<g class="sea-area" id="area-{a.code}"><title>{escape(a.name)} ({a.code})</title>'
        f'<ellipse cx="{x}" cy="{y}" rx="30" ry="17" fill="{fill}" stroke="{stroke}" stroke-width="{width}"/>'
        f'<text x="{x}" y="{y + 5:.1f}" font-size="15" font-weight="bold" '
        f'text-anchor="middle">{a.code}</text>{name}</g>'
    )


def _port(p: Port, proj: Projection, style: MapStyle, label: str) -> str:
    x, y = proj(p.position)
    s = style.port_size
    colour = NATION_COLOURS.get(p.controller, "#555555")
    shape = (
        f'<polygon points="{x},{y - s:.1f} {x + s:.1f},{y} {x},{y + s:.1f} {x - s:.1f},{y}" '
        if p.strait_sea_area
        else f'<rect x="{x - s / 2:.1f}" y="{y - s / 2:.1f}" width="{s:g}" height="{s:g}" '
    )
    where = f"{p.sea_area}" + (f" and {p.strait_sea_area} (strait)" if p.strait_sea_area else "")
    tip = f"{p.name}: {p.controller}, connected to {where}, exit {p.exit.value}"
    return (
        f'<g class="port" id="port-{escape(p.name.replace(" ", "_"))}"><title>{escape(tip)}</title>'
        f'{shape}fill="{colour}" stroke="#000" stroke-width="0.8"/>{label}</g>'
    )


def _icons(icons: list[Icon], layout: Layout, static: StaticLabels) -> list[str]:
    """Each marker (a dot and its words) in the room kept beside its sea
    area while it lasts, else placed beside its place clear of every label."""
    out = []
    used: dict[str, int] = {}
    for icon in icons:
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
        out.append(
            f'<g class="icon">{tip}{line}'
            f'<circle cx="{box.x0 + 5:.1f}" cy="{box.y0 + 6:.1f}" r="5" fill="{icon.colour}"/>'
            f'<text class="label" x="{box.x0 + 14:.1f}" y="{box.y0 + ICON_SIZE * 0.95:.1f}" '
            f'font-size="{ICON_SIZE}">{escape(icon.label)}</text></g>'
        )
    return out
