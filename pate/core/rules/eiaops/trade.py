"""Protect Trade and Supply chains, and the trade ships' routes.

"Select at most 7 sea zones extending from the starting port; if a friendly
port is reached, then 7 others may be chosen again, repeating."  "For each $1
of trade a single trade ship is taken to be moving along a route between the
trade port and the receiving port ... If two routes join in a common port,
then the routes are taken to be singular and can be protected as one."
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from pate.core.rules.eiaops.steps import shortest_path
from pate.core.world.geography import WorldMap
from pate.core.world.state import WorldState

OFFBOARD = "offboard"
ROUTE_LIMIT = 40  # steps a route may take: more than the widest map needs


def friendly_port_on(world_map: WorldMap, world: WorldState, area: str, state: str) -> str | None:
    """A port opening on ``area`` held by ``state`` or an active ally, if any."""
    for name in world_map.ports_reachable_from(area):
        port = world.ports.get(name)
        if port is not None and world.diplomacy.allied(state, port.controller):
            return name
    return None


def chain_problem(
    world_map: WorldMap, world: WorldState, state: str, start: str, chain: tuple[str, ...], legs: int
) -> str | None:
    """Why ``chain`` is not a legal chain from port ``start`` for ``state``
    (None when it is): every zone borders the one before (the first opens on
    the port), and at most ``legs`` zones lie between friendly ports.

    "Select at most 7 sea zones extending from the starting port; if a
    friendly port is reached, then 7 others may be chosen again": a friendly
    port is reached when the chain comes to a zone it opens on and the chain
    has not met it before.  The ports of the first zone, the starting port
    among them, are where the chain starts, not reached: any of them could
    have been the start of the same chain, so they earn no second seven, and
    a chain turning back to a port it passed earns none either."""
    if not chain:
        return "name at least one sea zone"
    prev: str | None = None
    run = 0
    met: set[str] = {start}
    for i, area in enumerate(chain):
        if area not in world_map.sea_areas:
            return f"zone {i + 1}: {area!r} is not a sea area"
        if prev is None:
            if area not in world_map.ports[start].reachable_sea_areas:
                return f"zone 1: {area} is not a sea area {start} opens on"
            met.update(world_map.ports_reachable_from(area))
        elif not world_map.borders(prev, area):
            return f"zone {i + 1}: {area} does not border {prev}"
        run += 1
        if run > legs:
            return f"zone {i + 1}: more than {legs} sea zones without reaching a friendly port"
        if _reached(world_map, world, area, state, met):
            run = 0
        met.update(world_map.ports_reachable_from(area))
        prev = area
    return None


def _reached(world_map: WorldMap, world: WorldState, area: str, state: str, met: set[str]) -> bool:
    """A friendly port opening on ``area`` that the chain had not met before."""
    for name in world_map.ports_reachable_from(area):
        port = world.ports.get(name)
        if name not in met and port is not None and world.diplomacy.allied(state, port.controller):
            return True
    return False


@dataclass(frozen=True, slots=True)
class Route:
    """One trade route (or several joined in a common port): its states, its
    trade ships and the nodes it passes."""

    key: str  # the receiving end, then the first trade port: stable and readable
    states: tuple[str, ...]
    ships: Mapping[str, int]  # trade ships by state
    nodes: frozenset[str]


def _receiving(world_map: WorldMap, receiving: str) -> set[str]:
    if receiving == OFFBOARD:
        return {c for c, a in world_map.sea_areas.items() if a.atlantic_edge}
    return {receiving} if receiving in world_map.ports else set()


def trade_ports(world: WorldState, state: str) -> tuple[str, ...]:
    return tuple(sorted(n for n, p in world.ports.items() if p.controller == state))


def split(total: int, ports: tuple[str, ...]) -> dict[str, int]:
    """``total`` trade ships over ``ports``, by largest remainder in port order."""
    if not ports or total <= 0:
        return {}
    base, rest = divmod(total, len(ports))
    return {p: base + (1 if i < rest else 0) for i, p in enumerate(ports) if base or i < rest}


def routes(
    world_map: WorldMap, world: WorldState, trade: Mapping[str, int], receiving: Mapping[str, str]
) -> tuple[Route, ...]:
    """Every trade route of the turn, routes sharing a port joined into one."""
    parts: list[tuple[str, str, int, frozenset[str]]] = []
    for state in sorted(trade):
        goal = _receiving(world_map, receiving.get(state, OFFBOARD))
        offboard = _receiving(world_map, OFFBOARD)
        for port, n in split(trade[state], trade_ports(world, state)).items():
            if port not in world_map.ports:
                continue
            # a port on the other map than its receiving port trades offboard
            path = shortest_path(world_map, port, goal, ROUTE_LIMIT) if goal else None
            path = path or shortest_path(world_map, port, offboard, ROUTE_LIMIT)
            if path is not None:
                parts.append((state, port, n, frozenset(path) | _calls(world_map, world, state, path)))
    return _join(world_map, parts)


def _calls(world_map: WorldMap, world: WorldState, state: str, path: tuple[str, ...]) -> frozenset[str]:
    """ "The route can take detours in other friendly ports": it calls at every
    port of its side opening on a sea area it passes."""
    out = set()
    for node in path:
        if node in world_map.sea_areas:
            for name in world_map.ports_reachable_from(node):
                held = world.ports.get(name)
                if held is not None and world.diplomacy.allied(state, held.controller):
                    out.add(name)
    return frozenset(out)


def _join(world_map: WorldMap, parts: list[tuple[str, str, int, frozenset[str]]]) -> tuple[Route, ...]:
    groups: list[list[tuple[str, str, int, frozenset[str]]]] = []
    for part in parts:
        ports = {n for n in part[3] if n in world_map.ports}
        touching = [g for g in groups if any(ports & {n for n in q[3] if n in world_map.ports} for q in g)]
        merged = [part] + [q for g in touching for q in g]
        groups = [g for g in groups if g not in touching] + [merged]
    out = []
    for g in groups:
        ships: dict[str, int] = {}
        for state, _port, n, _nodes in g:
            ships[state] = ships.get(state, 0) + n
        nodes = frozenset().union(*(q[3] for q in g))
        key = min(q[1] for q in g)  # its first trade port: each port is in one route
        out.append(Route(key, tuple(sorted(ships)), ships, nodes))
    return tuple(sorted(out, key=lambda r: r.key))
