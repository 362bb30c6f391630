"""Sea areas as polygons on real coasts: the map's frame is cut into a grid,
each area's seeds (its label, its ports, and the extra seeds of
data/geography/theatre.toml) claim the cells nearest to them by water,
and each area's cells become one polygon, simplified together with its
neighbours' (so that shared borders stay shared) and trimmed to the sea
and a narrow reach over the coast, where the ports are.

Growing through water (land costs many times more) keeps a gulf with the
area whose seeds lie in it, rather than the area nearest as the crow flies.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import shapely
from shapely.geometry import Point, box
from shapely.geometry.base import BaseGeometry

XY = tuple[float, float]
R2 = math.sqrt(2)
STEPS = (
    (1, 0, 1.0),
    (-1, 0, 1.0),
    (0, 1, 1.0),
    (0, -1, 1.0),
    (1, 1, R2),
    (1, -1, R2),
    (-1, 1, R2),
    (-1, -1, R2),
)


@dataclass(frozen=True, slots=True)
class Grid:
    cell: float
    nx: int
    ny: int
    land: np.ndarray  # bool [ny, nx]: the cell's centre is on land

    def index(self, point: XY) -> tuple[int, int]:
        i = min(max(int(point[0] // self.cell), 0), self.nx - 1)
        j = min(max(int(point[1] // self.cell), 0), self.ny - 1)
        return (i, j)


def make_grid(land: BaseGeometry, width: float, height: float, cell: float) -> Grid:
    nx, ny = math.ceil(width / cell), math.ceil(height / cell)
    xs = (np.arange(nx) + 0.5) * cell
    ys = (np.arange(ny) + 0.5) * cell
    gx, gy = np.meshgrid(xs, ys)
    shapely.prepare(land)
    return Grid(cell, nx, ny, shapely.contains_xy(land, gx, gy))


def grow(
    grid: Grid,
    seeds: Sequence[tuple[str, XY]],
    neighbours: Mapping[str, frozenset[str]],
    land_cost: float,
    max_cost: float,
) -> np.ndarray:
    """The owner (index into the seeds' codes, sorted) of every cell: the
    seed it can be reached from most cheaply; the first seed of a cell wins.
    A cell is never taken next to a cell of an area that is not a neighbour
    (rule 1.6's map): such areas stay a cell apart, unowned (-1).  Cells
    dearer than ``max_cost`` (waters behind a wide land, the White Sea, the
    Red Sea) stay unowned too."""
    codes = sorted({code for code, _ in seeds})
    allowed = [{codes.index(c)} | {codes.index(n) for n in neighbours[c] if n in codes} for c in codes]
    owner = np.full((grid.ny, grid.nx), -1, dtype=np.int32)
    cost = np.full((grid.ny, grid.nx), np.inf)
    heap: list[tuple[float, int, int, int]] = []
    for code, point in seeds:
        i, j = grid.index(point)
        if owner[j, i] < 0:
            owner[j, i], cost[j, i] = codes.index(code), 0.0
            heapq.heappush(heap, (0.0, i, j, codes.index(code)))
    while heap:
        c, i, j, who = heapq.heappop(heap)
        if c > cost[j, i] or owner[j, i] != who:
            continue
        for dx, dy, step in STEPS:
            ni, nj = i + dx, j + dy
            if not (0 <= ni < grid.nx and 0 <= nj < grid.ny):
                continue
            nc = c + step * (land_cost if grid.land[nj, ni] else 1.0)
            if nc < min(cost[nj, ni], max_cost) and _compatible(owner, ni, nj, allowed[who]):
                cost[nj, ni], owner[nj, ni] = nc, who
                heapq.heappush(heap, (nc, ni, nj, who))
    return owner


def _compatible(owner: np.ndarray, i: int, j: int, allowed: set[int]) -> bool:
    ny, nx = owner.shape
    block = owner[max(j - 1, 0) : min(j + 2, ny), max(i - 1, 0) : min(i + 2, nx)]
    return all(int(o) < 0 or int(o) in allowed for o in block.flat)


def _cells_polygon(grid: Grid, owner: np.ndarray, who: int) -> BaseGeometry:
    """The union of one owner's cells, built from horizontal runs."""
    rects = []
    c = grid.cell
    for j in range(grid.ny):
        row = owner[j] == who
        i = 0
        while i < grid.nx:
            if row[i]:
                start = i
                while i < grid.nx and row[i]:
                    i += 1
                rects.append(box(start * c, j * c, i * c, (j + 1) * c))
            else:
                i += 1
    return shapely.union_all(rects)


def area_polygons(
    grid: Grid,
    owner: np.ndarray,
    codes: Sequence[str],
    clip: BaseGeometry,
    tolerance: float,
) -> dict[str, BaseGeometry]:
    """Each area's polygon: its cells, simplified as one coverage, trimmed
    to ``clip``, coordinates on the whole SVG unit."""
    # the unowned cells between areas that are not neighbours take part in
    # the simplification (so that no border crosses them) and are dropped
    coverage = [_cells_polygon(grid, owner, who) for who in range(-1, len(codes))]
    coverage = [g if not g.is_empty else box(-10, -10, -9, -9) for g in coverage]
    simplified = shapely.coverage_simplify(np.array(coverage, dtype=object), tolerance)[1:]
    out = {}
    for code, geom in zip(codes, simplified, strict=True):
        trimmed = shapely.set_precision(geom.intersection(clip), 1.0)
        out[code] = trimmed
    return out


def sea_clip(
    land: BaseGeometry, width: float, height: float, reach: float, ports: Sequence[XY]
) -> BaseGeometry:
    """The sea of the frame, widened by ``reach`` over the coast, and a small
    disc round every port (ports up a river stand in their area's waters).
    The land is drawn over the areas, so their edge need not follow every
    bay: simplified by half the reach, it stays under the land and costs a
    fraction of the bytes."""
    frame = box(0, 0, width, height)
    sea = frame.difference(land).buffer(reach).simplify(reach / 2)
    discs = [Point(p).buffer(reach + 1.5) for p in ports]
    return shapely.union_all([sea, *discs]).intersection(frame)


def touching_pairs(polygons: Mapping[str, BaseGeometry], within: float = 0.6) -> set[tuple[str, str]]:
    """The pairs of areas whose polygons share a border (not just a point)."""
    codes = sorted(polygons)
    pairs = set()
    for n, a in enumerate(codes):
        grown = polygons[a].buffer(within)
        for b in codes[n + 1 :]:
            if grown.intersects(polygons[b]) and grown.intersection(polygons[b]).area > within * 2:
                pairs.add((a, b))
    return pairs
