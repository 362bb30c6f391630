"""Where a drawn map's markers are, checked against the map data: each
marker of a sea area has its dot inside that area's polygon and off the
land; each marker of a port has its dot on the water of that port's sea
area (or strait area) and is joined to its mark by a line when not
beside it; no two markers
lie on one another.  The drawing is read back from its SVG, as a browser
would draw it."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from dataclasses import dataclass

from pate.core.world.geography import MapName
from pate.datafiles import load_world_map
from pate.render.geography import contains, load_geography, path_rings
from pate.render.svg_map import TOP

SVG = "{http://www.w3.org/2000/svg}"
BESIDE = 9.0  # a port's marker this near its port needs no line to name it


@dataclass(frozen=True, slots=True)
class Marker:
    at: str
    dot: tuple[float, float]  # in the geography asset's units
    box: tuple[float, float, float, float]  # dot and words, page units
    line_from: tuple[float, float] | None  # a leader's start, asset units


def markers(svg: str) -> list[Marker]:
    out = []
    for g in ET.fromstring(svg).iter(f"{SVG}g"):
        if g.get("class") != "icon":
            continue
        c, t = g.find(f"{SVG}circle"), g.find(f"{SVG}text")
        line = g.find(f"{SVG}line")
        assert c is not None and t is not None
        x, y = float(c.get("cx", "nan")), float(c.get("cy", "nan"))
        left = float(t.get("x", "0"))
        right = left + len("".join(t.itertext())) * 11 * 0.62  # the words, on either side of the dot
        start = None if line is None else (float(line.get("x1", "0")), float(line.get("y1", "0")) - TOP)
        out.append(
            Marker(
                g.get("data-at", ""), (x, y - TOP), (min(x - 5, left), y - 6, max(x + 5, right), y + 9), start
            )
        )
    return out


def misplaced(svg: str, which: MapName) -> list[str]:
    """What is wrong with the map's markers, in words (none: all is well).
    The map is drawn at the asset's own scale (1200 units wide)."""
    geo = load_geography().maps[which.value]
    waters = {
        p.name: (p.sea_area, p.strait_sea_area) if p.strait_sea_area else (p.sea_area,)
        for p in load_world_map().ports.values()
    }
    land = path_rings(geo.land)
    found = markers(svg)
    out = []
    for m in found:
        if contains(land, m.dot):
            out.append(f"{m.at}: marker on land at {m.dot}")
        if m.at in geo.areas:
            if not contains(geo.rings(m.at), m.dot):
                out.append(f"{m.at}: marker outside its sea area at {m.dot}")
        elif m.at in geo.ports:
            away = math.dist(geo.ports[m.at], m.dot)
            joined = m.line_from is not None and math.dist(m.line_from, geo.ports[m.at]) < 0.2
            if away > BESIDE and not joined:
                out.append(f"{m.at}: marker {away:.0f} units from its port, not joined to it")
            if not any(contains(geo.rings(a), m.dot) for a in waters.get(m.at, ())):
                out.append(f"{m.at}: marker off its port's waters at {m.dot}")
        else:
            out.append(f"{m.at}: a marker of no place on this map")
    for i, a in enumerate(found):
        for b in found[i + 1 :]:
            if a.box[0] < b.box[2] and b.box[0] < a.box[2] and a.box[1] < b.box[3] and b.box[1] < a.box[3]:
                out.append(f"markers of {a.at} and {b.at} on one another")
    return out
