"""The naval minister's report (rules 2.6, 3.3-3.5): his state's
ports with their stores and yards, the ships building and laid up, and the
trade of the turn as far as the knowledge records it (store moves, rule
3.5, and commerce).  From the knowledge alone, like every report."""

from __future__ import annotations

from collections import Counter, defaultdict

from pate.core.intel.model import PlayerKnowledge, PortReport
from pate.core.rules.detection import ship_sort_key
from pate.core.world.geography import WorldMap
from pate.core.world.ships import InPort, ShipType
from pate.reports.events import event_sentence
from pate.reports.words import adjective, stores_text, supplies_text

# the store moves (3.5) and the commerce of the turn (4.8: docs/rules/orders.md, "Commerce")
TRADE_KINDS = frozenset(
    {
        "stores_moved",
        "stores_move_refused",
        "merchant_prizes",
        "trade_lost",
        "convoy_covered",
        "trade_summary",
    }
)


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _counted(*counts: tuple[int, str]) -> str:
    """The counts that are not nil, "1 ship and 2 transport groups"."""
    return " and ".join(_count(n, noun) for n, noun in counts if n)


def _port_line(p: PortReport, harbor: Counter[str]) -> str:
    """``harbor``: the player's ships, transport groups and damaged ones in the port's harbor
    (rule 2.1: transport groups are not ships)."""
    yard = f"yard {p.yard}"
    if p.building or p.building_transports:
        yard += f" ({_counted((p.building, 'ship'), (p.building_transports, 'transport'))} building)"
    parts = [f"stores {p.stores}", yard]
    there = _counted((harbor["ship"], "ship"), (harbor["transport group"], "transport group"))
    if there:
        damaged = harbor["damaged"]
        parts.append(f"{there} in harbor" + (f", {damaged} damaged" if damaged else ""))
    if p.supplies:
        parts.append(f"{supplies_text(p.supplies)} on the quay")
    if p.garrison:
        parts.append(f"garrison {', '.join(p.garrison)}")
    if p.battery_damaged:
        parts.append("shore batteries damaged")
    return f"  {p.name} ({p.sea_area}): " + "; ".join(parts)


def ports_lines(k: PlayerKnowledge) -> list[str]:
    harbor: defaultdict[str, Counter[str]] = defaultdict(Counter)
    for r in k.ships:
        if r.active and isinstance(r.location, InPort) and r.location.harbor:
            here = harbor[r.location.port]
            here["transport group" if r.type is ShipType.TR else "ship"] += 1
            here["damaged"] += bool(r.hull or r.rigging)
    return [_port_line(p, harbor[p.name]) for p in k.ports]


def laid_up_lines(k: PlayerKnowledge) -> list[str]:
    by_port: dict[str, list[str]] = {}
    for r in k.ships:
        if not r.active:
            port = r.location.port if isinstance(r.location, InPort) else "elsewhere"
            by_port.setdefault(port, []).append(r.id)
    return [f"  {port}: {', '.join(sorted(ids, key=ship_sort_key))}" for port, ids in sorted(by_port.items())]


def trade_lines(k: PlayerKnowledge, world_map: WorldMap | None) -> list[str]:
    return [f"  {event_sentence(k, e, world_map)}" for e in k.events if e.kind in TRADE_KINDS]


def minister_sections(k: PlayerKnowledge, world_map: WorldMap | None) -> list[tuple[str, list[str]]]:
    """(heading, lines) of each part of the minister's report; none for a
    player who is not a naval minister."""
    if not k.naval_minister:
        return []
    building = sum(p.building for p in k.ports)
    transports = sum(p.building_transports for p in k.ports)
    stores = sum(p.stores for p in k.ports)
    head = (
        f"{adjective(k, k.state or '')} ports ({len(k.ports)}, {stores_text(stores)} in all,"
        f" {_count(building, 'ship')} and {_count(transports, 'transport')} building; rules 3.3-3.5)"
    )
    laid_up = laid_up_lines(k)
    trade = trade_lines(k, world_map)
    points = political_lines(k)
    return [
        (head, ports_lines(k) or ["  None."]),
        (f"Ships laid up ({sum(not r.active for r in k.ships)}; rule 2.6)", laid_up or ["  None."]),
        (
            "Trade: store moves (rule 3.5) and commerce",
            trade or ["  Nothing moved or reported this turn."],
        ),
    ] + ([("Political points won and lost at sea (EiA rule 12.2.6.1.6.3)", points)] if points else [])


def political_lines(k: PlayerKnowledge) -> list[str]:
    """The political status display: his state's points first, then every other state's."""
    own = [(s, p) for s, p in k.political_points if s == k.state]
    others = [(s, p) for s, p in k.political_points if s != k.state]
    return [f"  {adjective(k, s)}: {p:+d}" for s, p in own + others]
