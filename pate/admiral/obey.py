"""The bot follows the player's standing instructions before its own judgement
(docs/formats/standing.md, "What the bot does").

For each ship it orders that leads itself (not attached to another, rule 4.4),
the first instruction that covers it and whose condition holds by the
player's own report replaces the bot's order for it.  The numbers:

- the enemy "sighted" near a ship is the sum of the weights the report gives
  (contacts, frigates' sightings, intelligence; pate/admiral/view.py) in its
  sea area and in every sea area bordering it, this turn's knowledge only:
  the remembered picture of earlier turns does not trigger an instruction;
- its own weight is its class's and that of every ship attached to it
  (flagship 1.3, ship of the line 1.0, frigate 0.25, transports 0);
- "enemy sighted" holds when that enemy weight is above 0; "superior enemy
  sighted" when it is above the ship's own weight times SUPERIOR_RATIO (1.0).
"""

from __future__ import annotations

from collections.abc import Sequence

from pate.admiral import navigation as nav
from pate.admiral import tactics
from pate.admiral.plan import FULL_STORES, Plan
from pate.admiral.squadrons import retreat
from pate.admiral.standing import Action, Condition, Instruction, check_standing, first_for
from pate.admiral.view import WEIGHT, OwnShip
from pate.core.orders.model import Combat, CombatStance, FleeTo, ShipOrder

SUPERIOR_RATIO = 1.0


def enemy_near(plan: Plan, ship: OwnShip) -> float:
    """The enemy weight known this turn in the ship's sea area and the areas bordering it."""
    areas = {ship.area, *plan.map.sea_areas[ship.area].adjacent}
    return sum(plan.view.enemy_weight.get(a, 0.0) for a in sorted(areas))


def own_weight(plan: Plan, ship: OwnShip) -> float:
    """The ship's class weight and that of the ships attached to it, undamaged and unrated:
    the player reads these from his report as plainly as the bot does."""
    squadron = [ship, *(s for s in plan.view.ships if s.lead == ship.id)]
    return sum(WEIGHT.get(s.type, 1.0) for s in squadron)


def conditions(plan: Plan, ship: OwnShip) -> dict[Condition, bool]:
    enemy = enemy_near(plan, ship)
    return {
        Condition.ALWAYS: True,
        Condition.ENEMY: enemy > 0,
        Condition.SUPERIOR: enemy > own_weight(plan, ship) * SUPERIOR_RATIO,
    }


def follow(
    instructions: Sequence[Instruction], plan: Plan, mine: Sequence[OwnShip], orders: Sequence[ShipOrder]
) -> list[ShipOrder]:
    """The bot's orders with those of the ships an instruction covers replaced.  Lines that no
    longer fit his report (a ship lost, a port changed hands) are left out, as if not written."""
    ids = {s.id for s in mine}
    usable, _ = check_standing(instructions, ids, plan.map, plan.view.allies)
    if not usable:
        return list(orders)
    out = {o.ship_id: o for o in orders}
    for ship in mine:
        if ship.lead is not None:
            continue  # it sails with its lead (4.4): an instruction for the lead takes it along
        holds = conditions(plan, ship)
        ins = first_for([i for i in usable if _possible(plan, i)], ship.id, holds)
        if ins is not None:
            out[ship.id] = order_for(plan, ship, ins)
    return [out[k] for k in sorted(out)]


def _possible(plan: Plan, ins: Instruction) -> bool:
    """A return to a port the report no longer counts as friendly (enemy ships known in it)
    is not followed: the bot judges for itself."""
    return ins.action is not Action.RETURN or ins.port in plan.friendly_ports


def order_for(plan: Plan, ship: OwnShip, ins: Instruction) -> ShipOrder:
    evade = Combat(stance=CombatStance.EVADE, flee_to=FleeTo.HARBOR)
    stores = FULL_STORES if ship.port in plan.friendly_ports and ship.stores < FULL_STORES else None
    if ins.action is Action.RETURN:
        assert ins.port is not None
        move = nav.to_port(plan.chart, ship.type, ship.area, ship.port, ins.port, harbor=True)
        return ShipOrder(ship.id, movement=move, contact=tactics.fleeing(), combat=evade, stores=stores)
    if ins.action is Action.KEEP_IN_PORT:
        if ship.port is None:
            return retreat(plan, ship)  # at sea: the nearest friendly harbor, as the bot retreats
        move = nav.to_port(plan.chart, ship.type, ship.area, ship.port, ship.port, harbor=True)
        return ShipOrder(ship.id, movement=move, contact=tactics.fleeing(), combat=evade, stores=stores)
    assert ins.port is not None
    squadron = [ship, *(s for s in plan.view.ships if s.lead == ship.id)]
    weight = plan.weight(squadron)
    move = nav.to_port(plan.chart, ship.type, ship.area, ship.port, ins.port, harbor=False)
    odds = tactics.odds(weight, plan.view.enemy_ports.get(ins.port, 0.0))
    return ShipOrder(
        ship.id,
        movement=move,
        contact=tactics.hunting(weight, plan.level, into_ports=False),
        combat=tactics.battle(odds, plan.level),
        stores=stores,
    )
