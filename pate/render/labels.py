"""Placing map labels so that none covers another (the overview
map was illegible where ports crowd, the English Channel).

Greedy and deterministic: each label, in the order given, takes the first
free spot among candidates around its anchor, nearest first (right, left,
below, above, then the diagonals, then further out); markers already drawn
(sea areas, ports) are avoided too where there is room.  A label pushed away
from its anchor is joined to it by a leader line.  Text width is estimated
from the number of characters, generously, so that the boxes hold the text
drawn in any common serif font.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

CHAR_WIDTH = 0.62  # of the font size: a little wider than Georgia's average letter
LINE_HEIGHT = 1.25  # of the font size
CELL = 64  # size of the grid cells the taken boxes are filed under
# Distances from the anchor tried, in pixels; the directions at each, in order.
DISTANCES = (2, 6, 12, 20, 30, 42, 56, 72, 90, 110, 135, 165, 200, 240, 290)
DIRECTIONS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))
LEADER_FROM = 12  # labels this far from their anchor or more get a leader line
GAP = 1.0  # between two labels
CLEAR_WITHIN = 30  # a label clear of markers is sought this far out, then one over a marker will do
# A port's name drawn farther from its port than this reads as the name of another place (the
# Channel's crowd once put "Marseille" over Brittany): beyond it the name is left to the port's
# tooltip and to the sea area's own map, which names every port.
NAME_REACH = 30
CROWDED_NAME_SCALE = 0.8  # of the font size: a crowded port's name, tried before none


@dataclass(frozen=True, slots=True)
class Box:
    x0: float
    y0: float
    x1: float
    y1: float

    def grown(self, by: float) -> Box:
        return Box(self.x0 - by, self.y0 - by, self.x1 + by, self.y1 + by)

    def overlaps(self, other: Box) -> bool:
        return self.x0 < other.x1 and other.x0 < self.x1 and self.y0 < other.y1 and other.y0 < self.y1

    def inside(self, bounds: Box) -> bool:
        return self.x0 >= bounds.x0 and self.y0 >= bounds.y0 and self.x1 <= bounds.x1 and self.y1 <= bounds.y1


def text_size(text: str, font_size: float) -> tuple[float, float]:
    return len(text) * font_size * CHAR_WIDTH, font_size * LINE_HEIGHT


def text_box(x: float, y: float, text: str, font_size: float, anchor: str = "start") -> Box:
    """The box of SVG text drawn at (x, y) (y the baseline)."""
    w, h = text_size(text, font_size)
    x0 = {"start": x, "middle": x - w / 2, "end": x - w}[anchor]
    top = y - font_size * 0.95
    return Box(x0, top, x0 + w, top + h)


@dataclass(frozen=True, slots=True)
class Placed:
    box: Box
    leader: bool  # drawn away from its anchor: join them with a line


class Layout:
    """The boxes taken so far on one map."""

    def __init__(self, bounds: Box, base: Layout | None = None) -> None:
        """``base``: a layout laid out before, read but never written (the
        map's own labels, shared by every report's copy)."""
        self.bounds = bounds
        self._labels: dict[tuple[int, int], list[Box]] = {}
        self._markers: dict[tuple[int, int], list[Box]] = {}
        self._base = base

    @staticmethod
    def _cells(box: Box) -> list[tuple[int, int]]:
        xs = range(int(box.x0 // CELL), int(box.x1 // CELL) + 1)
        ys = range(int(box.y0 // CELL), int(box.y1 // CELL) + 1)
        return [(cx, cy) for cx in xs for cy in ys]

    def _hits(self, grid: dict[tuple[int, int], list[Box]], box: Box) -> bool:
        x0, y0, x1, y1 = box.x0, box.y0, box.x1, box.y1
        for cell in self._cells(box):
            for b in grid.get(cell, ()):
                if x0 < b.x1 and b.x0 < x1 and y0 < b.y1 and b.y0 < y1:
                    return True
        if self._base is None:
            return False
        return self._base._hits(self._base._labels if grid is self._labels else self._base._markers, box)

    def hits(self, box: Box) -> bool:
        """Whether the box touches any label or marker taken so far."""
        return self._hits(self._labels, box) or self._hits(self._markers, box)

    def hits_label(self, box: Box) -> bool:
        """Whether the box touches any label taken so far (markers aside)."""
        return self._hits(self._labels, box)

    def boxes(self) -> tuple[tuple[Box, ...], tuple[Box, ...]]:
        """The labels and markers taken, each once, in a stable order."""

        def once(grid: dict[tuple[int, int], list[Box]]) -> tuple[Box, ...]:
            seen: dict[Box, None] = {}
            for cell in sorted(grid):
                seen.update(dict.fromkeys(grid[cell]))
            return tuple(seen)

        return once(self._labels), once(self._markers)

    def _file(self, grid: dict[tuple[int, int], list[Box]], box: Box) -> None:
        for cell in self._cells(box):
            grid.setdefault(cell, []).append(box)

    def mark(self, box: Box) -> None:
        """A marker: labels keep off it where they can."""
        self._file(self._markers, box)

    def take(self, box: Box) -> None:
        """A label fixed where it is (a sea area's code)."""
        self._file(self._labels, box)

    def place(
        self, anchor: Box, w: float, h: float, directions: tuple[tuple[int, int], ...] = DIRECTIONS
    ) -> Placed:
        """The first free box of size (w, h) around the anchor (a marker's
        box): clear of every label, and of markers if possible."""
        placed = self._search(anchor, w, h, directions, DISTANCES)
        if placed is None:  # nowhere near: below everything else, still clear of every label
            return self._taken(self._below(w, h), LEADER_FROM)
        return placed

    def place_near(
        self,
        anchor: Box,
        w: float,
        h: float,
        directions: tuple[tuple[int, int], ...],
        reach: float,
        accept: Callable[[Box, bool], bool] | None = None,
    ) -> Placed | None:
        """As :meth:`place`, but only within ``reach`` of the anchor and
        where ``accept`` takes the box (told whether a leader line will join
        it to its anchor); None (and nothing taken) when there is no such
        room."""
        return self._search(anchor, w, h, directions, tuple(d for d in DISTANCES if d <= reach), accept)

    def _search(
        self,
        anchor: Box,
        w: float,
        h: float,
        directions: tuple[tuple[int, int], ...],
        distances: tuple[int, ...],
        accept: Callable[[Box, bool], bool] | None = None,
    ) -> Placed | None:
        fallback: tuple[Box, float] | None = None
        for d in distances:
            if fallback is not None and d > CLEAR_WITHIN:
                return self._taken(*fallback)  # near and over a marker, rather than far away
            for dx, dy in directions:
                box = _around(anchor, w, h, d, dx, dy)
                room = box.grown(GAP)  # never touching: the drawn text is rounded to tenths
                if not box.inside(self.bounds) or self._hits(self._labels, room):
                    continue
                if accept is not None and not accept(box, d >= LEADER_FROM):
                    continue
                if not self._hits(self._markers, room):
                    return self._taken(box, d)
                if fallback is None:
                    fallback = (box, d)
        return None if fallback is None else self._taken(*fallback)

    def _taken(self, box: Box, distance: float) -> Placed:
        self._file(self._labels, box)
        return Placed(box, distance >= LEADER_FROM)

    def _below(self, w: float, h: float) -> Box:
        taken = [b for boxes in self._labels.values() for b in boxes]
        if self._base is not None:
            taken += self._base.boxes()[0]
        y = max([b.y1 for b in taken] + [self.bounds.y0])
        return Box(self.bounds.x0, y + 1, self.bounds.x0 + w, y + 1 + h)


def _around(a: Box, w: float, h: float, d: float, dx: int, dy: int) -> Box:
    """A box of size (w, h) ``d`` away from the anchor box in direction
    (dx, dy), centred on it across that direction."""
    cx, cy = (a.x0 + a.x1) / 2, (a.y0 + a.y1) / 2
    left = a.x1 + d if dx > 0 else a.x0 - d - w if dx < 0 else cx - w / 2
    top = a.y1 + d if dy > 0 else a.y0 - d - h if dy < 0 else cy - h / 2
    return Box(round(left, 1), round(top, 1), round(left + w, 1), round(top + h, 1))


EAST_FIRST = DIRECTIONS
SOUTH_FIRST = ((0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, 1), (1, -1), (-1, -1))


def leader(anchor: Box, box: Box) -> tuple[float, float, float, float]:
    """A line from the anchor's centre to the nearest point of the box."""
    cx, cy = (anchor.x0 + anchor.x1) / 2, (anchor.y0 + anchor.y1) / 2
    ex, ey = min(max(cx, box.x0), box.x1), min(max(cy, box.y0), box.y1)
    return (round(cx, 1), round(cy, 1), round(ex, 1), round(ey, 1))
