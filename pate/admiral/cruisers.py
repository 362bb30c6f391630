"""Frigates and transport groups: commerce, scouting, convoys and landings.

Frigates (rule 4.8, 5.2): a share of them, by the level, raid the enemy's
trade where his merchants sail (the sea areas of his ports), pursuing only
lone ships and evading battle; they sail to their hunting ground without
raiding, since raiding slows a ship (6.6).  The others scout toward the
enemy's ports, evading, or convoy their own trade when the level says so.

Transport groups (4.9, 3.6, 3.9): in their home port they load the land
units seen there, carry them to another port and unload them: a friendly
one, or for a bold admiral an enemy port where no enemy ship is known (a
landing); empty, they go home.  They evade everything.
"""

from __future__ import annotations

from pate.admiral import navigation as nav
from pate.admiral import tactics
from pate.admiral.plan import FULL_STORES, Plan
from pate.admiral.squadrons import needs_home, retreat
from pate.admiral.view import OwnShip
from pate.core.orders.model import (
    Amphibious,
    Combat,
    CombatStance,
    Commerce,
    Contact,
    ContactMode,
    FleeTo,
    Movement,
    ShipOrder,
)

EVADE_BATTLE = Combat(stance=CombatStance.EVADE, flee_to=FleeTo.SEA)
SAFE_WEIGHT = 0.5  # a frigate keeps away from sea areas where more than this is known


def frigate_orders(plan: Plan, s: OwnShip) -> ShipOrder:
    if needs_home(plan, s) or s.enemies_here > SAFE_WEIGHT:
        return retreat(plan, s)
    stores = FULL_STORES if s.port in plan.friendly_ports and s.stores < FULL_STORES else None
    raider = plan.rng("role", s.id).below(100) < plan.level.raid_share
    if raider:
        return _raid(plan, s, stores)
    if plan.level.convoy and s.port is None and s.area in plan.own_trade_areas:
        return ShipOrder(
            s.id, contact=Contact(), combat=EVADE_BATTLE, commerce=Commerce.CONVOY, stores=stores
        )
    return _scout(plan, s, stores)


def _raid(plan: Plan, s: OwnShip, stores: int | None) -> ShipOrder:
    grounds = [
        a
        for a in sorted(plan.enemy_trade_areas)
        if plan.danger(a) <= SAFE_WEIGHT and plan.map.sea_areas[a].map == plan.map.sea_areas[s.area].map
    ]
    if s.port is None and s.area in grounds:
        # rule 4.6: raiders must pursue; only lone ships (a frigate's match)
        hunt = Contact(mode=ContactMode.PURSUE, maximum=1)
        return ShipOrder(s.id, contact=hunt, combat=EVADE_BATTLE, commerce=Commerce.RAID, stores=stores)
    move = nav.toward(plan.chart, s.type, s.area, s.port, grounds) if grounds else _out(plan, s)
    return ShipOrder(s.id, movement=move, contact=tactics.fleeing(), combat=EVADE_BATTLE, stores=stores)


def _scout(plan: Plan, s: OwnShip, stores: int | None) -> ShipOrder:
    """Toward the enemy's nearest port, to sight what lies there (5.2)."""
    home_map = plan.map.sea_areas[s.area].map
    areas = sorted(
        {
            plan.map.ports[p].sea_area
            for p in plan.enemy_held_ports
            if plan.map.sea_areas[plan.map.ports[p].sea_area].map == home_map
        }
    )
    goals = [a for a in areas if plan.danger(a) <= 2.0] or areas
    move = nav.toward(plan.chart, s.type, s.area, s.port, goals) if goals else _out(plan, s)
    return ShipOrder(s.id, movement=move, contact=tactics.fleeing(), combat=EVADE_BATTLE, stores=stores)


def _out(plan: Plan, s: OwnShip) -> Movement:
    return Movement(sea_areas=(s.area,)) if s.port is not None else Movement()


def transport_orders(plan: Plan, s: OwnShip) -> ShipOrder:
    contact = tactics.fleeing()
    combat = Combat(stance=CombatStance.EVADE, flee_to=FleeTo.HARBOR)
    if s.enemies_here > 0 or s.damage >= plan.level.repair_damage:
        return retreat(plan, s)
    home = s.port is not None and s.port == s.base
    if home and not s.cargo:
        units = sorted(s.land_units)
        if units and s.harbor:
            return ShipOrder(
                s.id, contact=contact, combat=combat, amphibious=Amphibious(load_units=(units[0],))
            )
        stores = FULL_STORES if s.stores < FULL_STORES else None
        return ShipOrder(s.id, contact=contact, combat=combat, stores=stores)
    if s.port is not None and s.cargo and not home and s.harbor:
        return ShipOrder(s.id, contact=contact, combat=combat, amphibious=Amphibious(unload_units=s.cargo))
    if not s.cargo:
        return (
            retreat(plan, s) if s.base in plan.map.ports else ShipOrder(s.id, contact=contact, combat=combat)
        )
    port = _landing_port(plan, s)
    if port is None:
        return ShipOrder(s.id, contact=contact, combat=combat)
    move = nav.to_port(plan.chart, s.type, s.area, s.port, port, harbor=True)
    return ShipOrder(s.id, movement=move, contact=contact, combat=combat)


def _landing_port(plan: Plan, s: OwnShip) -> str | None:
    """The nearest port, other than the home port, to land the units in."""
    ports = [p for p in plan.friendly_ports if p != s.base]
    if plan.level.land:
        ports += [p for p in plan.enemy_held_ports if plan.view.enemy_ports.get(p, 0.0) == 0]
    home_map = plan.map.sea_areas[s.area].map
    by_area: dict[str, list[str]] = {}
    for p in sorted(ports):
        for a in plan.map.ports[p].reachable_sea_areas:
            if plan.map.sea_areas[a].map == home_map and plan.danger(a) == 0:
                by_area.setdefault(a, []).append(p)
    if s.port is not None:
        by_area = {a: [p for p in ps if p != s.port] for a, ps in by_area.items()}
        by_area = {a: ps for a, ps in by_area.items() if ps}
    way = plan.chart.way(s.type, s.area, by_area)
    if way is None:
        return None
    return min(by_area[way[-1] if way else s.area])
