"""Builds ``data/geography/map.json``: the real coastlines of the two PATE maps
(Natural Earth 1:50m land from the npm package ``world-atlas``) and one
polygon per sea area on them, checked against the map data.

Regenerate (only when the maps, theatre.toml or this builder change; the
asset is committed, nothing is downloaded at run time)::

    npm install --prefix /tmp/geo world-atlas@2.0.2
    pip install '.[geo]'          # shapely, into any virtual environment
    python -m pate.databuild.geography --atlas /tmp/geo/node_modules/world-atlas/land-50m.json

The asset records a SHA-256 of its inputs in this repository
(:func:`pate.databuild.geography_inputs.inputs_sha256`); a test recomputes it, so an edit that is not
regenerated fails the tests and names this command.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import tomllib
from pathlib import Path
from typing import Any

import shapely
from shapely.geometry import LineString
from shapely.geometry.base import BaseGeometry

from pate.core.world.geography import WorldMap
from pate.databuild.coastlines import land_polygons, projected_land
from pate.databuild.geography_inputs import ATLAS_SHA256, inputs_sha256
from pate.databuild.sea_areas import XY, area_polygons, grow, make_grid, sea_clip, touching_pairs
from pate.datafiles import data_dir, load_world_map
from pate.render.geography import Mercator


def path_data(geom: BaseGeometry) -> str:
    """Closed rings as ``Mx,y x,y ...Z`` (whole SVG units)."""
    parts = []
    for poly in getattr(geom, "geoms", [geom]):
        if poly.geom_type != "Polygon" or poly.is_empty:
            continue
        for ring in (poly.exterior, *poly.interiors):
            pts = list(ring.coords)[:-1]
            parts.append("M" + " ".join(f"{x:g},{y:g}" for x, y in pts) + "Z")
    return "".join(parts)


def _rounded(p: XY) -> list[float]:
    return [round(p[0], 1), round(p[1], 1)]


def _seeds(world: WorldMap, codes: list[str], extra: dict[str, Any], proj: Mercator) -> list[tuple[str, XY]]:
    """Ports first (so that a port's own cell is its area's), then labels,
    then the extra seeds."""
    seeds = [
        (p.sea_area, proj(*p.position))
        for p in sorted(world.ports.values(), key=lambda p: p.name)
        if p.sea_area in codes
    ]
    seeds += [(c, proj(*world.sea_areas[c].position)) for c in codes]
    seeds += [(c, proj(lon, lat)) for c in codes for lon, lat in extra.get(c, [])]
    return seeds


def build_map(name: str, world: WorldMap, theatre: dict[str, Any], land_ll: list[Any]) -> dict[str, Any]:
    b, frame = theatre["build"], theatre["maps"][name]
    proj = Mercator(frame["lon"][0], frame["lon"][1], frame["lat"][0], frame["lat"][1], b["width"])
    codes = sorted(c for c, a in world.sea_areas.items() if a.map.value == name)
    ports = sorted((p for p in world.ports.values() if p.sea_area in codes), key=lambda p: p.name)
    land = projected_land(land_ll, proj, b["min_island"])
    grid = make_grid(land, proj.width, proj.height, b["cell"])
    neighbours = {c: world.sea_areas[c].adjacent for c in codes}
    owner = grow(
        grid, _seeds(world, codes, theatre["seeds"], proj), neighbours, b["land_cost"], b["max_cost"]
    )
    clip = sea_clip(land, proj.width, proj.height, b["coast_reach"], [proj(*p.position) for p in ports])
    polygons = area_polygons(grid, owner, codes, clip, b["simplify"])
    coast = shapely.set_precision(land.simplify(b["coast_simplify"]), 1.0)
    passages = [p for p in theatre.get("passages", []) if p["between"][0] in codes]
    _check(name, world, polygons, passages)
    return {
        "projection": {"kind": "mercator", "lon": frame["lon"], "lat": frame["lat"], "width": b["width"]},
        "land": path_data(coast),
        "areas": {c: path_data(polygons[c]) for c in codes},
        "labels": {c: _rounded(proj(*world.sea_areas[c].position)) for c in codes},
        "ports": {p.name: _rounded(proj(*p.position)) for p in ports},
        "passages": [
            {
                "name": p["name"],
                "between": p["between"],
                "path": "M"
                + " ".join(f"{x:.0f},{y:.0f}" for x, y in LineString([proj(*q) for q in p["line"]]).coords),
            }
            for p in passages
        ],
    }


def _check(name: str, world: WorldMap, polygons: dict[str, BaseGeometry], passages: list[Any]) -> None:
    """Print where the drawing and the map data disagree."""
    touching = touching_pairs(polygons)
    linked = {tuple(sorted(p["between"])) for p in passages}
    linked |= {
        tuple(sorted((p.sea_area, p.strait_sea_area))) for p in world.ports.values() if p.strait_sea_area
    }
    for code in sorted(polygons):
        for other in sorted(world.sea_areas[code].adjacent):
            pair = (code, other)
            if code < other and pair not in touching and pair not in linked:
                print(f"[{name}] {code} and {other} are neighbours but do not touch", file=sys.stderr)
    for a, b in sorted(touching):
        if b not in world.sea_areas[a].adjacent:
            print(f"[{name}] {a} and {b} touch but are not neighbours", file=sys.stderr)


def build(atlas: Path) -> dict[str, Any]:
    digest = hashlib.sha256(atlas.read_bytes()).hexdigest()
    if digest != ATLAS_SHA256:
        raise SystemExit(f"{atlas}: not world-atlas 2.0.2 land-50m.json (sha256 {digest})")
    theatre = tomllib.loads((data_dir() / "geography" / "theatre.toml").read_text(encoding="utf-8"))
    world = load_world_map()
    land = land_polygons(atlas)
    return {
        "source": "Natural Earth 1:50m land (public domain), via the npm package world-atlas 2.0.2",
        "made_by": "python -m pate.databuild.geography",
        "inputs_sha256": inputs_sha256(),
        "maps": {name: build_map(name, world, theatre, land) for name in sorted(theatre["maps"])},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--atlas", type=Path, required=True, help="world-atlas's land-50m.json")
    parser.add_argument("--out", type=Path, default=data_dir() / "geography" / "map.json")
    args = parser.parse_args(argv)
    asset = build(args.atlas)
    args.out.write_text(json.dumps(asset, separators=(",", ":"), sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {args.out} ({args.out.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
