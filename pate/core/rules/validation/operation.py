"""The order desk's checks of an ``operation`` line (EiA new naval rules):
the same checks the operations phase makes (pate.core.rules.eiaops.declare),
made when the order arrives so that the player reads the refusal beside it."""

from __future__ import annotations

from pate.core.orders.column_check import column_limits, column_problems
from pate.core.orders.lexer import SEA_CODE
from pate.core.orders.model import ShipOrder
from pate.core.orders.operation import (
    DECLARE_AT_MAX,
    MAY_RETURN,
    WITH_CHAIN,
    WITH_CORPS,
    WITH_DESTINATION,
    Operation,
)
from pate.core.orders.operation_text import CHAIN_MAX, CORPS, NAME_MAX
from pate.core.orders.refusal import INVALID, PRECONDITION, Refusal
from pate.core.ruledata import RuleData
from pate.core.rules.eiaops.declare import fleet_of, problem
from pate.core.rules.eiaops.params import OpsRules
from pate.core.world.geography import WorldMap
from pate.core.world.ships import Ship
from pate.core.world.state import EIA_OPERATIONS, WorldState

RULE = "EiA new naval rules"


def _limits(op: Operation) -> list[Refusal]:
    out: list[Refusal] = []
    if len(op.chain) > CHAIN_MAX or (op.chain and op.kind not in WITH_CHAIN):
        out.append(
            Refusal(
                "operation.chain",
                RULE,
                f"only Protect Trade and Supply name a chain, of at most {CHAIN_MAX} sea zones",
                INVALID,
            )
        )
    elif any(not isinstance(c, str) or not SEA_CODE.fullmatch(c) for c in op.chain):
        out.append(Refusal("operation.chain", RULE, "give three-letter sea area codes", INVALID))
    if op.corps is not None and (op.kind not in WITH_CORPS or not CORPS.fullmatch(op.corps)):
        out.append(
            Refusal(
                "operation.corps",
                RULE,
                "only Transport and Invasion name a corps, a GITM unit id of at most 32 characters",
                INVALID,
            )
        )
    if op.to is not None and (op.kind not in WITH_DESTINATION or len(op.to) > NAME_MAX):
        out.append(
            Refusal(
                "operation.to",
                RULE,
                f"only Rebase, Transport and Invasion name a destination, of at most {NAME_MAX} characters",
                INVALID,
            )
        )
    if op.return_to_base and op.kind not in MAY_RETURN:
        msg = "only a Transport or Invasion fleet may return to base instead of staying"
        out.append(Refusal("operation.return_to_base", RULE, msg, INVALID))
    if not 0 <= op.declare_at <= DECLARE_AT_MAX:
        msg = f"the place in the round is 1 to {DECLARE_AT_MAX} (0: last)"
        out.append(Refusal("operation.declare_at", RULE, msg, INVALID))
    out += column_limits(op.columns)
    if (op.kind in WITH_CORPS and op.corps is None) or (op.kind in WITH_DESTINATION and op.to is None):
        out.append(Refusal("operation", RULE, f"{op.kind.value} needs its corps and destination", INVALID))
    return out


def check_operation(
    order: ShipOrder, ship: Ship, world: WorldState, world_map: WorldMap, rules: RuleData
) -> list[Refusal]:
    op = order.operation
    if op is None:
        return []
    too_big = _limits(op)  # before any other work: the order may come as JSON or protobuf
    if too_big:
        return too_big
    if world.naval_rules != EIA_OPERATIONS:
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
    ops = OpsRules.from_rules(rules)
    why = problem(world_map, world, fleet, op, ops)
    if why is None:
        return column_problems(world, fleet.ships, op.columns, ops.max_columns)
    code = INVALID if why.field in ("operation.to", "operation.chain") else PRECONDITION
    return [Refusal(why.field, f"{RULE}, {why.section}", why.message, code)]
