"""SVG drawings of the two PATE maps (rule 1.1): sea areas with their codes,
the links between neighbouring sea areas, ports, and strait ports (rule 6.3).

Pure functions: a :class:`WorldMap` in, SVG text out.  Reports reuse
:func:`render_map` with ``highlight`` (sea areas to shade) and ``icons``
(markers placed at a sea area or a port, e.g. the player's ships).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from html import escape

from pate.core.world.geography import MapName, Port, SeaArea, WorldMap

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


def render_map(
    world_map: WorldMap,
    which: MapName,
    style: MapStyle | None = None,
    *,
    highlight: frozenset[str] = frozenset(),
    icons: Iterable[Icon] = (),
    title: str | None = None,
) -> str:
    """One map as a complete SVG document."""
    style = style or MapStyle()
    areas = sorted((a for a in world_map.sea_areas.values() if a.map is which), key=lambda a: a.code)
    codes = {a.code for a in areas}
    ports = sorted((p for p in world_map.ports.values() if p.sea_area in codes), key=lambda p: p.name)
    proj = map_projection(world_map, which, style)
    heading = title if title is not None else f"PATE: {MAP_TITLES[which]}"
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {proj.width:g} {proj.height:g}" '
        f'width="{proj.width:g}" height="{proj.height:g}" font-family="{escape(style.font)}">',
        f"<title>{escape(heading)}</title>",
        f'<rect x="0" y="0" width="{proj.width:g}" height="{proj.height:g}" fill="{style.sea}"/>',
        f'<text x="{style.margin}" y="{style.margin * 0.6:g}" font-size="18">{escape(heading)}</text>',
    ]
    parts += _links(areas, world_map, proj, style)
    parts += _port_links(ports, world_map, proj, style)
    parts += [_area(a, proj, style, a.code in highlight) for a in areas]
    parts += [_port(p, proj, style) for p in ports]
    parts += _icons(list(icons), world_map, proj)
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


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


def _area(a: SeaArea, proj: Projection, style: MapStyle, highlighted: bool) -> str:
    x, y = proj(a.position)
    fill = style.highlight_fill if highlighted else style.area_fill
    stroke = style.edge_stroke if a.atlantic_edge else style.area_stroke
    width = 3 if a.atlantic_edge else 1.5
    return (
        f'<g class="sea-area" id="area-{a.code}"><title>{escape(a.name)} ({a.code})</title>'
        f'<ellipse cx="{x}" cy="{y}" rx="30" ry="17" fill="{fill}" stroke="{stroke}" stroke-width="{width}"/>'
        f'<text x="{x}" y="{y + 5:.1f}" font-size="15" font-weight="bold" '
        f'text-anchor="middle">{a.code}</text>'
        f'<text x="{x}" y="{y + 30:.1f}" font-size="10" text-anchor="middle" fill="#34495e">'
        f"{escape(a.name)}</text></g>"
    )


def _port(p: Port, proj: Projection, style: MapStyle) -> str:
    x, y = proj(p.position)
    s = style.port_size
    colour = NATION_COLOURS.get(p.controller, "#555555")
    shape = (
        f'<polygon points="{x},{y - s:.1f} {x + s:.1f},{y} {x},{y + s:.1f} {x - s:.1f},{y}" '
        if p.strait_sea_area
        else f'<rect x="{x - s / 2:.1f}" y="{y - s / 2:.1f}" width="{s:g}" height="{s:g}" '
    )
    label = (
        f'<text x="{x + s:.1f}" y="{y - s / 2:.1f}" font-size="9" fill="#1b2631">{escape(p.name)}</text>'
        if style.port_labels
        else ""
    )
    where = f"{p.sea_area}" + (f" and {p.strait_sea_area} (strait)" if p.strait_sea_area else "")
    tip = f"{p.name}: {p.controller}, connected to {where}, exit {p.exit.value}"
    return (
        f'<g class="port" id="port-{escape(p.name.replace(" ", "_"))}"><title>{escape(tip)}</title>'
        f'{shape}fill="{colour}" stroke="#000" stroke-width="0.8"/>{label}</g>'
    )


def _icons(icons: list[Icon], wmap: WorldMap, proj: Projection) -> list[str]:
    """Markers stacked to the right of the place they belong to."""
    out = []
    stacked: dict[str, int] = {}
    for icon in icons:
        if icon.at in wmap.sea_areas:
            x, y = proj(wmap.sea_areas[icon.at].position)
            x += 34
        elif icon.at in wmap.ports:
            x, y = proj(wmap.ports[icon.at].position)
            x += 8
        else:
            continue
        n = stacked.get(icon.at, 0)
        stacked[icon.at] = n + 1
        y += 13 * n - 6
        tip = f"<title>{escape(icon.title)}</title>" if icon.title else ""
        out.append(
            f'<g class="icon">{tip}<circle cx="{x + 5:.1f}" cy="{y:.1f}" r="5" fill="{icon.colour}"/>'
            f'<text x="{x + 13:.1f}" y="{y + 4:.1f}" font-size="11">{escape(icon.label)}</text></g>'
        )
    return out
