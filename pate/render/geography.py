"""The drawn geography of the two PATE maps (rule 1.1): real coastlines and
one polygon per sea area, read from the generated asset
``data/geography/map.json`` (made by :mod:`pate.databuild.geography`;
schema in docs/formats/map.md, "Geography").

Pure: a parsed JSON value in, immutable values out.  Coordinates are SVG
units of a Mercator projection whose frame the asset records.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from pate.core.world.fields import DataError
from pate.datafiles import data_dir

Point = tuple[float, float]
Ring = tuple[Point, ...]


@dataclass(frozen=True, slots=True)
class Mercator:
    """Longitude/latitude to SVG units: x grows east, y grows south, the
    frame's west edge at x = 0 and its north edge at y = 0."""

    lon0: float
    lon1: float
    lat0: float
    lat1: float
    width: float

    @property
    def scale(self) -> float:
        return self.width / math.radians(self.lon1 - self.lon0)

    @staticmethod
    def _y(lat: float) -> float:
        return math.log(math.tan(math.pi / 4 + math.radians(lat) / 2))

    @property
    def height(self) -> float:
        return round((self._y(self.lat1) - self._y(self.lat0)) * self.scale, 1)

    def __call__(self, lon: float, lat: float) -> Point:
        x = math.radians(lon - self.lon0) * self.scale
        y = (self._y(self.lat1) - self._y(lat)) * self.scale
        return (x, y)


@dataclass(frozen=True, slots=True)
class MapGeography:
    """One map: its frame, land as SVG path data, each sea area's polygon
    (path data and its rings, for tests and hit checks), each port's point,
    and the passages drawn between areas the coastline data separates."""

    name: str
    projection: Mercator
    land: str
    areas: Mapping[str, str]
    ports: Mapping[str, Point]
    labels: Mapping[str, Point]
    passages: tuple[tuple[str, str, str], ...]  # (area, area, path data)

    @property
    def width(self) -> float:
        return self.projection.width

    @property
    def height(self) -> float:
        return self.projection.height

    def rings(self, code: str) -> tuple[Ring, ...]:
        return path_rings(self.areas[code])


@dataclass(frozen=True, slots=True)
class Geography:
    maps: Mapping[str, MapGeography]
    inputs_sha256: str


_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


def path_rings(path: str) -> tuple[Ring, ...]:
    """The closed rings of path data written as ``Mx,y x,y ...Z`` (the only
    form the asset uses: absolute moves and lines)."""
    rings = []
    for part in path.split("M")[1:]:
        nums = [float(n) for n in _NUMBER.findall(part)]
        rings.append(tuple(zip(nums[::2], nums[1::2], strict=True)))
    return tuple(rings)


def contains(rings: tuple[Ring, ...], point: Point) -> bool:
    """Even-odd point in polygon over every ring (holes count out)."""
    x, y = point
    inside = False
    for ring in rings:
        n = len(ring)
        for i in range(n):
            (x1, y1), (x2, y2) = ring[i], ring[(i + 1) % n]
            if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
                inside = not inside
    return inside


def _problem(where: str, what: str) -> DataError:
    return DataError([f"[geography] {where}: {what}"])


def _point(value: Any, where: str) -> Point:
    if not (isinstance(value, list) and len(value) == 2 and all(isinstance(v, int | float) for v in value)):
        raise _problem(where, "expected [x, y]")
    return (float(value[0]), float(value[1]))


def _parse_map(name: str, raw: Mapping[str, Any]) -> MapGeography:
    try:
        frame = raw["projection"]
        proj = Mercator(frame["lon"][0], frame["lon"][1], frame["lat"][0], frame["lat"][1], frame["width"])
        areas = {str(k): str(v) for k, v in raw["areas"].items()}
        ports = {str(k): _point(v, f"maps.{name}.ports.{k}") for k, v in raw["ports"].items()}
        labels = {str(k): _point(v, f"maps.{name}.labels.{k}") for k, v in raw["labels"].items()}
        passages = tuple(
            (str(p["between"][0]), str(p["between"][1]), str(p["path"])) for p in raw["passages"]
        )
        return MapGeography(name, proj, str(raw["land"]), areas, ports, labels, passages)
    except (KeyError, TypeError, IndexError) as exc:
        raise _problem(f"maps.{name}", f"malformed ({exc!r})") from exc


def parse_geography(raw: Mapping[str, Any]) -> Geography:
    """The asset as read from JSON, checked for its shape."""
    maps = raw.get("maps")
    if not isinstance(maps, dict) or not maps:
        raise _problem("maps", "missing")
    return Geography(
        {name: _parse_map(name, m) for name, m in sorted(maps.items())}, str(raw.get("inputs_sha256", ""))
    )


@cache
def load_geography() -> Geography:
    """The drawn coastlines and sea-area polygons (data/geography/map.json)."""
    path = data_dir() / "geography" / "map.json"
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise DataError([f"{path}: {exc}"]) from exc
    return parse_geography(raw)
