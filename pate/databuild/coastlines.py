"""Natural Earth land, read from the npm package ``world-atlas`` (TopoJSON),
cropped to one PATE map's frame and projected to its SVG units.

Used only when the geography asset is regenerated
(:mod:`pate.databuild.geography`); needs ``shapely`` (the ``geo`` extra).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import shapely
from shapely.geometry import Polygon, box
from shapely.geometry.base import BaseGeometry

from pate.render.geography import Mercator

Arc = list[tuple[float, float]]


def _decode_arcs(topology: dict[str, Any]) -> list[Arc]:
    """TopoJSON arcs are delta-encoded integers, scaled then translated."""
    (sx, sy), (tx, ty) = topology["transform"]["scale"], topology["transform"]["translate"]
    arcs = []
    for raw in topology["arcs"]:
        x = y = 0
        arc = []
        for dx, dy in raw:
            x, y = x + dx, y + dy
            arc.append((x * sx + tx, y * sy + ty))
        arcs.append(arc)
    return arcs


def _ring(arcs: list[Arc], indices: Sequence[int]) -> Arc:
    """One ring from arc indices; ``~i`` is arc i reversed, and consecutive
    arcs share their joining point."""
    points: Arc = []
    for i in indices:
        arc = arcs[i] if i >= 0 else arcs[~i][::-1]
        points.extend(arc if not points else arc[1:])
    return _unwrapped(points)


def _unwrapped(points: Arc) -> Arc:
    """Rings that cross the antimeridian (Eurasia's, at Chukotka) jump from
    +180 to -180 degrees, which on a plane draws a band round the world:
    carry on past 180 instead."""
    out: Arc = []
    shift = 0.0
    for n, (lon, lat) in enumerate(points):
        if n and abs(lon + shift - out[-1][0]) > 180:
            shift += 360.0 if out[-1][0] > lon + shift else -360.0
        out.append((lon + shift, lat))
    low = min(lon for lon, _ in out)
    back = 360.0 if low < -180 else -360.0 if low > 180 else 0.0
    return [(lon + back, lat) for lon, lat in out]


def land_polygons(path: Path) -> list[Polygon]:
    """Every land polygon of ``land-50m.json``, in longitude/latitude."""
    topology = json.loads(path.read_text(encoding="utf-8"))
    arcs = _decode_arcs(topology)
    out = []
    for geometry in topology["objects"]["land"]["geometries"]:
        polygons = geometry["arcs"] if geometry["type"] == "MultiPolygon" else [geometry["arcs"]]
        for rings in polygons:
            shell, *holes = (_ring(arcs, r) for r in rings)
            out.append(Polygon(shell, holes))
    return out


def projected_land(polygons: list[Polygon], proj: Mercator, min_area: float) -> BaseGeometry:
    """The land inside the frame (a little beyond it, so that the coast runs
    off the edge), in SVG units, islands smaller than ``min_area`` dropped."""
    frame = box(proj.lon0 - 1, proj.lat0 - 1, proj.lon1 + 1, proj.lat1 + 1)
    inside = [shapely.make_valid(p).intersection(frame) for p in polygons if p.intersects(frame)]
    parts: list[Polygon] = []
    for geom in inside:
        projected = shapely.transform(geom, lambda xy: _project_array(xy, proj))
        parts.extend(g for g in getattr(projected, "geoms", [projected]) if isinstance(g, Polygon))
    return shapely.union_all([p for p in parts if p.area >= min_area])


def _project_array(xy: Any, proj: Mercator) -> Any:
    out = xy.copy()
    for i, (lon, lat) in enumerate(xy):
        out[i] = proj(float(lon), float(lat))
    return out
