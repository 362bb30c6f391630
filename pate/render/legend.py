"""The legend under a map: what the marks mean (sea areas, the Atlantic edge
of rule 6.11, ports and strait ports of rule 6.3, a report's markers) and
each port controller's colour."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape

from pate.core.world.geography import Port
from pate.render.labels import text_size
from pate.render.style import NATION_COLOURS, MapStyle

LEGEND_HEIGHT = 88  # three rows
SIZE = 10


def _text(x: float, y: float, text: str, bold: bool = False) -> str:
    weight = ' font-weight="bold"' if bold else ""
    return f'<text class="label" x="{x:.1f}" y="{y:.1f}" font-size="{SIZE}"{weight}>{escape(text)}</text>'


def _marks(style: MapStyle, y: float, highlight: bool) -> list[tuple[str, str]]:
    """(SVG of the mark centred on x = {x}, meaning)."""
    area = f'<rect x="{{xm10}}" y="{y - 10}" width="20" height="12" '
    area += 'fill="{fill}" stroke="{stroke}"{extra}/>'
    out = [
        (area.format(xm10="{xm10}", fill=style.area_fill, stroke=style.area_stroke, extra=""), "sea area"),
        (
            area.format(
                xm10="{xm10}", fill=style.area_fill, stroke=style.edge_stroke, extra=' stroke-width="3"'
            ),
            "on the Atlantic edge (6.11)",
        ),
    ]
    if highlight:
        shaded = area.format(xm10="{xm10}", fill=style.highlight_fill, stroke=style.area_stroke, extra="")
        out.append((shaded, "your ships there"))
    out += [
        (f'<rect x="{{x0}}" y="{y - 8}" width="7" height="7" fill="#ffffff" stroke="#000"/>', "port"),
        (
            f'<polygon points="{{x}},{y - 11} {{x5}},{y - 4} {{x}},{y + 3} {{xm5}},{y - 4}" '
            'fill="#ffffff" stroke="#000"/>',
            "strait port (6.3)",
        ),
        (
            f'<line x1="{{xm10}}" y1="{y - 4}" x2="{{x10}}" y2="{y - 4}" stroke="{style.link}" '
            'stroke-width="3" stroke-dasharray="4,3"/>',
            "a narrow passage between two sea areas",
        ),
    ]
    return out


def _row(items: list[tuple[str, str]], x: float, y: float) -> list[str]:
    """Marks and their meanings side by side, the text's baseline at y."""
    out = []
    for mark, text in items:
        cx = x + 12
        out.append(mark.format(x=cx, x0=cx - 3.5, x5=cx + 5, xm5=cx - 5, x10=cx + 10, xm10=cx - 10))
        out.append(_text(cx + 18, y, text))
        x = cx + 18 + text_size(text, SIZE)[0] + 8
    return out


def legend(
    ports: Sequence[Port],
    top: float,
    width: float,
    style: MapStyle,
    *,
    highlight: bool,
    marks: Sequence[tuple[str, str]] = (),
    colours: Mapping[str, str] | None = None,
) -> list[str]:
    """Two rows under the map: the marks, then the ports' colours."""
    colours = colours or NATION_COLOURS
    y = top + 18
    out = ['<g class="legend">', _text(style.margin, y, "Legend", bold=True)]
    out += _row(_marks(style, y, highlight), style.margin + 50.0, y)
    y2 = y
    if marks:
        y2 = y + 22
        dots = [(f'<circle cx="{{x}}" cy="{y2 - 4}" r="5" fill="{escape(c)}"/>', t) for c, t in marks]
        out += _row(dots, style.margin + 50.0, y2)
    y2 += 24
    x: float = style.margin + 50
    out.append(_text(style.margin, y2, "Ports", bold=True))
    for code in sorted({p.controller for p in ports}):
        colour = colours.get(code, "#555555")
        out.append(f'<rect x="{x:.1f}" y="{y2 - 8}" width="7" height="7" fill="{colour}" stroke="#000"/>')
        out.append(_text(x + 10, y2, code))
        x += 10 + text_size(code, SIZE)[0] + 8
    out.append(_text(x + 6, y2, "a port's colour is its controller's, a square's size nothing"))
    out.append("</g>")
    return out
