"""Where a map's marks may go: each sea area's open water, as a grid of small
square cells (a cell belongs to an area when its centre lies inside the
area's polygon and off the land).

A marker or a name drawn for a sea area must sit on that area's water: the
player reads "my ships are here" from where the dot is, so a dot on land or
in the next area is a false report.  The grid is made once for a map, by
scanlines (each row's crossings of the polygons' edges), so that asking
whether a box lies on an area's water costs a few set look-ups.

Pure: the drawn geography in, immutable values out.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache

from pate.render.geography import MapGeography, Point, Ring, path_rings

CELL = 4.0  # SVG units of the asset: a cell is about a third of a marker's height
Cell = tuple[int, int]


@dataclass(frozen=True, slots=True, eq=False)  # one per map (kept): compared and hashed as itself
class Water:
    """Each sea area's water cells on one map, and every water cell's area."""

    cell: float
    areas: Mapping[str, frozenset[Cell]]
    owner: Mapping[Cell, str]
    land: frozenset[Cell]
    deep: Mapping[
        str, frozenset[Cell]
    ]  # an area's cells ringed by its own water: a dot there clears the coast

    def cell_of(self, point: Point) -> Cell:
        return (math.floor(point[0] / self.cell), math.floor(point[1] / self.cell))

    def centre(self, cell: Cell) -> Point:
        return ((cell[0] + 0.5) * self.cell, (cell[1] + 0.5) * self.cell)

    def area_at(self, point: Point) -> str | None:
        """The sea area whose water holds the point (None: land or open sea)."""
        return self.owner.get(self.cell_of(point))

    def on_land(self, point: Point) -> bool:
        return self.cell_of(point) in self.land

    def share(self, code: str, x0: float, y0: float, x1: float, y1: float) -> float:
        """The share of the cells the box (asset units) touches that are the area's water."""
        cells = self.areas[code]
        c = self.cell
        touched = [
            (cx, cy)
            for cx in range(math.floor(x0 / c), math.floor((x1 - 1e-9) / c) + 1)
            for cy in range(math.floor(y0 / c), math.floor((y1 - 1e-9) / c) + 1)
        ]
        return sum(1 for t in touched if t in cells) / len(touched) if touched else 0.0

    def covers(self, code: str | None, x0: float, y0: float, x1: float, y1: float) -> bool:
        """Whether every cell the box (asset units) touches is water of the
        area ``code``, or of any area when ``code`` is None."""
        cells = self.areas[code] if code is not None else self.owner
        c = self.cell
        for cx in range(math.floor(x0 / c), math.floor((x1 - 1e-9) / c) + 1):
            for cy in range(math.floor(y0 / c), math.floor((y1 - 1e-9) / c) + 1):
                if (cx, cy) not in cells:
                    return False
        return True


def _row_spans(rings: Iterable[Ring], cell: float, rows: int) -> list[list[float]]:
    """For each row of cells, the x where its centre line crosses the rings'
    edges, sorted: between the 1st and 2nd, 3rd and 4th... is inside
    (even-odd, as the SVG fill rule)."""
    crossings: list[list[float]] = [[] for _ in range(rows)]
    for ring in rings:
        n = len(ring)
        for i in range(n):
            (x1, y1), (x2, y2) = ring[i], ring[(i + 1) % n]
            if y1 == y2:
                continue
            lo, hi = min(y1, y2), max(y1, y2)
            # rows whose centre line y = (r + 0.5) * cell satisfies lo <= y < hi
            first = max(0, math.ceil(lo / cell - 0.5))
            for r in range(first, min(rows, math.ceil(hi / cell - 0.5))):
                y = (r + 0.5) * cell
                crossings[r].append(x1 + (y - y1) * (x2 - x1) / (y2 - y1))
    for xs in crossings:
        xs.sort()
    return crossings


def _cells(spans: list[list[float]], cell: float) -> set[Cell]:
    out: set[Cell] = set()
    for r, xs in enumerate(spans):
        for a, b in zip(xs[::2], xs[1::2], strict=False):
            # cells whose centre (c + 0.5) * cell lies in [a, b)
            for c in range(math.ceil(a / cell - 0.5), math.ceil(b / cell - 0.5)):
                out.add((c, r))
    return out


def water_of(geo: MapGeography, cell: float = CELL) -> Water:
    """The water grid of one map (kept: a map's geography never changes)."""
    return _water(geo.land, tuple(sorted(geo.areas.items())), geo.height, cell)


@lru_cache(maxsize=4)
def _water(land_path: str, areas_paths: tuple[tuple[str, str], ...], height: float, cell: float) -> Water:
    rows = math.ceil(height / cell)
    land = _cells(_row_spans(path_rings(land_path), cell, rows), cell)
    areas: dict[str, frozenset[Cell]] = {}
    owner: dict[Cell, str] = {}
    for code, path in areas_paths:
        cells = frozenset(_cells(_row_spans(path_rings(path), cell, rows), cell) - land)
        areas[code] = cells
        owner.update(dict.fromkeys(cells, code))
    deep = {code: frozenset(c for c in cells if _ringed(c, cells)) for code, cells in areas.items()}
    return Water(cell, areas, owner, frozenset(land), deep)


def _ringed(c: Cell, cells: frozenset[Cell]) -> bool:
    x, y = c
    return all((x + dx, y + dy) in cells for dx in (-1, 0, 1) for dy in (-1, 0, 1))
