"""The order desk's checks of an ``operation`` line (EiA new naval rules):
the same checks the operations phase makes (pate.core.rules.eiaops.declare),
made when the order arrives so that the player reads the refusal beside it."""

from __future__ import annotations

from pate.core.orders.model import ShipOrder
from pate.core.orders.refusal import INVALID, PRECONDITION, Refusal
from pate.core.rules.data import RuleData
from pate.core.rules.eiaops.declare import fleet_of, problem
from pate.core.rules.eiaops.params import OpsRules
from pate.core.world.geography import WorldMap
from pate.core.world.ships import Ship
from pate.core.world.state import WorldState

RULE = "EiA new naval rules"
OPERATIONS = "eia-operations"


def check_operation(
    order: ShipOrder, ship: Ship, world: WorldState, world_map: WorldMap, rules: RuleData
) -> list[Refusal]:
    op = order.operation
    if op is None:
        return []
    if world.naval_rules != OPERATIONS:
        msg = f"operations are orders of the EiA new naval rules; this campaign plays {world.naval_rules!r}"
        return [Refusal("operation", RULE, msg, PRECONDITION)]
    if order.movement.moves:
        msg = "under the EiA new naval rules a fleet moves by its operation: leave out the move line"
        return [Refusal("movement", f"{RULE}, Fleet markers", msg, INVALID)]
    if ship.attached_to is not None or order.attach_to is not None:
        lead = order.attach_to or ship.attached_to
        msg = f"{ship.id} is attached to {lead}: the fleet's lead ship declares its operation"
        return [Refusal("operation", f"{RULE}, Fleet markers", msg, PRECONDITION)]
    fleet = fleet_of(world, ship)
    if fleet is None:
        return [
            Refusal(
                "operation",
                f"{RULE}, Fleet markers",
                "only a fleet on the map declares an operation",
                PRECONDITION,
            )
        ]
    why = problem(world_map, world, fleet, op, OpsRules.from_rules(rules))
    if why is None:
        return []
    code = INVALID if why.field in ("operation.to", "operation.chain") else PRECONDITION
    return [Refusal(why.field, f"{RULE}, {why.section}", why.message, code)]
