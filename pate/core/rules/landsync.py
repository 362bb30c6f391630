"""GITM's report of the land units in on-GITM-map ports, merged into the world
(rules 1.5, 5.3; lost section 9).

The GITM bridge asks GITM which units stand in each port's city (tactical
square) and around it (strategic square), with their sizes, and the resolver
merges the answer into the world before a turn is resolved, as an input of the
turn stored beside the orders (so a replay sees the same).  Units aboard
transport groups are PATE's alone and are not touched; off-GITM-map ports
have no GITM side.  A unit reported without a size keeps the size PATE knows.
GITM is the authority for the land (docs/gitm.md "Who decides what"): a
report that carries the city's supply stock (edition 2) sets PATE's quay.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from pate.core.world.geography import WorldMap
from pate.core.world.state import LandUnit, WorldState


@dataclass(frozen=True, slots=True)
class PortLandReport:
    port: str
    city: tuple[LandUnit, ...]  # in the city's tactical square: the garrison
    near: tuple[str, ...] = ()  # elsewhere in its strategic square (5.3)
    supplies: int | None = None  # the city's stock; None: not reported (an edition 1 land service)
    # edition 4: the hold GITM gave with the answer ("" none: PATE behaves as before holds)
    hold: str = ""
    hold_expires_at: int = 0  # when the hold ends, seconds since 1970


def _sized(unit: LandUnit) -> bool:
    return bool(unit.men or unit.headquarters.value != "none")


def apply_land_reports(wmap: WorldMap, world: WorldState, reports: Iterable[PortLandReport]) -> WorldState:
    ports = dict(world.ports)
    units = dict(world.land_units)
    # PATE is the authority for what is aboard: a unit it has aboard that GITM lists ashore (GITM
    # restored from a backup that lost the load) stays aboard only, never ashore too; the
    # reconciliation settles that disagreement (docs/gitm.md "Reconciliation", R1, else R6)
    aboard = {u for s in world.ships.values() for u in s.cargo.units}
    for r in sorted(reports, key=lambda r: r.port):
        if r.port not in ports or not wmap.ports[r.port].on_gitm_map:
            continue
        ashore = [u for u in r.city if u.id not in aboard]
        for u in ashore:
            if _sized(u) or u.id not in units:
                units[u.id] = u
        city = tuple(u.id for u in ashore)
        near = tuple(u for u in r.near if u not in aboard)
        ports[r.port] = replace(ports[r.port], garrison=city, strategic_units=near)
        if r.supplies is not None:
            ports[r.port] = replace(ports[r.port], supplies=max(0, r.supplies))
    held = {u for p in ports.values() for u in p.garrison} | aboard
    return replace(world, ports=ports, land_units={k: v for k, v in sorted(units.items()) if k in held})
