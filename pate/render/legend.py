"""The legend of a map: what the marks mean (sea areas, the Atlantic edge of
rule 6.11, ports and strait ports of rule 6.3, a report's markers) and which
state holds the ports of each colour, named in words (data/nations.toml).

The keys are made once and drawn twice: under a static map in its SVG
(:func:`legend`, wrapped within the map's width so that no key is cut off),
and by the web desk in HTML beside its zoomable map, which must not zoom or
pan the legend away (:func:`map_keys`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from html import escape

from pate.core.world.geography import MapName, Port, WorldMap
from pate.datafiles import load_nations
from pate.render.labels import text_size
from pate.render.style import NATION_COLOURS, MapStyle

SIZE = 10
ROW = 22  # from one row's baseline to the next
MARK_W, MARK_H = 24, 14  # the box a key's mark is drawn in
HEAD_W = 50  # room for a row's heading ("Legend", "Ports")


@dataclass(frozen=True, slots=True)
class Key:
    mark: str  # SVG of the mark, in a MARK_W x MARK_H box
    text: str


@dataclass(frozen=True, slots=True)
class KeyRow:
    heading: str
    keys: tuple[Key, ...]


def _area(fill: str, stroke: str, extra: str = "") -> str:
    return f'<rect x="2" y="1" width="20" height="12" fill="{fill}" stroke="{stroke}"{extra}/>'


def _square(fill: str) -> str:
    return f'<rect x="8.5" y="3.5" width="7" height="7" fill="{escape(fill)}" stroke="#000"/>'


def dot(colour: str) -> str:
    return f'<circle cx="12" cy="7" r="5" fill="{escape(colour)}"/>'


def _marks(style: MapStyle, highlight: bool, marks: Sequence[tuple[str, str]]) -> list[Key]:
    out = [
        Key(_area(style.area_fill, style.area_stroke), "sea area"),
        Key(_area(style.area_fill, style.edge_stroke, ' stroke-width="3"'), "on the Atlantic edge (6.11)"),
    ]
    if highlight:
        out.append(Key(_area(style.highlight_fill, style.area_stroke), "your ships there"))
    out += [
        Key(_square("#ffffff"), "port"),
        Key('<polygon points="12,0 17,7 12,14 7,7" fill="#ffffff" stroke="#000"/>', "strait port (6.3)"),
        Key(
            f'<line x1="2" y1="7" x2="22" y2="7" stroke="{style.link}" stroke-width="3" '
            'stroke-dasharray="4,3"/>',
            "a narrow passage between two sea areas",
        ),
    ]
    return out + [Key(dot(c), t) for c, t in marks]


def state_name(code: str) -> str:
    """A state's name as data/nations.toml gives it ("British"), or its code."""
    state = load_nations().states.get(code)
    return state.name if state else code


def keys(
    ports: Sequence[Port],
    style: MapStyle,
    *,
    highlight: bool,
    marks: Sequence[tuple[str, str]] = (),
    colours: Mapping[str, str] | None = None,
) -> tuple[KeyRow, KeyRow]:
    """The marks, then the states holding the ports (each colour in words)."""
    colours = colours or NATION_COLOURS
    held = [
        Key(_square(colours.get(code, "#555555")), f"{state_name(code)} ({code})")
        for code in sorted({p.controller for p in ports})
    ]
    return KeyRow("Legend", tuple(_marks(style, highlight, marks))), KeyRow("Ports held by", tuple(held))


def map_keys(
    world_map: WorldMap,
    which: MapName,
    style: MapStyle | None = None,
    *,
    highlight: bool,
    marks: Sequence[tuple[str, str]] = (),
) -> tuple[KeyRow, KeyRow]:
    """The keys of one whole map, for a legend drawn outside it."""
    codes = {a.code for a in world_map.sea_areas.values() if a.map is which}
    ports = [p for p in world_map.ports.values() if p.sea_area in codes]
    return keys(ports, style or MapStyle(), highlight=highlight, marks=marks)


def _text(x: float, y: float, text: str, bold: bool = False) -> str:
    weight = ' font-weight="bold"' if bold else ""
    return f'<text class="label" x="{x:.1f}" y="{y:.1f}" font-size="{SIZE}"{weight}>{escape(text)}</text>'


def _flow(row: KeyRow, left: float, right: float, y: float) -> tuple[list[str], float]:
    """The row's heading, then its keys side by side, a new line where the
    next would pass ``right``; the last baseline."""
    out = [_text(left, y, row.heading, bold=True)]
    start = left + max(HEAD_W, text_size(row.heading, SIZE)[0] + 8)
    x = start
    for key in row.keys:
        width = MARK_W + 4 + text_size(key.text, SIZE)[0]
        if x > start and x + width > right:
            x, y = start, y + ROW
        out.append(f'<g class="key" transform="translate({x:.1f} {y - 11:.1f})">{key.mark}</g>')
        out.append(_text(x + MARK_W + 4, y, key.text))
        x += width + 12
    return out, y


def legend(
    ports: Sequence[Port],
    top: float,
    width: float,
    style: MapStyle,
    *,
    highlight: bool,
    marks: Sequence[tuple[str, str]] = (),
    colours: Mapping[str, str] | None = None,
) -> tuple[list[str], float]:
    """The legend under a map, within its width, and its height."""
    out = ['<g class="legend">']
    y = top + 18
    for n, row in enumerate(keys(ports, style, highlight=highlight, marks=marks, colours=colours)):
        drawn, y = _flow(row, style.margin, width - style.margin / 2, y + (ROW + 2 if n else 0))
        out += drawn
    out.append("</g>")
    return out, y - top + 14
