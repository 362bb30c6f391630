"""The courses a player has ordered, drawn on a whole map as webDiplomacy and
Backstabbr draw orders: an arrow from the ship's place through each sea area
of its movement (rule 6.1) to the port it ends in, the contact stance shown
by the stroke (and a word when it is not the default), and a ring round the
port where the course ends in one (whole for its harbor, dashed for its
coastal waters), with "lands units" where a transport group unloads there.

The renderer draws only what it is given; the desk gives it the player's own
ships' orders and nothing else (fog of war).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from html import escape
from itertools import pairwise

from pate.render.legend import Key, KeyRow

Point = tuple[float, float]
WIDTH = 3.0
GAP_AREA = 17.0  # an arrow stops short of a sea area's code (its half width)...
GAP_PORT = 7.0  # ...and of a port's mark
LABEL_SIZE = 11
MAX_TITLES = 12  # ships named in one course's tooltip
# contact stance (rule 4.6) -> (stroke, dash pattern, words)
STANCES: dict[str, tuple[str, str, str]] = {
    "accept": ("#0b5394", "", "accepts contact"),
    "pursue": ("#a93226", "", "pursues"),
    "evade": ("#0b5394", "7,5", "evades"),
}


@dataclass(frozen=True, slots=True)
class Course:
    """One ship's ordered course: the places it passes, its own place first."""

    ship: str
    places: tuple[str, ...]  # sea-area codes and a port name, in order
    contact: str = "accept"  # pursue | evade | accept
    port: str = ""  # the port it ends in, "" at sea
    harbor: bool = False  # into the harbor, else its coastal waters
    lands: bool = False  # a transport group unloading units there (rule 4.9)
    title: str = ""


def _shortened(p: Point, q: Point, start_gap: float, end_gap: float) -> tuple[Point, Point] | None:
    dx, dy = q[0] - p[0], q[1] - p[1]
    length = (dx * dx + dy * dy) ** 0.5
    if length <= start_gap + end_gap + 4:
        return None
    ux, uy = dx / length, dy / length
    return (
        (round(p[0] + ux * start_gap, 1), round(p[1] + uy * start_gap, 1)),
        (round(q[0] - ux * end_gap, 1), round(q[1] - uy * end_gap, 1)),
    )


def _gap(place: str) -> float:
    """Sea areas are named by three capital letters, ports by their names."""
    return GAP_AREA if len(place) == 3 and place.isupper() else GAP_PORT


def _defs(key: str) -> str:
    """An arrowhead of each stance's colour (a marker takes no colour from its line in SVG 1.1)."""
    heads = "".join(
        f'<marker id="head-{key}-{stance}" viewBox="0 0 10 10" refX="9" refY="5" '
        f'markerWidth="4" markerHeight="4" orient="auto">'
        f'<path d="M0,0 L10,5 L0,10 z" fill="{colour}"/></marker>'
        for stance, (colour, _, _) in STANCES.items()
    )
    return f"<defs>{heads}</defs>"


def _course(group: Sequence[Course], at: Callable[[str], Point | None], key: str) -> str:
    """One drawing for ships on the same course (a squadron and the ships
    copying its lead's orders, rule 4.2): arrows laid exactly over one
    another read as one, and hid the others' tooltips."""
    course = group[0]
    points = [at(p) for p in course.places]
    if len(course.places) < 2 or any(p is None for p in points):
        return ""  # a course to or from the other map's waters is drawn on neither
    stance = course.contact if course.contact in STANCES else "accept"
    colour, dash, words = STANCES[stance]
    lines = []
    steps = list(zip(course.places, points, strict=True))
    for (a, p), (b, q) in pairwise(steps):
        assert p is not None and q is not None
        ends = _shortened(p, q, _gap(a), _gap(b))
        if ends is None:
            continue
        (x1, y1), (x2, y2) = ends
        lines.append(
            f'<line data-from="{escape(a)}" data-to="{escape(b)}" x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" '
            f'y2="{y2:g}" marker-end="url(#head-{key}-{stance})"/>'
        )
    end = points[-1]
    assert end is not None
    extra = ""
    if course.port:
        dashes = "" if course.harbor else ' stroke-dasharray="3,2"'
        extra += (
            f'<circle class="course-end" cx="{end[0]:g}" cy="{end[1]:g}" r="10" fill="none" '
            f'stroke-width="2.5"{dashes}/>'
        )
    said = [words] if stance != "accept" else []
    said += ["lands units"] if course.lands else []
    if said:
        extra += (
            f'<text class="label course-label" x="{end[0] + 12:g}" y="{end[1] - 12:g}" '
            f'font-size="{LABEL_SIZE}" fill="{colour}" stroke="none">{escape(" · ".join(said))}</text>'
        )
    where = " ".join(f"{x:g},{y:g}" for x, y in (pt for pt in points if pt))
    dashed = f' stroke-dasharray="{dash}"' if dash else ""
    ships = " ".join(c.ship for c in group)
    title = "; ".join(c.title or c.ship for c in group[:MAX_TITLES])
    title += f"; and {len(group) - MAX_TITLES} more" if len(group) > MAX_TITLES else ""
    return (
        f'<g class="course" data-ship="{escape(course.ship)}" data-ships="{escape(ships)}" '
        f'data-contact="{stance}" data-places="{escape(" ".join(course.places))}" data-points="{where}" '
        f'stroke="{colour}" stroke-width="{WIDTH:g}" stroke-linecap="round"{dashed}>'
        f"<title>{escape(title)}</title>{''.join(lines)}{extra}</g>"
    )


def course_layer(courses: Sequence[Course], at: Callable[[str], Point | None], key: str) -> list[str]:
    """Each course, once for all the ships on it, as a group of arrows
    between the label points of its sea areas and the marks of its ports
    (``at``: a place's point on this map, or None on the other); ``key``
    keeps the arrowheads' ids apart when a page holds both maps."""
    groups: dict[tuple[object, ...], list[Course]] = {}
    for c in courses:
        groups.setdefault((c.places, c.contact, c.port, c.harbor, c.lands), []).append(c)
    drawn = [svg for svg in (_course(g, at, key) for g in groups.values()) if svg]
    if not drawn:
        return []
    return ['<g class="courses">', _defs(key), *drawn, "</g>"]


def _arrow(colour: str, dash: str) -> str:
    dashed = f' stroke-dasharray="{dash}"' if dash else ""
    return (
        f'<line x1="1" y1="7" x2="15" y2="7" stroke="{colour}" stroke-width="3"{dashed}/>'
        f'<path d="M14,2.5 L23,7 L14,11.5 z" fill="{colour}"/>'
    )


def course_keys() -> KeyRow:
    """What the courses' strokes and rings mean, for a legend."""
    out = [Key(_arrow(colour, dash), f"my course: {words} (4.6)") for colour, dash, words in STANCES.values()]
    ring = f'<circle cx="12" cy="7" r="6" fill="none" stroke="{STANCES["accept"][0]}" stroke-width="2"/>'
    out.append(Key(ring, "ends in a port's harbor (a dashed ring: its coastal waters)"))
    return KeyRow("My orders", tuple(out))
