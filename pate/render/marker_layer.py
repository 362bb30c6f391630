"""A report's markers on a map: each placed by :mod:`pate.render.markers`
(its dot on its place's water), drawn with its words beside the dot, in
fewer words where the map is crowded, a port's joined to its port by a line."""

from __future__ import annotations

import math
import re
from dataclasses import replace
from html import escape

from pate.render.labels import EAST_FIRST, Box, Layout, text_size
from pate.render.markers import MarkerPlacer, Wanted
from pate.render.place_names import StaticLabels, centre, leader_line
from pate.render.style import Icon, fade

ICON_SIZE = 11
ICON_HEIGHT = 16  # a line of marker text (11 px) and the gap below it
ICON_LETTER = 7.0  # a letter of a marker's words, a little wider than text_size's


def marker_layer(icons: list[Icon], static: StaticLabels) -> tuple[list[str], Layout]:
    """Each marker's dot on its place's water (:mod:`pate.render.markers`),
    and the markers' boxes."""
    placer = MarkerPlacer(static.sea, static.layout, static.names, static.kept, static.codes)
    shown = [i for i in icons if i.at in static.anchors]
    wanted = [
        Wanted(
            static.waters[i.at],
            centre(static.anchors[i.at]),
            _marker_size(i.label),
            port=static.waters[i.at] != (i.at,),
            short=_marker_size(_short(i)) if _short(i) != i.label else None,
        )
        for i in shown
    ]
    out = []
    for icon, w, spot in zip(shown, wanted, placer.place_all(wanted), strict=True):
        if spot is None:  # no water at all: beside the place, clear of every label
            anchor = static.anchors[icon.at]
            placed = placer.layout.place(anchor, *w.size, EAST_FIRST)
            placer.markers.take(placed.box)
            box, line = placed.box, leader_line(anchor, placed.box) if placed.leader else ""
            dot = (box.x0 + 5, box.y0 + 6)
        else:
            box, dot = spot.box, spot.dot
            line = _port_line(spot.leader_from, spot.dot) if spot.leader_from else ""
        shown_as = (
            replace(icon, label=_short(icon), title=icon.title or icon.label) if spot and spot.short else icon
        )
        out.append(_icon(shown_as, box, dot, line))
    return out, placer.markers


def _marker_size(words: str) -> tuple[float, float]:
    return (_widened(text_size(words, ICON_SIZE)[0] + 14), ICON_HEIGHT - 1.0)


_COUNT = re.compile(r"(\d+) (?:ships?|seen)")


def _short(icon: Icon) -> str:
    """A marker's words where the map is crowded: the number it tells."""
    if icon.short:
        return icon.short
    count = _COUNT.search(icon.label)
    return count.group(1) if count else "1" if icon.ships else icon.label


def unless_covered(drawn: tuple[Box, str] | None, markers: Layout) -> str:
    """A place's name, unless a marker had to be drawn over it (its tooltip
    still names the place)."""
    if drawn is None or markers.hits(drawn[0].grown(1.0)):
        return ""
    return drawn[1]


def _widened(w: float) -> float:
    """A marker's width rounded up to a whole letter, so that markers of one
    length share the spots kept for them."""
    return math.ceil(w / ICON_LETTER) * ICON_LETTER


def _port_line(port: tuple[float, float], dot: tuple[float, float]) -> str:
    """From a port's mark to its marker's dot: the marker is that port's."""
    return (
        f'<line class="leader" x1="{port[0]:.1f}" y1="{port[1]:.1f}" x2="{dot[0]:.1f}" y2="{dot[1]:.1f}" '
        'stroke="#5d6d7e" stroke-width="0.8"/>'
    )


def _icon(icon: Icon, box: Box, dot: tuple[float, float], line: str) -> str:
    """The dot, and the words beside it on the side its box lies."""
    tip = f"<title>{escape(icon.title)}</title>" if icon.title else ""
    ships = f' data-ships="{escape(" ".join(icon.ships))}"' if icon.ships else ""
    x = box.x0 + 14 if dot[0] < (box.x0 + box.x1) / 2 else box.x0 + 1
    old = f' data-age="{icon.age}" opacity="{fade(icon.age)}"' if icon.age > 0 else ""
    cls = "icon stale" if icon.age > 0 else "icon"
    return (
        f'<g class="{cls}" data-at="{escape(icon.at)}"{ships}{old}>{tip}{line}'
        f'<circle cx="{dot[0]:.1f}" cy="{dot[1]:.1f}" r="5" fill="{icon.colour}"/>'
        f'<text class="label" x="{x:.1f}" y="{box.y0 + ICON_SIZE * 0.95:.1f}" '
        f'font-size="{ICON_SIZE}">{escape(icon.label)}</text></g>'
    )
