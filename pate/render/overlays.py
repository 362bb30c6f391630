"""What the EiA operations rules add to a whole map (docs/rules/eia-operations.md):
trade routes, drawn as lines through the sea areas and ports they pass, and
blockade boxes, drawn as a ring round the port whose coastal waters they are.

The renderer only draws what it is given; what a player may know (fog of war)
is chosen by the report (``pate.reports.svg``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from html import escape

from pate.core.world.geography import WorldMap

Point = tuple[float, float]
ROUTE_WIDTH = 3.5
BOX_RADIUS = 11.0


@dataclass(frozen=True, slots=True)
class RouteLine:
    """A trade route as a player knows it: its sea areas and ports."""

    key: str
    areas: tuple[str, ...]
    ports: tuple[str, ...]
    colour: str
    title: str


@dataclass(frozen=True, slots=True)
class BlockadeBox:
    """The coastal waters of ``port`` as a blockade box (EiA 12.2.6.2), and whose fleet is in it."""

    port: str
    colour: str
    title: str


def _segments(world_map: WorldMap, route: RouteLine) -> list[tuple[str, str]]:
    """The route's steps: two of its sea areas that border each other, and each
    of its ports with the sea areas of the route it opens on."""
    areas = set(route.areas)
    out = [
        (a, b) for a in sorted(areas) for b in sorted(world_map.sea_areas[a].adjacent) if b in areas and a < b
    ]
    for name in route.ports:
        port = world_map.ports.get(name)
        if port is not None:
            out += [(name, a) for a in port.reachable_sea_areas if a in areas]
    return out


def route_layer(
    world_map: WorldMap, routes: Sequence[RouteLine], at: Callable[[str], Point | None]
) -> list[str]:
    """Each route as a group of dashed lines between the label points of its
    sea areas and the marks of its ports (``at`` gives a node's point on this
    map, or None when it is on the other one)."""
    out = []
    for route in routes:
        lines = []
        for first, second in _segments(world_map, route):
            p, q = at(first), at(second)
            if p is None or q is None:
                continue
            lines.append(f'<line x1="{p[0]:g}" y1="{p[1]:g}" x2="{q[0]:g}" y2="{q[1]:g}"/>')
        if not lines:
            continue
        out.append(
            f'<g class="trade-route" data-route="{escape(route.key)}" stroke="{route.colour}" '
            f'stroke-width="{ROUTE_WIDTH}" stroke-dasharray="9,5" stroke-linecap="round" opacity="0.75">'
            f"<title>{escape(route.title)}</title>{''.join(lines)}</g>"
        )
    return out


def box_layer(boxes: Sequence[BlockadeBox], at: Callable[[str], Point | None]) -> list[str]:
    """Each blockade box as a ring round its port, in the colour of the fleet in it."""
    out = []
    for box in boxes:
        p = at(box.port)
        if p is None:
            continue
        out.append(
            f'<g class="blockade-box" data-port="{escape(box.port)}"><title>{escape(box.title)}</title>'
            f'<circle cx="{p[0]:g}" cy="{p[1]:g}" r="{BOX_RADIUS:g}" fill="none" stroke="{box.colour}" '
            f'stroke-width="3"/></g>'
        )
    return out
