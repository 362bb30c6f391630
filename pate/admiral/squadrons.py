"""Ships of the line and flagships: squadrons, the hunt, blockade and retreat.

Ships of the line lying together form one squadron under the heaviest of
them (rules 4.2, 4.4: attached ships carry out their lead's orders), so a
fleet fights at its whole weight.  Each squadron then does the first of:

1. **home**: short of stores or damaged, it sails for the nearest friendly
   harbor, to take stores (3.4) and repair (3.3), evading what it meets;
2. **stand or run**: with enemies in contact, it fights there at good odds
   and runs for a harbor at bad ones;
3. **hunt**: it sails for the nearest enemy force it can beat;
4. **blockade** (bold) an enemy port, or **guard** (cautious) its own trade.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from pate.admiral import navigation as nav
from pate.admiral import tactics
from pate.admiral.plan import FULL_STORES, Plan
from pate.admiral.view import OwnShip
from pate.core.orders.model import Combat, CombatStance, Commerce, Contact, FleeTo, Movement, ShipOrder

LINE = ("FL", "SL")


@dataclass(frozen=True, slots=True)
class Squadron:
    lead: OwnShip
    joining: tuple[OwnShip, ...]  # ordered to attach to the lead this turn
    members: tuple[OwnShip, ...]  # every ship the lead will carry (its attached ones too)


def form_squadrons(plan: Plan, ships: Sequence[OwnShip]) -> tuple[list[Squadron], list[OwnShip]]:
    """Squadrons of the player's free ships of the line, by place; and the
    ships that must sail alone this turn (going home for stores or repair)."""
    alone = [s for s in ships if needs_home(plan, s)]
    free = [s for s in ships if s not in alone]
    by_place: dict[str, list[OwnShip]] = {}
    for s in free:
        by_place.setdefault(s.place, []).append(s)
    known = {s.id: s for s in plan.view.ships}
    out: list[Squadron] = []
    for place in sorted(by_place):
        group = sorted(by_place[place], key=lambda s: (-_class_rank(s), s.id))
        lead, joining = group[0], tuple(group[1:])
        followers = [known[a] for s in group for a in s.attached if a in known]
        out.append(Squadron(lead, joining, (lead, *joining, *followers)))
    return out, alone


def _class_rank(s: OwnShip) -> int:
    return 1 if s.type == "FL" else 0


def needs_home(plan: Plan, s: OwnShip) -> bool:
    in_friendly_port = s.port is not None and s.port in plan.friendly_ports
    if s.damage >= plan.level.repair_damage:
        return not (in_friendly_port and s.harbor)
    return s.stores <= plan.level.home_stores and not in_friendly_port


def squadron_orders(plan: Plan, sq: Squadron) -> list[ShipOrder]:
    lead = sq.lead
    weight = plan.weight(sq.members)
    order = _lead_order(plan, lead, weight)
    if lead.port in plan.friendly_ports and lead.stores < FULL_STORES:
        order = replace(order, stores=FULL_STORES)
    return [order, *(ShipOrder(s.id, attach_to=lead.id) for s in sq.joining)]


def _lead_order(plan: Plan, lead: OwnShip, weight: float) -> ShipOrder:
    level = plan.level
    here = max(lead.enemies_here, plan.view.enemy_ports.get(lead.port or "", 0.0))
    if here > 0:
        odds = tactics.odds(weight, here)
        if odds >= level.attack_odds:  # rule 4.7: fight where it stands
            return ShipOrder(
                lead.id, contact=tactics.hunting(weight, level), combat=tactics.battle(odds, level)
            )
        if odds < level.evade_odds or not level.blockade:
            return retreat(plan, lead)
    target = _hunt(plan, lead, weight)
    if target is not None:
        return target
    return _idle(plan, lead, weight)


def retreat(plan: Plan, s: OwnShip) -> ShipOrder:
    """Home to a friendly harbor, evading everything (4.6) and evading
    battle if caught (4.7), fleeing to a harbor."""
    port = plan.nearest_friendly_port(s)
    evade = Combat(stance=CombatStance.EVADE, flee_to=FleeTo.HARBOR)
    stores = FULL_STORES if s.port in plan.friendly_ports and s.stores < FULL_STORES else None
    if port is None:
        return ShipOrder(s.id, contact=tactics.fleeing(), combat=evade, stores=stores)
    move = nav.to_port(plan.chart, s.type, s.area, s.port, port, harbor=True)
    return ShipOrder(s.id, movement=move, contact=tactics.fleeing(), combat=evade, stores=stores)


def _hunt(plan: Plan, lead: OwnShip, weight: float) -> ShipOrder | None:
    """The nearest sea area where an enemy force the squadron can beat is known."""
    level = plan.level
    goals = [
        a
        for a, w in sorted(plan.view.enemy_weight.items())
        if a != lead.area
        and w > 0
        and tactics.odds(weight, w) >= level.attack_odds
        and plan.map.sea_areas[a].map == plan.map.sea_areas[lead.area].map
    ]
    if not goals:
        return None
    way = plan.chart.way(lead.type, lead.area, goals)
    if not way:
        return None
    enemy = plan.danger(way[-1])
    move = nav.movement(plan.map, lead.area, lead.port, way)
    odds = tactics.odds(weight, enemy)
    contact = tactics.hunting(weight, level, into_ports=level.blockade and not level.open_blockade)
    return ShipOrder(lead.id, movement=move, contact=contact, combat=tactics.battle(odds, level))


def _idle(plan: Plan, lead: OwnShip, weight: float) -> ShipOrder:
    level = plan.level
    contact = (
        tactics.hunting(weight, level, into_ports=level.blockade and not level.open_blockade)
        if level.blockade
        else tactics.wary(weight, level)
    )
    combat = tactics.battle(tactics.odds(weight, 0.0), level) if level.blockade else Combat()
    if level.blockade:
        port = _blockade_port(plan, lead, weight)
        if port is not None and level.open_blockade:
            # off the port, in its sea area: no battle in its harbor (the rule set's port raids)
            move = nav.toward(plan.chart, lead.type, lead.area, lead.port, [plan.map.ports[port].sea_area])
            return ShipOrder(lead.id, movement=move, contact=contact, combat=combat)
        if port is not None:
            move = nav.to_port(plan.chart, lead.type, lead.area, lead.port, port, harbor=False)
            return ShipOrder(lead.id, movement=move, contact=contact, combat=combat)
    if level.convoy and lead.port is None and lead.area in plan.own_trade_areas:
        # rule 4.8: convoying forces accept contact
        return ShipOrder(lead.id, contact=Contact(), combat=combat, commerce=Commerce.CONVOY)
    home = plan.nearest_friendly_port(lead)
    if home is not None and lead.port is None and lead.area != plan.map.ports[home].sea_area:
        move = nav.to_port(plan.chart, lead.type, lead.area, lead.port, home, harbor=False)
        return ShipOrder(lead.id, movement=move, contact=contact, combat=combat)
    if lead.port is not None:
        return ShipOrder(lead.id, movement=Movement(sea_areas=(lead.area,)), contact=contact, combat=combat)
    return ShipOrder(lead.id, contact=contact, combat=combat)


def _blockade_port(plan: Plan, lead: OwnShip, weight: float) -> str | None:
    """The enemy port to blockade (6.5: the coastal waters): a port where
    enemy ships are known and can be beaten, else the nearest enemy-held
    port with a yard (where his fleets lie, 3.3)."""
    home_map = plan.map.sea_areas[lead.area].map
    candidates = [
        p
        for p in plan.enemy_held_ports
        if plan.map.sea_areas[plan.map.ports[p].sea_area].map == home_map
        and plan.map.ports[p].yard > 0
        and tactics.odds(weight, plan.view.enemy_ports.get(p, 0.0)) >= plan.level.attack_odds
    ]
    if not candidates:
        return None
    known = [p for p in candidates if plan.view.enemy_ports.get(p, 0.0) > 0]
    pool = known or candidates
    by_area: dict[str, list[str]] = {}
    for p in pool:
        for a in plan.map.ports[p].reachable_sea_areas:
            by_area.setdefault(a, []).append(p)
    way = plan.chart.way(lead.type, lead.area, by_area)
    if way is None:
        return None
    return min(by_area[way[-1] if way else lead.area])
