"""SVG maps of the position report: one map per sea area with the player's
ships, drawn like the sample of rule 1.6 (the wind, the neighbouring sea
areas around the edges, ship icons where the player's ships are and where
they are in contact, and the frigates' sightings), and a whole-map overview.

The overview reuses the shared whole-map renderer (:mod:`pate.render.svg_map`).
"""

from __future__ import annotations

import math
from html import escape

from pate.core.intel.model import PlayerKnowledge, Sighted
from pate.core.rules.detection import Place, ship_sort_key
from pate.core.world.geography import Direction, MapName, WorldMap
from pate.render.style import fade
from pate.render.svg_map import Icon as MapIcon
from pate.render.svg_map import render_map
from pate.reports.ops_overlays import known_boxes, known_routes
from pate.reports.picture import AreaPicture, Icon, Spot, area_picture, areas_shown, icon_caption
from pate.reports.sightings import age_text, earlier, sighted_words, source_text
from pate.reports.words import and_list, map_area, wind_text

STATE_COLORS = {
    "AU": "#b7950b",
    "BF": "#5b7db1",
    "BR": "#b03a2e",
    "DE": "#8e3b46",
    "DK": "#8e3b46",
    "FR": "#27569b",
    "HO": "#d35400",
    "NE": "#5e8c31",
    "PO": "#1e8449",
    "PR": "#34495e",
    "RU": "#117a65",
    "SP": "#c9a227",
    "SW": "#2e86c1",
    "TU": "#7d3c98",
    "US": "#5d6d7e",
}
_PALETTE = ("#6c3483", "#a04000", "#1a5276", "#196f3d", "#7b7d7d", "#943126")
W, H = 640, 500
SEA = (130, 86, 510, 436)  # x0, y0, x1, y1 of the sea area box
LABEL_LINE = 16  # height of one line of a neighbour's name
WRAP_AT = 12  # side labels longer than this break into two lines


def state_color(state: str) -> str:
    if state in STATE_COLORS:
        return STATE_COLORS[state]
    return _PALETTE[sum(map(ord, state)) % len(_PALETTE)]


def _text(x: float, y: float, s: str, cls: str, anchor: str = "middle") -> str:
    return f'<text x="{x:.0f}" y="{y:.0f}" class="{cls}" text-anchor="{anchor}">{escape(s)}</text>'


def _neighbour_labels(pic: AreaPicture) -> list[str]:
    x0, y0, x1, y1 = SEA
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    out: list[str] = []
    spots = {
        Direction.NORTH: (cx, y0 - 14, "middle"),
        Direction.SOUTH: (cx, y1 + 24, "middle"),
        Direction.WEST: (x0 - 8, cy, "end"),
        Direction.EAST: (x1 + 8, cy, "start"),
    }
    for d, (x, y, anchor) in spots.items():
        names = pic.neighbours[d]
        # a wrapped name takes two lines: stack by lines, not by names, so
        # that "Chesapeake" and "Middle Atlantic Coast" do not overprint
        heights = [LABEL_LINE * _lines(name, anchor) for name in names]
        total = sum(heights)
        top = 0.0
        for name, height in zip(names, heights, strict=True):
            middle = top + height / 2
            dy = {
                Direction.NORTH: middle - total + LABEL_LINE / 2,
                Direction.SOUTH: middle - LABEL_LINE / 2,
            }.get(d, middle - total / 2)
            out.append(_wrapped(x, y + dy, name, anchor))
            top += height
    return out


def _lines(name: str, anchor: str) -> int:
    return 1 if anchor == "middle" or len(name) <= WRAP_AT else 2


def _wrapped(x: float, y: float, name: str, anchor: str) -> str:
    """Side labels break into words so that long names stay on the canvas."""
    words = name.split()
    if _lines(name, anchor) == 1:
        return _text(x, y, name, "nb", anchor)
    lines = [" ".join(words[: len(words) // 2]), " ".join(words[len(words) // 2 :])]
    spans = "".join(
        f'<tspan x="{x:.0f}" dy="{0 if i == 0 else 14}">{escape(t)}</tspan>' for i, t in enumerate(lines)
    )
    return f'<text x="{x:.0f}" y="{y - 7:.0f}" class="nb" text-anchor="{anchor}">{spans}</text>'


def _port_anchor(index: int, count: int, exit_: Direction) -> tuple[float, float, float, float]:
    """A port sits on the edge opposite its exit (London exits east into the
    North Sea, so it lies to the west), the ports of one edge evenly spaced
    along it, clear of the middle where the neighbour's name is.  Returns its
    point and the unit vector into the sea."""
    x0, y0, x1, y1 = SEA
    t = (index + 1 if index < count / 2 else index + 2) / (count + 2)
    if exit_ is Direction.EAST:
        return x0, y0 + t * (y1 - y0), 1, 0
    if exit_ is Direction.WEST:
        return x1, y0 + t * (y1 - y0), -1, 0
    if exit_ is Direction.NORTH:
        return x0 + t * (x1 - x0), y1, 0, -1
    return x0 + t * (x1 - x0), y0, 0, 1


def _ports(pic: AreaPicture) -> tuple[list[str], dict[str, tuple[float, float]]]:
    """Port markers; a port's harbor icons go on the land side of its
    marker, its coastal waters' icons on the sea side."""
    used: dict[Direction, int] = {}
    per_edge: dict[Direction, int] = {}
    for _, exit_ in pic.ports:
        per_edge[exit_] = per_edge.get(exit_, 0) + 1
    out: list[str] = []
    anchors: dict[str, tuple[float, float]] = {}
    for name, exit_ in pic.ports:
        index = used.get(exit_, 0)
        used[exit_] = index + 1
        x, y, ux, uy = _port_anchor(index, per_edge[exit_], exit_)
        out.append(f'<circle cx="{x:.0f}" cy="{y:.0f}" r="7" class="port"/>')
        if ux:
            out.append(_text(x + ux * 12, y - 12, name, "pl", "start" if ux > 0 else "end"))
        else:
            out.append(_text(x, y + uy * 20 + (4 if uy > 0 else 0), name, "pl", "middle"))
        anchors[f"harbor:{name}"] = (x - ux * 34, y - uy * 30)
        anchors[f"coastal:{name}"] = (x + ux * 56, y + uy * 56)
    return out, anchors


def _tactical_anchor(t: int, count: int) -> tuple[float, float]:
    """Tactical areas on a grid inside the sea area box (they match no part of
    the map, rule 1.2; the grid only keeps separate groups apart)."""
    x0, y0, x1, y1 = SEA
    cols = max(1, math.ceil(math.sqrt(max(count, 1))))
    rows = max(1, math.ceil(max(count, 1) / cols))
    i = max(0, t - 1) % (cols * rows)
    c, r = i % cols, i // cols
    x = (x0 + x1) / 2 if cols == 1 else x0 + 100 + c * (x1 - x0 - 200) / (cols - 1)
    y = (y0 + y1) / 2 if rows == 1 else y0 + 100 + r * (y1 - y0 - 190) / (rows - 1)
    return x, y


def _ship_glyph(x: float, y: float, icon: Icon, number: int, caption: str) -> str:
    fill = state_color(icon.state)
    own = icon.side == "own"
    approx = icon.estimate is not None
    count = f"~{icon.estimate}" if approx else str(len(icon.ids))
    hull = f"M{x - 14:.0f},{y:.0f} L{x + 14:.0f},{y:.0f} L{x + 9:.0f},{y + 7:.0f} L{x - 9:.0f},{y + 7:.0f} Z"
    sail = f"M{x:.0f},{y - 16:.0f} L{x:.0f},{y - 1:.0f} L{x + 10:.0f},{y - 3:.0f} Z"
    cls = "ship own" if own else "ship approx" if approx else "ship"
    # a sighting not seen since is never drawn as current: faded, its hull dashed
    old = f' data-age="{icon.age}" opacity="{fade(icon.age)}"' if icon.age > 0 else ""
    cls += " stale" if icon.age > 0 else ""
    return (
        f'<g class="{cls}" data-state="{escape(icon.state)}" data-side="{icon.side}"{old}>'
        f"<title>{escape(caption)}</title>"
        f'<path d="{hull}" fill="{fill}"{DASHED if icon.age > 0 else ""}/>'
        f'<path d="{sail}" fill="{fill}" opacity="0.8"/>'
        f'<text x="{x:.0f}" y="{y + 20:.0f}" class="cnt" text-anchor="middle">{escape(count)}</text>'
        f'<text x="{x + 16:.0f}" y="{y - 10:.0f}" class="ref" text-anchor="start">{number}</text></g>'
    )


def _seen_now_by(k: PlayerKnowledge, icon: Icon) -> str:
    """The tooltip of an enemy or neutral seen this turn tells which of his ships saw it
    (an earlier one's caption already tells its source and age)."""
    if icon.age or icon.side not in ("enemy", "neutral") or not icon.ids:
        return ""
    ids = set(icon.ids)
    by = sorted({b for s in k.picture if s.key in ids and s.turn == k.turn for b in s.by}, key=ship_sort_key)
    return f" - named by {and_list(by)}, in contact; seen in turn {k.turn}" if by else ""


DASHED = ' stroke="#333333" stroke-width="1.2" stroke-dasharray="3 2"'


def _spot_anchor(spot: Spot, tacticals: int, anchors: dict[str, tuple[float, float]]) -> tuple[float, float]:
    if spot.place is Place.SEA:
        return _tactical_anchor(spot.tactical or 1, tacticals)
    return anchors.get(spot.key, ((SEA[0] + SEA[2]) / 2, (SEA[1] + SEA[3]) / 2))


def area_legend(k: PlayerKnowledge, pic: AreaPicture) -> list[tuple[int, Spot, Icon, str]]:
    """The numbered captions under a sea area map ("French frigates at sea")."""
    out: list[tuple[int, Spot, Icon, str]] = []
    for spot in pic.spots:
        for icon in spot.icons:
            out.append((len(out) + 1, spot, icon, icon_caption(k, icon, spot.place)))
    return out


def sea_area_svg(k: PlayerKnowledge, world_map: WorldMap, code: str) -> str:
    pic = area_picture(k, world_map, code)
    area = world_map.sea_areas.get(code)
    tacticals = area.tactical_areas if area else 1
    x0, y0, x1, y1 = SEA
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" class="seamap" role="img" '
        f'aria-label="Sea area map - {escape(pic.name)}">',
        f'<rect x="{x0}" y="{y0}" width="{x1 - x0}" height="{y1 - y0}" rx="18" class="sea"/>',
        _text((x0 + x1) / 2, (y0 + y1) / 2 + 22, pic.code, "code"),
        *_neighbour_labels(pic),
    ]
    if pic.wind:
        parts.append(_text(62, 30, pic.wind, "wind", "start"))
        parts.append(_wind_arrow(k, code))
    port_parts, anchors = _ports(pic)
    circles: list[str] = []
    glyphs: list[str] = []
    for spot_index, (spot, items) in enumerate(_by_spot(area_legend(k, pic))):
        x, y = _spot_anchor(spot, tacticals, anchors)
        spread = [(i - (len(items) - 1) / 2) * 40 for i in range(len(items))]
        if spot.place is Place.SEA:
            circles.append(
                f'<circle cx="{x:.0f}" cy="{y:.0f}" r="{24 + 14 * len(items):.0f}" class="ta"'
                f' data-spot="{spot_index}"/>'
            )
        for dx, (number, icon, caption) in zip(spread, items, strict=True):
            glyphs.append(_ship_glyph(x + dx, y, icon, number, caption + _seen_now_by(k, icon)))
    # tactical areas under the ports, so that no circle hides a port's name
    parts += [*circles, *port_parts, *glyphs, "</svg>"]
    return "".join(parts)


def _by_spot(legend: list[tuple[int, Spot, Icon, str]]) -> list[tuple[Spot, list[tuple[int, Icon, str]]]]:
    out: list[tuple[Spot, list[tuple[int, Icon, str]]]] = []
    for number, spot, icon, caption in legend:
        if not out or out[-1][0] is not spot:
            out.append((spot, []))
        out[-1][1].append((number, icon, caption))
    return out


def _wind_arrow(k: PlayerKnowledge, code: str) -> str:
    """An arrow pointing where the wind blows to (it blows from its direction)."""
    wind = next((w for w in k.winds if w.sea_area == code), None)
    if wind is None:
        return ""
    to = wind.direction.opposite
    dx, dy = {
        Direction.EAST: (1, 0),
        Direction.WEST: (-1, 0),
        Direction.NORTH: (0, -1),
        Direction.SOUTH: (0, 1),
    }[to]
    cx, cy = 34, 28
    tip = (cx + dx * 22, cy + dy * 22)
    tail = (cx - dx * 22, cy - dy * 22)
    left = (tip[0] - dx * 10 - dy * 7, tip[1] - dy * 10 + dx * 7)
    right = (tip[0] - dx * 10 + dy * 7, tip[1] - dy * 10 - dx * 7)
    return (
        f'<g class="windarrow" data-to="{to.value}"><title>{escape(wind_text(k, code) or "")}</title>'
        f'<line x1="{tail[0]}" y1="{tail[1]}" x2="{tip[0]}" y2="{tip[1]}"/>'
        f'<polygon points="{tip[0]},{tip[1]} {left[0]},{left[1]} {right[0]},{right[1]}"/></g>'
    )


SIGHTED = "#000000"  # no state's colour: the dot for a frigate's sighting (5.2)


def overview_svg(k: PlayerKnowledge, world_map: WorldMap, which: MapName) -> str:
    """The whole map of one of the two waters, drawn by the shared map
    renderer: sea areas where the player has ships shaded, with the number of
    ships, and the areas where their frigates sighted enemies marked."""
    counts: dict[str, int] = {}
    for r in k.ships:
        area = map_area(world_map, r.location) if r.active else None
        if area is not None and world_map.sea_areas[area].map is which:
            counts[area] = counts.get(area, 0) + 1
    colour = state_color(k.state or "")
    icons = [
        MapIcon(
            at=a,
            label=f"{n} ship{'s' if n != 1 else ''}",
            colour=colour,
            title=f"Your ships in {a}: {n}",
            short=str(n),
        )
        for a, n in sorted(counts.items())
    ]
    for area in sorted({s.sea_area for s in k.sightings}):
        if area in world_map.sea_areas and world_map.sea_areas[area].map is which:
            icons.append(
                MapIcon(at=area, label="sighted", colour=SIGHTED, title="Frigate sightings (5.2)", short="?")
            )
    icons += earlier_icons(k, world_map, which)
    title = f"{which.value.title()} waters"
    marks = [(colour, "your ships (their number)"), (SIGHTED, "enemies sighted by your frigates (5.2)")]
    if any(i.age for i in icons):
        marks.append((SIGHTED, "earlier sightings not seen since (paler with age)"))
    routes = known_routes(k, world_map, which, STATE_COLORS)
    boxes = known_boxes(k, world_map, which, STATE_COLORS)
    if routes:
        marks.append((routes[0].colour, "trade routes you know of (dashed; EiA new naval rules)"))
    if boxes:
        marks.append((boxes[0].colour, "blockade boxes: a ring round the port (EiA new naval rules)"))
    return render_map(
        world_map,
        which,
        highlight=frozenset(counts),
        icons=icons,
        title=title,
        marks=marks,
        routes=routes,
        boxes=boxes,
    )


def earlier_icons(k: PlayerKnowledge, world_map: WorldMap, which: MapName | None = None) -> list[MapIcon]:
    """One faded marker per sea area holding sightings not seen since, as old as
    its newest one; its tooltip tells each sighting's source and age."""
    by_area: dict[str, list[Sighted]] = {}
    for s in earlier(k):
        if s.sea_area in world_map.sea_areas and which in (None, world_map.sea_areas[s.sea_area].map):
            by_area.setdefault(s.sea_area, []).append(s)
    out = []
    for area, seen in sorted(by_area.items()):
        newest = max(s.turn for s in seen)
        lines = [f"{sighted_words(k, s)} - {source_text(s)}; {age_text(s, k)}" for s in seen]
        label = "start" if newest == 0 else f"turn {newest}"
        out.append(
            MapIcon(
                at=area,
                label=f"seen {label}",
                colour=SIGHTED,
                title="\n".join(lines),
                short=f"T{newest}",
                age=k.turn - newest,
            )
        )
    return out


def overview_maps(k: PlayerKnowledge, world_map: WorldMap) -> list[tuple[MapName, str]]:
    """An overview of each of the two waters where the player has ships."""
    shown = {world_map.sea_areas[a].map for a in areas_shown(k, world_map) if a in world_map.sea_areas}
    return [(m, overview_svg(k, world_map, m)) for m in MapName if m in shown]
