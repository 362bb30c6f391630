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
from html import escape

from pate.core.world.geography import MapName, Port, SeaArea, WorldMap
from pate.render.courses import Course, course_layer
from pate.render.geography import Geography, MapGeography, load_geography
from pate.render.labels import Layout
from pate.render.legend import legend as draw_legend
from pate.render.marker_layer import marker_layer, unless_covered
from pate.render.markers import Sea
from pate.render.overlays import BlockadeBox, RouteLine, box_layer, route_layer
from pate.render.place_names import AREA_CODE_SIZE, StaticLabels, port_waters, static_labels
from pate.render.style import MAP_TITLES, NATION_COLOURS, TOP, Icon, MapStyle
from pate.render.water import water_of

__all__ = ["MAP_TITLES", "NATION_COLOURS", "TOP", "Icon", "MapStyle", "render_map"]


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
    static = _labels(geo, areas, ports, frame, style)
    drawn, covered = marker_layer(list(icons), static)
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
        *[
            _area_code(a, frame(geo.labels[a.code]), unless_covered(static.area_names[a.code], covered))
            for a in areas
        ],
        *[_port(p, world_map, frame(geo.ports[p.name]), style, static, covered) for p in ports],
        *box_layer(boxes, _node_point(geo, frame, codes)),
        *course_layer(courses, _node_point(geo, frame, codes), which.value),
        *drawn,
        *keys,
        "</svg>",
    ]
    return "\n".join(parts) + "\n"


def _labels(
    geo: MapGeography, areas: list[SeaArea], ports: list[Port], frame: Frame, style: MapStyle
) -> StaticLabels:
    """The map's own words, projected into place (kept for the map)."""
    return static_labels(
        tuple((a.code, a.name, frame(geo.labels[a.code])) for a in areas),
        tuple((p.name, frame(geo.ports[p.name]), port_waters(p), p.yard + p.defense) for p in ports),
        (frame.width, frame.height),
        style,
        Sea(water_of(geo), frame.scale, TOP),
    )


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


def _port(
    p: Port,
    world_map: WorldMap,
    at: tuple[float, float],
    style: MapStyle,
    static: StaticLabels,
    covered: Layout,
) -> str:
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
    label = unless_covered(static.port_names.get(p.name), covered)
    return (
        f'<g class="port" id="port-{escape(p.name.replace(" ", "_"))}" data-port="{escape(p.name)}">'
        f"<title>{escape(tip)}</title>"
        f'{shape}fill="{colour}" stroke="#000" stroke-width="0.8"/>{label}</g>'
    )
